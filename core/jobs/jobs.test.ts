import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import * as Jobs from '#core/jobs';
import { ProcessEntity } from './entity';
import { queueUrl, sqs } from './queue';

let runs = 0;
const echo = Jobs.defineJob({
  name: 'test-echo',
  input: v.object({ text: v.string() }),
  async run({ text }, context) {
    runs++;
    await context.progress(0.5, 'half way');
    context.log.info('echoing', { text });
    return { echoed: text };
  },
});
const broken = Jobs.defineJob({
  name: 'test-broken',
  input: v.object({}),
  async run() {
    throw new Error('the feed is on fire');
  },
});
const registry = Jobs.registry([echo, broken] as Jobs.JobDefinition[]);

const event = (...processIds: string[]) =>
  processIds.map((processId, index) => ({
    messageId: `m-${index}-${processId}`,
    body: JSON.stringify({ processId }),
  }));

async function drainQueue() {
  await sqs().send(
    new ReceiveMessageCommand({
      QueueUrl: queueUrl(),
      MaxNumberOfMessages: 10,
      WaitTimeSeconds: 0,
    }),
  );
}

describe('jobs', () => {
  it('queues a process, sends its id, and lists it as active', async () => {
    const process = await Jobs.enqueue(echo, { text: 'hi' }, 'admin-1');
    expect(process).toMatchObject({ status: 'Queued', name: 'test-echo', systemUserId: 'admin-1' });
    expect((await Jobs.active()).map((p) => p.id)).toContain(process.id);
    const { Messages = [] } = await sqs().send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl(),
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 0,
      }),
    );
    expect(Messages.map((m) => JSON.parse(m.Body!).processId)).toContain(process.id);
    await Jobs.handleBatch(event(process.id), registry);
  });

  it('runs one job at a time: a second one is refused while the first is active', async () => {
    const first = await Jobs.enqueue(echo, { text: 'first' }, 'admin-1');
    await expect(Jobs.enqueue(echo, { text: 'second' }, 'admin-1')).rejects.toMatchObject({
      code: 'jobs.busy',
      status: 409,
      message: 'A process is still running. Please wait until it ends.',
    });
    await Jobs.handleBatch(event(first.id), registry);
    expect(await Jobs.active()).toEqual([]);
    const next = await Jobs.enqueue(echo, { text: 'next' }, 'admin-1');
    await Jobs.handleBatch(event(next.id), registry);
  });

  it('refuses input its job does not accept', async () => {
    await expect(Jobs.enqueue(echo, { text: 3 } as never, 'admin-1')).rejects.toMatchObject({
      status: 400,
    });
  });

  it('runs a batch: Success with output and progress, and the process leaves the active list', async () => {
    const process = await Jobs.enqueue(echo, { text: 'hello' }, 'admin-1');
    await drainQueue();
    expect(await Jobs.handleBatch(event(process.id), registry)).toEqual({ batchItemFailures: [] });
    expect(await Jobs.byId(process.id)).toMatchObject({
      status: 'Success',
      output: JSON.stringify({ echoed: 'hello' }),
      progress: 1,
      progressNote: 'half way',
      attempts: 1,
    });
    expect((await Jobs.active()).map((p) => p.id)).not.toContain(process.id);
    expect((await Jobs.lastRun('test-echo'))?.id).toBe(process.id);
  });

  it('does no work twice when a message is redelivered', async () => {
    const process = await Jobs.enqueue(echo, { text: 'once' }, 'admin-1');
    const before = runs;
    await Jobs.handleBatch(event(process.id), registry);
    await Jobs.handleBatch(event(process.id, process.id), registry);
    expect(runs - before).toBe(1);
    expect((await Jobs.byId(process.id))?.attempts).toBe(1);
  });

  it('ends a failing job Failed with its error, without asking SQS to retry', async () => {
    const process = await Jobs.enqueue(broken, {}, 'admin-1');
    expect(await Jobs.handleBatch(event(process.id), registry)).toEqual({ batchItemFailures: [] });
    expect(await Jobs.byId(process.id)).toMatchObject({
      status: 'Failed',
      error: 'the feed is on fire',
    });
  });

  it('drops malformed messages and still runs the rest of the batch', async () => {
    const good = await Jobs.enqueue(echo, { text: 'fine' }, 'admin-1');
    await drainQueue();
    const records = [
      { messageId: 'bad-json', body: '{not json' },
      { messageId: 'no-id', body: '{}' },
      ...event(good.id),
    ];
    const result = await Jobs.handleBatch(records, registry);
    expect(result.batchItemFailures).toEqual([]);
    expect((await Jobs.byId(good.id))?.status).toBe('Success');
  });

  it('recovers a crashed run: a silent Running process is re-sent and taken over', async () => {
    const process = await Jobs.enqueue(echo, { text: 'again' }, 'admin-1');
    await drainQueue();
    const longAgo = new Date(Date.now() - Jobs.STALE_AFTER_MS - 60_000).toISOString();
    await ProcessEntity.patch({ id: process.id })
      .set({ status: 'Running', startTime: longAgo, heartbeatAt: longAgo, attempts: 1 })
      .go();
    expect(await Jobs.recover()).toBeGreaterThanOrEqual(1);
    const { Messages = [] } = await sqs().send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl(),
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 0,
      }),
    );
    expect(Messages.map((m) => JSON.parse(m.Body!).processId)).toContain(process.id);
    await Jobs.handleBatch(event(process.id), registry);
    expect(await Jobs.byId(process.id)).toMatchObject({ status: 'Success', attempts: 2 });
  });

  it('leaves a Running process with a fresh heartbeat to its owner', async () => {
    const process = await Jobs.enqueue(echo, { text: 'busy' }, 'admin-1');
    await ProcessEntity.patch({ id: process.id })
      .set({ status: 'Running', heartbeatAt: new Date().toISOString() })
      .go();
    const before = runs;
    await Jobs.handleBatch(event(process.id), registry);
    expect(runs).toBe(before);
    expect((await Jobs.byId(process.id))?.status).toBe('Running');
    await ProcessEntity.patch({ id: process.id })
      .set({ heartbeatAt: '2000-01-01T00:00:00.000Z' })
      .go();
    await Jobs.handleBatch(event(process.id), registry);
    expect(runs).toBe(before + 1);
  });
});
