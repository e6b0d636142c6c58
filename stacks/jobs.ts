// Jobs on AWS: the worker Lambda fed by the jobs queue, the same handler fed by the e-mail queue
// with a concurrency of its own (ADR 0058), and one EventBridge schedule per entry of
// core/worker/schedules.ts, each calling the cron handler.
import { SCHEDULES, toEventBridgeCron } from '../core/worker/schedules';
import { NATIVE_MODULES, serverEnvironment, serverLinks } from './environment';
import { emailQueue, jobsQueue, scheduleDeadLetters } from './queue';

const functionDefaults = {
  runtime: 'nodejs22.x' as const,
  link: serverLinks,
  environment: serverEnvironment,
  nodejs: { install: NATIVE_MODULES },
};

export const worker = jobsQueue.subscribe(
  {
    ...functionDefaults,
    handler: 'functions/worker.handler',
    timeout: '15 minutes',
    memory: '1024 MB',
  },
  {
    // One message per invocation: a chunked job's chunks run as parallel invocations, and the
    // 15-minute timeout stays under the queue's 16-minute visibility timeout (stacks/queue.ts).
    batch: { size: 1, partialResponses: true },
    // Chunks fan out at most this wide, so one big run cannot flood the AI provider or the table.
    transform: { eventSourceMapping: { scalingConfig: { maximumConcurrency: 10 } } },
  },
);

/**
 * E-mails (and a digest send's chunks, which queue them) on their own worker: it never waits for a
 * jobs slot, and its own cap keeps the SMTP provider's send rate the limit, not Lambda.
 */
export const emailWorker = emailQueue.subscribe(
  {
    ...functionDefaults,
    handler: 'functions/worker.handler',
    timeout: '5 minutes',
    memory: '1024 MB',
  },
  {
    batch: { size: 1, partialResponses: true },
    transform: { eventSourceMapping: { scalingConfig: { maximumConcurrency: 5 } } },
  },
);

/**
 * A schedule's run is never lost silently: Scheduler retries a delivery that failed, and Lambda
 * retries a cron that threw (Scheduler invokes it asynchronously); either one that gives up puts
 * the event in ScheduleDeadLetters, whose alarm (stacks/alarms.ts) tells the operator.
 */
const SCHEDULE_DELIVERY_RETRIES = 3;
const CRON_RETRIES = 2;

export const crons = SCHEDULES.map(
  (schedule) =>
    new sst.aws.CronV2(`Schedule-${schedule.id}`, {
      schedule: toEventBridgeCron(schedule.cron),
      function: {
        ...functionDefaults,
        handler: 'functions/cron.handler',
        timeout: '1 minute',
        retries: CRON_RETRIES,
        // Lambda sends a failed asynchronous event to its destination with the function's role.
        permissions: [{ actions: ['sqs:SendMessage'], resources: [scheduleDeadLetters.arn] }],
        transform: {
          eventInvokeConfig: (invokeConfig) => {
            invokeConfig.destinationConfig = {
              onFailure: { destination: scheduleDeadLetters.arn },
            };
          },
        },
      },
      event: { schedule: schedule.id },
      retries: SCHEDULE_DELIVERY_RETRIES,
      dlq: scheduleDeadLetters.arn,
    }),
);

export { emailQueue, jobsQueue };
