// The jobs queue: SQS on AWS, fauxqs locally; a message carries only a process id.
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { config } from '#core/config';

let client: SQSClient | undefined;

export function sqs(): SQSClient {
  const { SQS_ENDPOINT, AWS_REGION } = config();
  client ??= new SQSClient({
    region: AWS_REGION,
    ...(SQS_ENDPOINT && {
      endpoint: SQS_ENDPOINT,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      useQueueUrlAsEndpoint: false,
    }),
  });
  return client;
}

export function queueUrl(): string {
  const url = config().JOBS_QUEUE_URL;
  if (!url) throw new Error('JOBS_QUEUE_URL is not configured');
  return url;
}

export type JobMessage = { processId: string };

export async function send(message: JobMessage): Promise<void> {
  await sqs().send(
    new SendMessageCommand({ QueueUrl: queueUrl(), MessageBody: JSON.stringify(message) }),
  );
}
