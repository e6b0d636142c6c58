import { describe, expect, it } from 'vitest';
import type { SQSEvent } from 'aws-lambda';
import * as Jobs from '#core/jobs';
import { handler } from './worker';

const sqsEvent = (bodies: string[]): SQSEvent => ({
  Records: bodies.map((body, index) => ({
    messageId: `message-${index}`,
    receiptHandle: `receipt-${index}`,
    body,
    attributes: {
      ApproximateReceiveCount: '1',
      SentTimestamp: '1795000000000',
      SenderId: 'AIDAEXAMPLE',
      ApproximateFirstReceiveTimestamp: '1795000000001',
    },
    messageAttributes: {},
    md5OfBody: 'x',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:eu-west-1:123456789012:cluefeed-jobs',
    awsRegion: 'eu-west-1',
  })),
});

describe('worker handler', () => {
  it('answers an empty batchItemFailures for a message about an unknown process', async () => {
    expect(
      await handler(sqsEvent([JSON.stringify({ processId: '01UNKNOWNPROCESS000000000' })])),
    ).toEqual({
      batchItemFailures: [],
    });
  });

  it('drops unreadable messages instead of retrying them', async () => {
    expect(await handler(sqsEvent(['{broken', JSON.stringify({ id: 'nope' })]))).toEqual({
      batchItemFailures: [],
    });
  });

  it('runs a queued clear-table job to Success', async () => {
    const Automations = await import('#core/automations');
    const process = await Jobs.enqueue(
      Automations.clearTable,
      { collection: 'streams' },
      'admin-1',
    );
    await handler(sqsEvent([JSON.stringify({ processId: process.id })]));
    expect((await Jobs.byId(process.id))?.status).toBe('Success');
  });
});
