// The only reader of process.env: every setting is parsed once with valibot and fails with the
// names of the bad fields, so a misconfigured deploy stops at start-up instead of mid-request.
import * as v from 'valibot';

const ConfigSchema = v.object({
  NODE_ENV: v.optional(v.picklist(['development', 'production', 'test']), 'production'),
  TABLE_NAME: v.optional(v.pipe(v.string(), v.minLength(3)), 'cluefeed'),
  DYNAMODB_ENDPOINT: v.optional(v.pipe(v.string(), v.url())),
  AWS_REGION: v.optional(v.string(), 'us-east-1'),
  APP_SECRET: v.pipe(
    v.string('APP_SECRET is required'),
    v.minLength(32, 'APP_SECRET must be at least 32 characters'),
  ),
  PUBLIC_URL: v.optional(v.pipe(v.string(), v.url()), 'http://localhost:3000'),
  CONTACT_EMAIL: v.optional(v.pipe(v.string(), v.email()), 'hello@cluefeed.xyz'),
  /** Multiplies every rate limit: raised for end-to-end tests and benchmarks from one address. */
  RATE_LIMIT_FACTOR: v.optional(
    v.pipe(v.string(), v.transform(Number), v.number(), v.integer(), v.minValue(1)),
    '1',
  ),
  /** The jobs queue (SQS); locally fauxqs at SQS_ENDPOINT. */
  JOBS_QUEUE_URL: v.optional(v.pipe(v.string(), v.url())),
  SQS_ENDPOINT: v.optional(v.pipe(v.string(), v.url())),
  /** Folder of the local SMTP sink, read by the admin Outbox page (local runtime only). */
  MAIL_DIR: v.optional(v.string()),
  /** Outgoing mail: an SMTP URL (smtp://user:pass@host:port or smtps://...). */
  SMTP_URL: v.optional(v.pipe(v.string(), v.url()), 'smtp://127.0.0.1:2525'),
  MAIL_FROM: v.optional(v.string(), 'Cluefeed <newsletter@cluefeed.xyz>'),
  /** Where list-unsubscribe mailto: messages go. */
  UNSUBSCRIBE_MAILTO: v.optional(v.pipe(v.string(), v.email()), 'unsubscribe@cluefeed.xyz'),
  /** The mailing list mirror: 'local' (our table only) or 'mailchimp'. */
  MAILING_LIST: v.optional(v.picklist(['local', 'mailchimp']), 'local'),
  MAILCHIMP_API_KEY: v.optional(v.string()),
  MAILCHIMP_SERVER_PREFIX: v.optional(v.string()),
  MAILCHIMP_LIST_ID: v.optional(v.string()),
  /** Overrides the Mailchimp API base URL (a fake API in tests). */
  MAILCHIMP_API_URL: v.optional(v.pipe(v.string(), v.url())),
  /** AI: the API key for provider 'openai' models (an SST secret on AWS). */
  OPENAI_API_KEY: v.optional(v.string()),
  /** AI: the API key for 'openai-compatible' servers, when they want one (Ollama does not). */
  OPENAI_COMPATIBLE_API_KEY: v.optional(v.string()),
  /** AI: the default models of jobs, as 'provider/model' (an AI model record, or a local one). */
  AI_GPT_MODEL: v.optional(
    v.pipe(v.string(), v.regex(/^[a-z-]+\/.+$/, 'AI_GPT_MODEL must look like provider/model')),
    'local/cluefeed-bm25',
  ),
  AI_EMBEDDINGS_MODEL: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^[a-z-]+\/.+$/, 'AI_EMBEDDINGS_MODEL must look like provider/model'),
    ),
    'local/cluefeed-hashed-256',
  ),
  /** AI: milliseconds one model call may take before it is abandoned (and retried). */
  AI_TIMEOUT_MS: v.optional(
    v.pipe(v.string(), v.transform(Number), v.number(), v.integer(), v.minValue(1000)),
    '60000',
  ),
  /** AI: retries of a call that failed with 429, 5xx or a timeout. */
  AI_MAX_RETRIES: v.optional(
    v.pipe(v.string(), v.transform(Number), v.number(), v.integer(), v.minValue(0), v.maxValue(10)),
    '3',
  ),
});

export type Config = v.InferOutput<typeof ConfigSchema>;

const MAILCHIMP_FIELDS = [
  'MAILCHIMP_API_KEY',
  'MAILCHIMP_SERVER_PREFIX',
  'MAILCHIMP_LIST_ID',
] as const;

let parsed: Config | undefined;

export function config(): Config {
  if (parsed) return parsed;
  const result = v.safeParse(ConfigSchema, process.env);
  if (!result.success) {
    const fields = result.issues.map((issue) => `${v.getDotPath(issue) ?? '?'}: ${issue.message}`);
    throw new Error(`Invalid configuration: ${fields.join('; ')}`);
  }
  if (result.output.MAILING_LIST === 'mailchimp') {
    const missing = MAILCHIMP_FIELDS.filter((name) => !result.output[name]);
    if (missing.length > 0) {
      throw new Error(`Invalid configuration: MAILING_LIST=mailchimp needs ${missing.join(', ')}`);
    }
  }
  parsed = result.output;
  return parsed;
}

/** Values the browser may see; nothing else from config ever reaches a page. */
export function publicConfig() {
  return { contactEmail: config().CONTACT_EMAIL };
}
