// The worker's two queues (SQS on AWS, fauxqs locally): `jobs` for long work, and `email` for the
// outbox's e-mails and the jobs that queue them (a digest send), so a long run never holds an
// e-mail up (ADR 0058). Every message says what it is, `{kind, version}`, and the worker
// dispatches on that: a job's names its process (and a chunked run's piece, its chunk's index),
// an e-mail's its outbox e-mail.
import { SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { config } from '#core/config';
import { countCallsOf, withoutSdkLogging } from '#core/db';

let client: SQSClient | undefined;

export function sqs(): SQSClient {
  const { SQS_ENDPOINT, AWS_REGION } = config();
  if (!client) {
    client = new SQSClient({
      region: AWS_REGION,
      ...(SQS_ENDPOINT && {
        endpoint: SQS_ENDPOINT,
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        useQueueUrlAsEndpoint: false,
      }),
    });
    countCallsOf('sqs', client.middlewareStack);
    withoutSdkLogging(client.middlewareStack);
  }
  return client;
}

export type QueueName = 'jobs' | 'email';

/**
 * A queue's URL. Without EMAIL_QUEUE_URL (a benchmark that starts one queue) e-mails share the
 * jobs queue, which the worker still tells apart by kind.
 */
export function queueUrl(queue: QueueName = 'jobs'): string {
  const { JOBS_QUEUE_URL, EMAIL_QUEUE_URL } = config();
  const url = queue === 'email' ? (EMAIL_QUEUE_URL ?? JOBS_QUEUE_URL) : JOBS_QUEUE_URL;
  if (!url) throw new Error('JOBS_QUEUE_URL is not configured');
  return url;
}

/** The messages' one format so far; a reader meeting a later one drops it instead of guessing. */
export const MESSAGE_VERSION = 1;

export type JobMessage = { kind: 'job'; version: 1; processId: string; chunk?: number };
export type EmailMessage = { kind: 'email'; version: 1; outboundEmailId: string };
export type QueueMessage = JobMessage | EmailMessage;

export const jobMessage = (processId: string, chunk?: number): JobMessage => ({
  kind: 'job',
  version: MESSAGE_VERSION,
  processId,
  ...(chunk !== undefined && { chunk }),
});

export const emailMessage = (outboundEmailId: string): EmailMessage => ({
  kind: 'email',
  version: MESSAGE_VERSION,
  outboundEmailId,
});

/** What a message body says it is, if it says so in a version this code reads. */
export function kindOf(body: string): QueueMessage['kind'] | undefined {
  try {
    const { kind, version } = JSON.parse(body) as Partial<QueueMessage>;
    if (version !== MESSAGE_VERSION) return undefined;
    return kind === 'job' || kind === 'email' ? kind : undefined;
  } catch {
    return undefined;
  }
}

export async function send(
  message: QueueMessage,
  queue: QueueName = 'jobs',
  delaySeconds = 0,
): Promise<void> {
  await sqs().send(
    new SendMessageCommand({
      QueueUrl: queueUrl(queue),
      MessageBody: JSON.stringify(message),
      ...(delaySeconds > 0 && { DelaySeconds: delaySeconds }),
    }),
  );
}

/** SQS takes at most 10 messages per SendMessageBatch. */
const SEND_BATCH = 10;

/** Sends every message to `queue` (its JSON as the body), 10 per request; throws if any was refused. */
export async function sendAll(
  messages: readonly QueueMessage[],
  queue: QueueName = 'jobs',
): Promise<void> {
  for (let start = 0; start < messages.length; start += SEND_BATCH) {
    const batch = messages.slice(start, start + SEND_BATCH);
    const { Failed = [] } = await sqs().send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl(queue),
        Entries: batch.map((message, index) => ({
          Id: String(index),
          MessageBody: JSON.stringify(message),
        })),
      }),
    );
    if (Failed.length > 0)
      throw new Error(
        `SQS refused ${Failed.length} of ${batch.length} messages: ${Failed[0]?.Message ?? Failed[0]?.Code}`,
      );
  }
}
