// SQS -> jobs and outbox e-mails: runs each message's process or sends its e-mail, and reports
// the messages to retry.
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { config } from '#core/config';
import * as Jobs from '#core/jobs';
import * as Outbox from '#core/outbox';
import * as Worker from '#core/worker';

export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const emails = event.Records.filter((record) => Outbox.messageOf(record.body));
  const jobs = event.Records.filter((record) => !Outbox.messageOf(record.body));
  const sent = emails.length > 0 ? await Outbox.handleBatch(emails) : { batchItemFailures: [] };
  const ran = await Jobs.handleBatch(jobs, Worker.jobs, { worker: config().JOBS_WORKER });
  return { batchItemFailures: [...sent.batchItemFailures, ...ran.batchItemFailures] };
};
