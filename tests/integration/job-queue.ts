// For tests that play the worker: take one process's messages (the process message, then its
// chunk messages) or some e-mails' messages off this worker's queues (jobs and email), leaving
// other tests' messages for them.
import { DeleteMessageBatchCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import * as Jobs from '#core/jobs';
import { queueUrl, sqs } from '../../core/jobs/queue';

export type QueueMessage = { messageId: string; body: string };

/** Takes every message of `processId` off the queue. */
export function receive(processId: string): Promise<QueueMessage[]> {
  return take((body) => body.processId === processId);
}

/** Takes every message of any of these processes off the queue (runs that go side by side). */
export function receiveOf(processIds: string[]): Promise<QueueMessage[]> {
  const ids = new Set(processIds);
  return take((body) => typeof body.processId === 'string' && ids.has(body.processId));
}

/** Takes the outbox's messages for these e-mails off the queue (the worker's to read). */
export function receiveEmails(outboundEmailIds: string[]): Promise<QueueMessage[]> {
  const ids = new Set(outboundEmailIds);
  return take((body) => typeof body.outboundEmailId === 'string' && ids.has(body.outboundEmailId));
}

type Body = { processId?: unknown; outboundEmailId?: unknown };

/** Takes every message whose body `matches` off both queues, leaving the others. */
async function take(matches: (body: Body) => boolean): Promise<QueueMessage[]> {
  const queues = [...new Set([queueUrl('jobs'), queueUrl('email')])];
  return (await Promise.all(queues.map((url) => takeFrom(url, matches)))).flat();
}

async function takeFrom(url: string, matches: (body: Body) => boolean): Promise<QueueMessage[]> {
  const mine: QueueMessage[] = [];
  for (;;) {
    const { Messages = [] } = await sqs().send(
      new ReceiveMessageCommand({
        QueueUrl: url,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 0,
      }),
    );
    if (Messages.length === 0) return mine;
    const ours = Messages.filter((message) => matches(JSON.parse(message.Body!) as Body));
    mine.push(...ours.map((message) => ({ messageId: message.MessageId!, body: message.Body! })));
    if (ours.length > 0)
      await sqs().send(
        new DeleteMessageBatchCommand({
          QueueUrl: url,
          Entries: ours.map((message, index) => ({
            Id: String(index),
            ReceiptHandle: message.ReceiptHandle!,
          })),
        }),
      );
  }
}

/**
 * Runs a process to its end the way the worker does: its message (a chunked job plans), then its
 * chunk messages, in parallel. Answers the chunk messages, for tests that count them.
 */
export async function runToEnd(processId: string, jobs: Jobs.JobRegistry) {
  await Jobs.handleBatch(await receive(processId), jobs);
  const chunks = await receive(processId);
  await Promise.all(chunks.map((message) => Jobs.handleBatch([message], jobs)));
  return { ended: (await Jobs.byId(processId))!, chunks };
}
