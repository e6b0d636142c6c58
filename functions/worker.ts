// SQS -> jobs and outbox e-mails, from either queue (jobs, email; ADR 0058): each message says
// what it is (`{kind, version}`), so a job's process runs and an e-mail is sent; the messages to
// retry are reported.
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { config } from '#core/config';
import * as Jobs from '#core/jobs';
import { logger } from '#core/logs';
import * as Outbox from '#core/outbox';
import * as Worker from '#core/worker';

export const handler = (event: SQSEvent): Promise<SQSBatchResponse> => handle(event, Worker.jobs);

/** The worker's work with a registry of its own (a test's jobs beside the app's). */
export async function handle(event: SQSEvent, jobs: Jobs.JobRegistry): Promise<SQSBatchResponse> {
  const emails = event.Records.filter((record) => Jobs.kindOf(record.body) === 'email');
  const runs = event.Records.filter((record) => Jobs.kindOf(record.body) === 'job');
  // A message that says no kind (or a version this worker does not read) can never be handled:
  // dropped, not retried into the dead letters. Recovery re-sends what a process or e-mail lacks.
  for (const record of event.Records)
    if (!Jobs.kindOf(record.body))
      logger.error('Dropped a queue message of no known kind', { messageId: record.messageId });
  const sent = emails.length > 0 ? await Outbox.handleBatch(emails) : { batchItemFailures: [] };
  const ran = await Jobs.handleBatch(runs, jobs, { worker: config().JOBS_WORKER });
  return { batchItemFailures: [...sent.batchItemFailures, ...ran.batchItemFailures] };
}
