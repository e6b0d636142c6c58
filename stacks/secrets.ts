// One SST secret per secret setting of core/config (core/config/secrets.ts names them), set per
// stage with `npx sst secret set <Name> <value> --stage <stage>`. AppSecret and SmtpUrl have no
// default, so a deploy fails while either is unset; the others default to the placeholder, which
// core/config reads as unset, so a feature that needs one (MAILING_LIST=mailchimp) fails the
// start naming the secret to set. Only server functions receive them, as links.
import { SECRET_PLACEHOLDER, SECRET_SETTINGS, type SecretSetting } from '../core/config/secrets';

/** Secrets every deploy must set. */
const REQUIRED: SecretSetting[] = ['APP_SECRET', 'SMTP_URL'];

export const secrets = Object.fromEntries(
  Object.entries(SECRET_SETTINGS).map(([setting, name]) => [
    setting,
    REQUIRED.includes(setting as SecretSetting)
      ? new sst.Secret(name)
      : new sst.Secret(name, SECRET_PLACEHOLDER),
  ]),
) as Record<SecretSetting, sst.Secret>;

/** The HMAC key for signed tokens (e-mail links, sessions); at least 32 characters. */
export const appSecret = secrets.APP_SECRET;
