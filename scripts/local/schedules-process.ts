// The schedules on their own, as EventBridge Scheduler runs apart from the app: croner runs each
// schedule's cron and hands it to the cron Lambda's handler code (functions/cron.ts), which queues
// the job for the worker process. Configured by the environment npm start sets.
import { flush } from '#core/logs';
import { SCHEDULES } from '#core/worker';
import { handler } from '../../functions/cron';
import { serveAsChild } from './child-process';
import { startScheduler } from './jobs';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const scheduler = startScheduler(SCHEDULES, (schedule) => handler({ schedule }));
serveAsChild(async () => {
  scheduler.stop();
  await flush();
});
