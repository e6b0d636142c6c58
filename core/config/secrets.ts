// The settings that are secrets: on AWS each is an SST secret of this name (stacks/secrets.ts
// creates them from this map) linked to every server function, never an environment variable.
export const SECRET_SETTINGS = {
  APP_SECRET: 'AppSecret',
  SMTP_URL: 'SmtpUrl',
  MAILCHIMP_API_KEY: 'MailchimpApiKey',
  OPENAI_API_KEY: 'OpenAiApiKey',
  READER_FEED_SECRET: 'ReaderFeedSecret',
  OPENAI_COMPATIBLE_API_KEY: 'OpenAiCompatibleApiKey',
} as const;

export type SecretSetting = keyof typeof SECRET_SETTINGS;

/**
 * The default of an optional secret, so a deploy need not set one it does not use. Config reads it
 * (and the other stand-ins people type) as unset, so a feature that needs the secret fails by name.
 */
export const SECRET_PLACEHOLDER = 'unset';

const STAND_INS = new Set([SECRET_PLACEHOLDER, 'changeme', 'change-me', 'placeholder', 'todo']);

export function isSecretPlaceholder(value: string | undefined): boolean {
  return value !== undefined && STAND_INS.has(value.trim().toLowerCase());
}
