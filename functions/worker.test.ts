import { describe, expect, it } from 'vitest';
import type { SQSEvent } from 'aws-lambda';
import * as Jobs from '#core/jobs';
import * as Outbox from '#core/outbox';
import * as Subscribers from '#core/subscribers';
import { createAudience } from '#tests/integration/factories';
import { receivedBy } from '#tests/integration/mail';
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
      await handler(sqsEvent([JSON.stringify(Jobs.jobMessage('01UNKNOWNPROCESS000000000'))])),
    ).toEqual({
      batchItemFailures: [],
    });
  });

  it('dispatches on the kind a message says, never on its shape', async () => {
    const audience = await createAudience();
    const email = `shape-${Date.now()}@example.org`;
    await Subscribers.subscribe({ email, audienceId: audience.id });
    const queued = (await Outbox.recent({ limit: 200 })).find(({ to }) => to === email)!;
    const bodies = [
      // An e-mail's shape, saying no kind; and a job's message that also names the e-mail.
      JSON.stringify({ outboundEmailId: queued.id }),
      JSON.stringify({
        ...Jobs.jobMessage('01UNKNOWNPROCESS000000000'),
        outboundEmailId: queued.id,
      }),
    ];
    expect(await handler(sqsEvent(bodies))).toEqual({ batchItemFailures: [] });
    expect(await receivedBy(email)).toEqual([]);
    expect((await Outbox.byId(queued.id))?.status).toBe('queued');
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
    await handler(sqsEvent([JSON.stringify(Jobs.jobMessage(process.id))]));
    expect((await Jobs.byId(process.id))?.status).toBe('Success');
  });

  it('sends the e-mail an outbox message names, once however often the message comes', async () => {
    const audience = await createAudience();
    const email = `reader-${Date.now()}@example.org`;
    await Subscribers.subscribe({ email, audienceId: audience.id });
    const queued = (await Outbox.recent({ limit: 200 })).find(({ to }) => to === email)!;
    const message = JSON.stringify(Jobs.emailMessage(queued.id));
    expect(await handler(sqsEvent([message, message]))).toEqual({ batchItemFailures: [] });
    expect(await handler(sqsEvent([message]))).toEqual({ batchItemFailures: [] });
    expect(await receivedBy(email)).toHaveLength(1);
    expect((await Outbox.byId(queued.id))?.status).toBe('sent');
  });
});
