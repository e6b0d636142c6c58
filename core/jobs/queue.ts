// The jobs queue: SQS on AWS, fauxqs locally; a message carries a process id, and for a chunked
// run's piece of work also the chunk's index.
import { SendMessageBatchCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { config } from '#core/config';
import { countCallsOf } from '#core/db';

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
  }
  return client;
}

export function queueUrl(): string {
  const url = config().JOBS_QUEUE_URL;
  if (!url) throw new Error('JOBS_QUEUE_URL is not configured');
  return url;
}

export type JobMessage = { processId: string; chunk?: number };

export async function send(message: JobMessage): Promise<void> {
  await sqs().send(
    new SendMessageCommand({ QueueUrl: queueUrl(), MessageBody: JSON.stringify(message) }),
  );
}

/** SQS takes at most 10 messages per SendMessageBatch. */
const SEND_BATCH = 10;

/**
 * Sends every message (a job's or the outbox's, its JSON as the body), 10 per request; throws if
 * any of them was not accepted.
 */
export async function sendAll(messages: readonly object[]): Promise<void> {
  for (let start = 0; start < messages.length; start += SEND_BATCH) {
    const batch = messages.slice(start, start + SEND_BATCH);
    const { Failed = [] } = await sqs().send(
      new SendMessageBatchCommand({
        QueueUrl: queueUrl(),
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
