// Jobs on AWS: the queue (with a dead-letter queue) feeding the worker Lambda, and one EventBridge
// schedule per entry of core/automations/schedules.ts, each calling the cron handler.
import { SCHEDULES, toEventBridgeCron } from '../core/automations/schedules';
import { appSecret, mailchimpApiKey, smtpUrl } from './secrets';
import { table } from './storage';

const deadLetters = new sst.aws.Queue('JobsDeadLetters', { visibilityTimeout: '15 minutes' });

export const jobsQueue = new sst.aws.Queue('Jobs', {
  // Longer than the worker's timeout, so a running job is never handed to a second worker.
  visibilityTimeout: '16 minutes',
  dlq: { queue: deadLetters.arn, retry: 5 },
});

/** What every job-running function needs; the web app gets the same through stacks/web.ts. */
export const jobEnvironment = {
  TABLE_NAME: table.name,
  APP_SECRET: appSecret.value,
  SMTP_URL: smtpUrl.value,
  MAILCHIMP_API_KEY: mailchimpApiKey.value,
  JOBS_QUEUE_URL: jobsQueue.url,
};

const functionDefaults = {
  runtime: 'nodejs22.x' as const,
  link: [table, jobsQueue, appSecret, smtpUrl, mailchimpApiKey],
  environment: jobEnvironment,
};

jobsQueue.subscribe(
  {
    ...functionDefaults,
    handler: 'functions/worker.handler',
    timeout: '15 minutes',
    memory: '1024 MB',
  },
  { batch: { size: 1, partialResponses: true } },
);

for (const schedule of SCHEDULES) {
  new sst.aws.CronV2(`Schedule-${schedule.id}`, {
    schedule: toEventBridgeCron(schedule.cron),
    function: { ...functionDefaults, handler: 'functions/cron.handler', timeout: '1 minute' },
    event: { schedule: schedule.id },
  });
}
