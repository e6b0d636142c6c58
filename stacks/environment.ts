// What every server function reads (core/config): the web app, the jobs worker and the crons get
// the same environment and links, so a job sees the configuration a request sees. Secrets reach
// them only as links (core/config reads them through SST's Resource), never as plain environment
// variables, which anyone who may read the Lambda configuration sees.
import { jobsQueue } from './queue';
import { router } from './router';
import { secrets } from './secrets';
import { table } from './storage';

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

/**
 * Settings no function on AWS gets, and why. The deploy proof accounts for every setting
 * core/config reads: forwarded, linked as a secret, or named here.
 */
export const NOT_ON_AWS: Record<string, string> = {
  NODE_ENV: 'unset means production',
  AWS_REGION: 'Lambda sets it to the deploy region',
  DYNAMODB_ENDPOINT: 'DynamoDB Local only',
  SQS_ENDPOINT: 'fauxqs, the local SQS, only',
  MAIL_DIR: "the local SMTP sink's folder",
  MAILCHIMP_API_URL: 'the fake Mailchimp API of the tests',
  RATE_LIMIT_FACTOR: 'raised only for tests and benchmarks from one address',
};

const fromDeployShell = Object.fromEntries(
  DEPLOY_SETTINGS.flatMap((name) =>
    process.env[name]?.trim() ? [[name, process.env[name]!.trim()]] : [],
  ),
);

export const serverEnvironment = {
  TABLE_NAME: table.name,
  JOBS_QUEUE_URL: jobsQueue.url,
  PUBLIC_URL: router.url,
  ...fromDeployShell,
};

export const serverLinks = [table, jobsQueue, ...Object.values(secrets)];

export { NATIVE_MODULES } from './native-modules';
