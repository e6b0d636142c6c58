// Secrets are set per stage with `npx sst secret set <Name> <value> --stage <stage>`; a deploy
// fails while one without a default is unset. Only the server function receives their values.

/** HMAC key for signed tokens (e-mail links, sessions); at least 32 characters. */
export const appSecret = new sst.Secret('AppSecret');
