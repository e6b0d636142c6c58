// The local job runtime: fauxqs stands in for SQS (the jobs and e-mail queues, each with its
// dead-letter queue, ADR 0058), a poller per queue feeds the same worker handler Lambda runs with
// an SQSEvent (several messages at once, so a chunked job's chunks run in parallel), and croner
// runs the same schedules as EventBridge.
import { DeleteMessageBatchCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { hostname } from 'node:os';
import { Cron } from 'croner';
import { startFauxqs } from 'fauxqs';

/** The jobs queue's settings as on AWS (stacks/): npm start's defaults, which a test scales down. */
export type QueueSettings = {
  /** How long a received message stays hidden before it is delivered again. */
  visibilityTimeoutSeconds?: number;
  /** A message seen this often without success moves to the dead-letter queue. */
  maxReceives?: number;
};

/** The jobs queue's attributes, sending what fails `maxReceives` times to `deadLetterArn`. */
export function queueAttributes(
  deadLetterArn: string,
  { visibilityTimeoutSeconds = 900, maxReceives = 5 }: QueueSettings = {},
): Record<string, string> {
  return {
    VisibilityTimeout: String(visibilityTimeoutSeconds),
    RedrivePolicy: JSON.stringify({
      deadLetterTargetArn: deadLetterArn,
      maxReceiveCount: maxReceives,
    }),
  };
}

/** As on AWS (stacks/queue.ts): longer than the e-mail worker's 5 minutes. */
const EMAIL_VISIBILITY = 6 * 60;

export async function startQueue() {
  // Queue URLs name the host 'localhost'; the SDK is pointed at the endpoint, never at that host.
  const server = await startFauxqs({ port: 0, logger: false });
  const dlq = server.createQueue('cluefeed-jobs-dlq');
  const queue = server.createQueue('cluefeed-jobs', {
    attributes: queueAttributes(dlq.queueArn),
  });
  const emailDlq = server.createQueue('cluefeed-email-dlq');
  const email = server.createQueue('cluefeed-email', {
    attributes: queueAttributes(emailDlq.queueArn, { visibilityTimeoutSeconds: EMAIL_VISIBILITY }),
  });
  return {
    endpoint: server.address,
    queueUrl: queue.queueUrl,
    emailQueueUrl: email.queueUrl,
    stop: () => server.stop(),
  };
}

type Handler = (event: SQSEvent) => Promise<SQSBatchResponse>;

/** Messages handled at once locally: chunks of a chunked job run in parallel, as on AWS. */
export const POLLER_CONCURRENCY = 4;
/** E-mail messages handled at once locally, beside the jobs' (the send rate paces them anyway). */
export const EMAIL_POLLER_CONCURRENCY = 2;

/**
 * Long-polls the queue with `concurrency` loops, each handing `handler` one message at a time
 * (the worker's batch size on AWS, where Lambda scales out); only successes are deleted.
 */
export function startPoller(options: {
  endpoint: string;
  queueUrl: string;
  handler: Handler;
  concurrency?: number;
  /** The queue's name as an event names its source ('cluefeed-email'). */
  name?: string;
}) {
  const sqs = new SQSClient({
    endpoint: options.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    useQueueUrlAsEndpoint: false,
  });
  let running = true;
  const poll = async () => {
    while (running) {
      try {
        const { Messages = [] } = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: options.queueUrl,
            MaxNumberOfMessages: 1,
            WaitTimeSeconds: 1,
          }),
        );
        if (Messages.length === 0) continue;
        const event: SQSEvent = {
          Records: Messages.map((message) => ({
            messageId: message.MessageId!,
            receiptHandle: message.ReceiptHandle!,
            body: message.Body ?? '',
            attributes: {} as SQSEvent['Records'][number]['attributes'],
            messageAttributes: {},
            md5OfBody: message.MD5OfBody ?? '',
            eventSource: 'aws:sqs',
            eventSourceARN: `arn:aws:sqs:us-east-1:000000000000:${options.name ?? 'cluefeed-jobs'}`,
            awsRegion: 'us-east-1',
          })),
        };
        const { batchItemFailures } = await options.handler(event);
        const failed = new Set(batchItemFailures.map((failure) => failure.itemIdentifier));
        const done = event.Records.filter((record) => !failed.has(record.messageId));
        if (done.length > 0) {
          await sqs.send(
            new DeleteMessageBatchCommand({
              QueueUrl: options.queueUrl,
              Entries: done.map((record, index) => ({
                Id: String(index),
                ReceiptHandle: record.receiptHandle,
              })),
            }),
          );
        }
      } catch (error) {
        if (running) {
          console.error('Job poller:', error instanceof Error ? error.message : error);
          await new Promise((resolve) => setTimeout(resolve, 1_000));
        }
      }
    }
  };
  const loops = Array.from({ length: options.concurrency ?? POLLER_CONCURRENCY }, poll);
  return {
    stop: async () => {
      running = false;
      await Promise.all(loops);
      sqs.destroy();
    },
  };
}

/** Runs each schedule's cron locally (UTC, like EventBridge). */
export function startScheduler(
  schedules: { id: string; cron: string }[],
  run: (id: string) => Promise<void>,
) {
  const jobs = schedules.map(
    (schedule) =>
      new Cron(schedule.cron, { timezone: 'UTC', protect: true }, () =>
        run(schedule.id).catch((error: unknown) =>
          console.error(`Schedule ${schedule.id}:`, error),
        ),
      ),
  );
  return { stop: () => jobs.forEach((job) => job.stop()) };
}

/** A local run's worker name: this host, the `npm start` process and when it started. */
export function localWorkerName(pid = process.pid, startedAt = new Date()): string {
  return `local ${hostname()} ${pid} ${startedAt.toISOString()}`;
}

/**
 * Whether the worker `name`d by a local run (`localWorkerName`) is gone, as seen by the run named
 * `current`: a run on this host whose process has ended, or whose pid is now this run's. A worker
 * of another host or of a run still alive (a second `npm start` on the same data) is not.
 */
export function isGoneLocalWorker(name: string, current: string): boolean {
  const [, host, pid] = /^local (\S+) (\d+) \S+$/.exec(name) ?? [];
  if (!host || host !== hostname() || name === current) return false;
  if (Number(pid) === Number(current.split(' ')[2])) return true;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (error) {
    // EPERM: a process of another user has that pid, so it is alive.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
