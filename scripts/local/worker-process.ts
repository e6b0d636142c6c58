// The worker on its own, as `npm start` runs it and as a test or benchmark can start, kill and
// start it again: a local poller per queue feeding functions/worker.ts's handler, as Lambda does
// on AWS (ADR 0058), configured only by the environment (TABLE_NAME, DYNAMODB_ENDPOINT,
// SQS_ENDPOINT, JOBS_QUEUE_URL, EMAIL_QUEUE_URL (without it, e-mails share the jobs queue),
// SMTP_URL, APP_SECRET, SEND_RATE, POLLER_CONCURRENCY and EMAIL_POLLER_CONCURRENCY, defaults as
// npm start). Prints `worker ready` once it polls.
//
// WORKER_CLOCK_MS_AHEAD (tests only) starts the worker with its clock that far ahead: a worker
// restarted after a crash then finds every lease the dead one held ended, as a worker started by
// the recovery schedule after those leases ran out would, without the test waiting minutes.
import { flush } from '#core/logs';
import { serveAsChild } from './child-process';
import { EMAIL_POLLER_CONCURRENCY, startPoller, POLLER_CONCURRENCY } from './jobs';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const ahead = Number(process.env.WORKER_CLOCK_MS_AHEAD ?? 0);
if (ahead) moveClockAhead(ahead);

function moveClockAhead(ms: number) {
  const RealDate = Date;
  // Only "now" moves; dates built from a value stay what they are.
  class AheadDate extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(RealDate.now() + ms);
      else super(...(args as [string]));
    }
    static override now() {
      return RealDate.now() + ms;
    }
  }
  globalThis.Date = AheadDate as DateConstructor;
}

function firstLine() {
  return new Promise<void>((resolve) => {
    process.stdin.once('data', () => {
      process.stdin.pause();
      resolve();
    });
  });
}

const required = (name: string) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
};

const { handler } = await import('../../functions/worker');
// WORKER_WAIT_FOR_GO: loaded now, polling only once a line arrives on stdin, so a test can have
// the next worker loaded while the current one runs.
if (process.env.WORKER_WAIT_FOR_GO) await firstLine();
const emailQueueUrl = process.env.EMAIL_QUEUE_URL;
const pollers = [
  startPoller({
    endpoint: required('SQS_ENDPOINT'),
    queueUrl: required('JOBS_QUEUE_URL'),
    handler,
    concurrency: Number(process.env.POLLER_CONCURRENCY ?? POLLER_CONCURRENCY),
  }),
  ...(emailQueueUrl
    ? [
        startPoller({
          endpoint: required('SQS_ENDPOINT'),
          queueUrl: emailQueueUrl,
          handler,
          concurrency: Number(process.env.EMAIL_POLLER_CONCURRENCY ?? EMAIL_POLLER_CONCURRENCY),
          name: 'cluefeed-email',
        }),
      ]
    : []),
];
console.log('worker ready');
serveAsChild(async () => {
  await Promise.all(pollers.map((poller) => poller.stop()));
  await flush();
});
