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
});

export type Config = v.InferOutput<typeof ConfigSchema>;

let parsed: Config | undefined;

export function config(): Config {
  if (parsed) return parsed;
  const result = v.safeParse(ConfigSchema, process.env);
  if (!result.success) {
    const fields = result.issues.map((issue) => `${v.getDotPath(issue) ?? '?'}: ${issue.message}`);
    throw new Error(`Invalid configuration: ${fields.join('; ')}`);
  }
  parsed = result.output;
  return parsed;
}

/** Values the browser may see; nothing else from config ever reaches a page. */
export function publicConfig() {
  return { contactEmail: config().CONTACT_EMAIL };
}
