// What every server function reads (core/config): the web app, the jobs worker and the crons get
// the same environment and links, so a job sees the configuration a request sees.
import { jobsQueue } from './queue';
import { router } from './router';
import { appSecret, mailchimpApiKey, openAiApiKey, smtpUrl } from './secrets';
import { table } from './storage';

/** Optional settings read at deploy time; the app's defaults apply to those left unset. */
const optional = (names: string[]) =>
  Object.fromEntries(
    names.flatMap((name) => (process.env[name]?.trim() ? [[name, process.env[name]!.trim()]] : [])),
  );

export const serverEnvironment = {
  TABLE_NAME: table.name,
  APP_SECRET: appSecret.value,
  SMTP_URL: smtpUrl.value,
  MAILCHIMP_API_KEY: mailchimpApiKey.value,
  OPENAI_API_KEY: openAiApiKey.value,
  JOBS_QUEUE_URL: jobsQueue.url,
  PUBLIC_URL: router.url,
  ...optional([
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
  ]),
  // AWS_REGION is set by Lambda itself; DYNAMODB_ENDPOINT and SQS_ENDPOINT stay unset on AWS.
};

export const serverLinks = [table, jobsQueue, appSecret, smtpUrl, mailchimpApiKey, openAiApiKey];

export { NATIVE_MODULES } from './native-modules';
