// SQS -> jobs: runs each message's process and reports the messages to retry.
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import * as Automations from '#core/automations';
import * as Jobs from '#core/jobs';

export const handler = (event: SQSEvent): Promise<SQSBatchResponse> =>
  Jobs.handleBatch(event.Records, Automations.jobs);
