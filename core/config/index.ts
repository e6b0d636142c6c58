// The only reader of process.env: every setting is parsed once with valibot and fails with the
// names of the bad fields, so a misconfigured deploy stops at start-up instead of mid-request.
import { isIP } from 'node:net';
import { Resource } from 'sst/resource';
import * as v from 'valibot';
import { isSecretPlaceholder, SECRET_SETTINGS, type SecretSetting } from './secrets';

export { SECRET_PLACEHOLDER, SECRET_SETTINGS, type SecretSetting } from './secrets';

const HOST_NAME = /^[a-z\d]([a-z\d-]*[a-z\d])?(\.[a-z\d]([a-z\d-]*[a-z\d])?)*$/;

/**
 * One FEED_FETCH_ALLOW or MODEL_FETCH_ALLOW entry: a host name or an IP address (`family` 0 for
 * a name), either with a CIDR prefix or a port, which allows that port only (`127.0.0.1:4590`,
 * `[::1]:4590`, `feeds.internal:8080`), or alone, which allows every port.
 */
export type FetchAllowEntry = { host: string; family: 0 | 4 | 6; prefix?: number; port?: number };

/** The entry, or undefined when it is none of the forms above. */
export function parseFetchAllowEntry(entry: string): FetchAllowEntry | undefined {
  const withPort = /^\[([^\]]+)\]:(\d{1,5})$/.exec(entry) ?? /^([^:/]+):(\d{1,5})$/.exec(entry);
  const [, hostPart = entry, portPart] = withPort ?? [];
  const [host = '', prefixPart, ...rest] = hostPart.split('/');
  const family = isIP(host) as 0 | 4 | 6;
  const port = portPart === undefined ? undefined : Number(portPart);
  const prefix = prefixPart === undefined ? undefined : Number(prefixPart);
  if (rest.length > 0 || (port !== undefined && (port < 1 || port > 65_535))) return undefined;
  // A bracketed host is an IPv6 address, and only there may an address's colons stand unbracketed.
  if (port !== undefined && (family === 6) !== entry.startsWith('[')) return undefined;
  if (prefix !== undefined) {
    const bits = family === 4 ? 32 : 128;
    return family !== 0 && port === undefined && /^\d+$/.test(prefixPart!) && prefix <= bits
      ? { host, family, prefix }
      : undefined;
  }
  if (family === 0 && !HOST_NAME.test(host)) return undefined;
  return { host, family, ...(port !== undefined && { port }) };
}

/** A comma-separated list of FetchAllowEntry forms, lower-cased; empty when unset. */
const FetchAllow = (name: string) =>
  v.optional(
    v.pipe(
      v.string(),
      v.transform((value) =>
        value
          .split(',')
          .map((entry) => entry.trim().toLowerCase())
          .filter(Boolean),
      ),
      v.array(
        v.custom<string>(
          (entry) => parseFetchAllowEntry(entry as string) !== undefined,
          `${name} entries must be host names, IP addresses, CIDR ranges or host:port`,
        ),
      ),
    ),
    '',
  );

const ConfigSchema = v.object({
  NODE_ENV: v.optional(v.picklist(['development', 'production', 'test']), 'production'),
  TABLE_NAME: v.optional(v.pipe(v.string(), v.minLength(3)), 'cluefeed'),
  DYNAMODB_ENDPOINT: v.optional(v.pipe(v.string(), v.url())),
  AWS_REGION: v.optional(v.string(), 'us-east-1'),
  APP_SECRET: v.pipe(
    v.string('APP_SECRET is required'),
    v.minLength(32, 'APP_SECRET must be at least 32 characters'),
  ),
  /**
   * The HMAC key of the one-click like/dislike links in readers' private feeds (ADR 0061); unset,
   * a key derived from APP_SECRET signs them. Changing it voids the links already served.
   */
  READER_FEED_SECRET: v.optional(
    v.pipe(v.string(), v.minLength(32, 'READER_FEED_SECRET must be at least 32 characters')),
  ),
  /** Base of absolute links (e-mails); required in production, where localhost would be a bug. */
  PUBLIC_URL: v.optional(v.pipe(v.string(), v.url())),
  CONTACT_EMAIL: v.optional(v.pipe(v.string(), v.email()), 'hello@cluefeed.xyz'),
  /** Multiplies every rate limit: raised for end-to-end tests and benchmarks from one address. */
  RATE_LIMIT_FACTOR: v.optional(
    v.pipe(v.string(), v.transform(Number), v.number(), v.integer(), v.minValue(1)),
    '1',
  ),
  /** The jobs queue (SQS); locally fauxqs at SQS_ENDPOINT. */
  JOBS_QUEUE_URL: v.optional(v.pipe(v.string(), v.url())),
  /** The e-mail queue (ADR 0058); without it e-mails share the jobs queue. */
  EMAIL_QUEUE_URL: v.optional(v.pipe(v.string(), v.url())),
  SQS_ENDPOINT: v.optional(v.pipe(v.string(), v.url())),
  /** The local worker's name, which `npm start` gives it (its claims are then known as its own). */
  JOBS_WORKER: v.optional(v.pipe(v.string(), v.maxLength(200))),
  /** Folder of the local SMTP sink, read by the admin Outbox page (local runtime only). */
  MAIL_DIR: v.optional(v.string()),
  /** Outgoing mail: an SMTP URL (smtp://user:pass@host:port or smtps://...). */
  SMTP_URL: v.optional(v.pipe(v.string(), v.url())),
  MAIL_FROM: v.optional(v.string(), 'Cluefeed <newsletter@cluefeed.xyz>'),
  /**
   * The most e-mails the outbox hands the SMTP server per second, across every worker: the
   * provider's sending limit (Amazon SES starts accounts at 14).
   */
  SEND_RATE: v.optional(
    v.pipe(
      v.string(),
      v.transform(Number),
      v.number('SEND_RATE must be a number'),
      v.integer('SEND_RATE must be a whole number'),
      v.minValue(1, 'SEND_RATE must be at least 1'),
      v.maxValue(1000, 'SEND_RATE must be at most 1000'),
    ),
    '14',
  ),
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
  OPENAI_API_KEY: v.optional(
    v.pipe(
      v.string(),
      // A blank key is no key, so OpenAI models say they are not configured.
      v.transform((key) => (key.trim() === '' ? undefined : key)),
    ),
  ),
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
  /**
   * Feed fetches refuse loopback, private, link-local and metadata addresses; these comma-separated
   * host names, addresses or CIDR ranges (any port), or host:port origins (that port only), are
   * the exceptions (a feed server on the private network; the local fixture feeds' origin).
   */
  FEED_FETCH_ALLOW: FetchAllow('FEED_FETCH_ALLOW'),
  /**
   * Model servers (an AI model's base URL) follow the feeds' address policy: these are the
   * exceptions, in the same forms (an Ollama on the private network; the tests' fake server).
   */
  MODEL_FETCH_ALLOW: FetchAllow('MODEL_FETCH_ALLOW'),
});

