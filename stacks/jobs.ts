// Jobs on AWS: the worker Lambda fed by the jobs queue, and one EventBridge schedule per entry of
// core/automations/schedules.ts, each calling the cron handler.
import { SCHEDULES, toEventBridgeCron } from '../core/automations/schedules';
import { serverEnvironment, serverLinks } from './environment';
import { jobsQueue } from './queue';

const functionDefaults = {
  runtime: 'nodejs22.x' as const,
  link: serverLinks,
  environment: serverEnvironment,
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

export { jobsQueue };
