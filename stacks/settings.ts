// How each setting core/config reads reaches the functions on AWS, when it is neither a secret
// (linked, core/config/secrets.ts) nor a resource's name or URL (stacks/environment.ts). Plain
// data, so `npm run deploy:proof` accounts for every setting in core/config's schema with it.

/** Settings an operator may set in the deploy shell; the app's defaults apply to those left unset. */
export const DEPLOY_SETTINGS = [
  'CONTACT_EMAIL',
  'MAIL_FROM',
  'UNSUBSCRIBE_MAILTO',
  'SEND_RATE',
  'MAILING_LIST',
  'MAILCHIMP_SERVER_PREFIX',
  'MAILCHIMP_LIST_ID',
  'AI_GPT_MODEL',
  'AI_EMBEDDINGS_MODEL',
  'AI_TIMEOUT_MS',
  'AI_MAX_RETRIES',
  'FEED_FETCH_ALLOW',
  'MODEL_FETCH_ALLOW',
];

/** Settings no function on AWS gets, and why. */
export const NOT_ON_AWS: Record<string, string> = {
  NODE_ENV: 'unset means production',
  AWS_REGION: 'Lambda sets it to the deploy region',
  DYNAMODB_ENDPOINT: 'DynamoDB Local only',
  SQS_ENDPOINT: 'fauxqs, the local SQS, only',
  MAIL_DIR: "the local SMTP sink's folder",
  MAILCHIMP_API_URL: 'the fake Mailchimp API of the tests',
  RATE_LIMIT_FACTOR: 'raised only for tests and benchmarks from one address',
  JOBS_WORKER: "the local runtime's worker name, for recovery after an unclean stop",
};