/** Outside production a missing PUBLIC_URL or SMTP_URL means this machine. */
const DEVELOPMENT_DEFAULTS = {
  PUBLIC_URL: 'http://localhost:3000',
  SMTP_URL: 'smtp://127.0.0.1:2525',
} as const;

export type Config = v.InferOutput<typeof ConfigSchema> &
  Record<keyof typeof DEVELOPMENT_DEFAULTS, string>;

const MAILCHIMP_FIELDS = [
  'MAILCHIMP_API_KEY',
  'MAILCHIMP_SERVER_PREFIX',
  'MAILCHIMP_LIST_ID',
] as const;

/** Every setting the app reads, from the schema itself (the deploy proof checks each reaches AWS). */
export const SETTING_NAMES = Object.keys(
  ConfigSchema.entries,
) as (keyof typeof ConfigSchema.entries)[];

let parsed: Config | undefined;

/** What a secret holding its placeholder lacks, said so the operator knows which secret to set. */
function placeholderHint(name: string, placeholders: Set<string>): string {
  if (!placeholders.has(name)) return name;
  const secret = SECRET_SETTINGS[name as SecretSetting];
  return `${name} (the ${secret} secret still holds a placeholder: npx sst secret set ${secret} <value>)`;
}

/** The configuration in `env`, or an error naming every bad field. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  // A secret still at its placeholder is no value at all, so a check that needs it fails by name.
  const placeholders = new Set(
    Object.keys(SECRET_SETTINGS).filter((name) => isSecretPlaceholder(env[name])),
  );
  const input = Object.fromEntries(Object.entries(env).filter(([name]) => !placeholders.has(name)));
  const result = v.safeParse(ConfigSchema, input);
  if (!result.success) {
    const fields = result.issues.map(
      (issue) => `${placeholderHint(v.getDotPath(issue) ?? '?', placeholders)}: ${issue.message}`,
    );
    throw new Error(`Invalid configuration: ${fields.join('; ')}`);
  }
  const settings = result.output;
  const problems: string[] = [];
  if (settings.MAILING_LIST === 'mailchimp') {
    const missing = MAILCHIMP_FIELDS.filter((name) => !settings[name]);
    if (missing.length > 0) {
      const named = missing.map((name) => placeholderHint(name, placeholders));
      problems.push(`MAILING_LIST=mailchimp needs ${named.join(', ')}`);
    }
  }
  if (settings.NODE_ENV === 'production') {
    const missing = (['PUBLIC_URL', 'SMTP_URL'] as const).filter((name) => !settings[name]);
    for (const name of missing) {
      problems.push(`${placeholderHint(name, placeholders)} is required when NODE_ENV=production`);
    }
  }
  if (problems.length > 0) throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  return {
    ...settings,
    PUBLIC_URL: settings.PUBLIC_URL ?? DEVELOPMENT_DEFAULTS.PUBLIC_URL,
    SMTP_URL: settings.SMTP_URL ?? DEVELOPMENT_DEFAULTS.SMTP_URL,
  };
}

/**
 * The secrets SST links to this function (on AWS, and under `sst shell`), by setting name. SST's
 * Resource decrypts them from the bundle at run time, so their values never sit in the function's
 * environment; a local run links nothing and reads process.env alone.
 */
export function linkedSecrets(): Partial<Record<SecretSetting, string>> {
  const linked = Resource as unknown as Record<string, { value?: unknown }>;
  return Object.fromEntries(
    Object.entries(SECRET_SETTINGS).flatMap(([setting, secret]) => {
      const value = secret in linked ? linked[secret]?.value : undefined;
      return typeof value === 'string' ? [[setting, value]] : [];
    }),
  );
}

/** The process's configuration, parsed on first use. */
export function config(): Config {
  parsed ??= parseConfig({ ...process.env, ...linkedSecrets() });
  return parsed;
}

/** Values the browser may see; nothing else from config ever reaches a page. */
export function publicConfig() {
  return { contactEmail: config().CONTACT_EMAIL };
}
