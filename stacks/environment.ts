// What every server function reads (core/config): the web app, the jobs worker and the crons get
// the same environment and links, so a job sees the configuration a request sees. Secrets reach
// them only as links (core/config reads them through SST's Resource), never as plain environment
// variables, which anyone who may read the Lambda configuration sees.
import { emailQueue, jobsQueue } from './queue';
import { router } from './router';
import { secrets } from './secrets';
import { DEPLOY_SETTINGS } from './settings';
import { table } from './storage';

const fromDeployShell = Object.fromEntries(
  DEPLOY_SETTINGS.flatMap((name) =>
    process.env[name]?.trim() ? [[name, process.env[name]!.trim()]] : [],
  ),
);

export const serverEnvironment = {
  TABLE_NAME: table.name,
  JOBS_QUEUE_URL: jobsQueue.url,
  EMAIL_QUEUE_URL: emailQueue.url,
  PUBLIC_URL: router.url,
  ...fromDeployShell,
};

export const serverLinks = [table, jobsQueue, emailQueue, ...Object.values(secrets)];

export { NATIVE_MODULES } from './native-modules';
