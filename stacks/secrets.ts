// Secrets are set per stage with `npx sst secret set <Name> <value> --stage <stage>`; a deploy
// fails while one without a default is unset. Only the server function receives their values.

/** HMAC key for signed tokens (e-mail links, sessions); at least 32 characters. */
export const appSecret = new sst.Secret('AppSecret');

/** Outgoing mail: an SMTP URL such as smtps://user:pass@email-smtp.eu-west-1.amazonaws.com:465. */
export const smtpUrl = new sst.Secret('SmtpUrl');

/** Mailchimp API key; the list mirror is used only when the deploy sets MAILING_LIST=mailchimp. */
export const mailchimpApiKey = new sst.Secret('MailchimpApiKey', 'unset');

/** OpenAI API key for models of provider 'openai'; 'unset' leaves them off (local models work). */
export const openAiApiKey = new sst.Secret('OpenAiApiKey', 'unset');
