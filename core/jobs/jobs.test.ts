import { describe, expect, it } from 'vitest';
import { receive, receiveOf } from '#tests/integration/job-queue';
import * as v from 'valibot';
import * as Jobs from '#core/jobs';
import { ProcessEntity } from './entity';
import { useOwnTable } from '#tests/integration/own-table';

// Active runs and recovery read every process in the table: other files' runs (a signup's
// scoring, say) must not show in what these tests count.
useOwnTable('jobs');

let runs = 0;
const echo = Jobs.defineJob({
  name: 'test-echo',
  title: 'Echoing',
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
  title: 'Breaking',
  input: v.object({}),
  async run() {
    throw new Error('the feed is on fire');
  },
});
const other = Jobs.defineJob({
  name: 'test-other',
  title: 'Another job',
  input: v.object({}),
  async run() {
    return 'other';
  },
});
const stallGates: (() => void)[] = [];
const stall = Jobs.defineJob({
  name: 'test-stall',
  title: 'Stalling',
  input: v.object({}),
  async run() {
    const attempt = stallGates.length + 1;
    await new Promise<void>((resolve) => stallGates.push(resolve));
    return attempt === 1 ? 'first attempt' : 'takeover';
  },
});
const sharing = Jobs.defineJob({
  name: 'test-sharing',
  title: 'Sharing a slot',
  slot: 'test-stall',
  input: v.object({}),
  async run() {
    return 'shared';
  },
});
/** Jobs a stopped run left behind (the restart tests), each in a slot of its own. */
const leftBehind = ['test-left-gone', 'test-left-live', 'test-left-queued'].map((name) =>
  Jobs.defineJob({ name, title: `Left ${name}`, input: v.object({}), run: async () => name }),
);
const registry = Jobs.registry([
  echo,
  broken,
  other,
  stall,
  sharing,
  ...leftBehind,
] as Jobs.JobDefinition[]);

/** Makes a process look like a run that went silent: its heartbeat long stale, with `changes`. */
function goSilent(id: string, changes: { status?: 'Running'; attempts?: number } = {}) {
  return ProcessEntity.patch({ id })
    .set({ heartbeatAt: '2000-01-01T00:00:00.000Z', ...changes })
    .go();
}

const event = (...processIds: string[]) =>
  processIds.map((processId, index) => ({
    messageId: `m-${index}-${processId}`,
    body: JSON.stringify(Jobs.jobMessage(processId)),
  }));

/** Takes a process's messages off the queue, as a delivery the test then plays by hand. */
const drainQueue = (processId: string) => receive(processId);

describe('jobs', () => {
  it('queues a process, sends its id, and lists it as active', async () => {
    const process = await Jobs.enqueue(echo, { text: 'hi' }, 'admin-1');
    expect(process).toMatchObject({ status: 'Queued', name: 'test-echo', systemUserId: 'admin-1' });
    expect((await Jobs.active()).map((p) => p.id)).toContain(process.id);
    // Only this process's messages count: the outbox and other tests share this queue.
    expect((await receive(process.id)).length).toBeGreaterThan(0);
    await Jobs.handleBatch(event(process.id), registry);
  });

  it('refuses a second run of the same job while the first is active', async () => {
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

  it('runs two different jobs at once and lists both as active', async () => {
    const first = await Jobs.enqueue(echo, { text: 'side by side' }, 'admin-1');
    const second = await Jobs.enqueue(other, {}, 'admin-1');
    expect((await Jobs.active()).map((p) => p.id)).toEqual([first.id, second.id]);
    await Jobs.handleBatch(event(second.id), registry);
    expect((await Jobs.active()).map((p) => p.id)).toEqual([first.id]);
    await Jobs.handleBatch(event(first.id), registry);
    expect(await Jobs.active()).toEqual([]);
    expect((await Jobs.byId(first.id))?.status).toBe('Success');
    expect((await Jobs.byId(second.id))?.status).toBe('Success');
  });

  it('queues a registered job by name, checking its input and taking its slot by its rules', async () => {
    const perReader = Jobs.defineJob({
      name: 'test-by-name',
      title: 'Queued by name',
      slotFor: ({ reader }) => `test-by-name#${reader}`,
      input: v.object({ reader: v.pipe(v.string(), v.nonEmpty('Please name a reader')) }),
      run: async ({ reader }) => reader,
    });
    await expect(Jobs.enqueue('test-by-name', { reader: 'r1' }, 'admin-1')).rejects.toThrow(
      'No job "test-by-name" is registered in this process',
    );
    Jobs.register(Jobs.registry([perReader] as Jobs.JobDefinition[]));
    expect(Jobs.jobTitle('test-by-name')).toBe('Queued by name');
    await expect(Jobs.enqueue('test-by-name', { reader: '' }, 'admin-1')).rejects.toMatchObject({
      code: 'input.invalid',
      status: 400,
      message: 'Please name a reader',
    });
    const first = await Jobs.enqueue('test-by-name', { reader: 'r1' }, 'admin-1');
    const second = await Jobs.enqueue('test-by-name', { reader: 'r2' }, 'admin-1');
    expect([first.slot, second.slot]).toEqual(['test-by-name#r1', 'test-by-name#r2']);
    await expect(Jobs.enqueue('test-by-name', { reader: 'r1' }, 'admin-1')).rejects.toMatchObject({
      code: 'jobs.busy',
    });
    const ran = Jobs.registry([perReader] as Jobs.JobDefinition[]);
    await Jobs.handleBatch(event(first.id, second.id), ran);
    expect((await Jobs.byId(second.id))?.output).toBe('"r2"');
  });

  it('refuses input its job does not accept', async () => {
    await expect(Jobs.enqueue(echo, { text: 3 } as never, 'admin-1')).rejects.toMatchObject({
      status: 400,
    });
  });

  it('runs a batch: Success with output and progress, and the process leaves the active list', async () => {
    const process = await Jobs.enqueue(echo, { text: 'hello' }, 'admin-1');
    await drainQueue(process.id);
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
    await drainQueue(good.id);
    const records = [
      { messageId: 'bad-json', body: '{not json' },
      { messageId: 'no-id', body: '{"kind":"job","version":1}' },
      // Its body's shape alone does not make it a job's: it must say so.
      { messageId: 'no-kind', body: JSON.stringify({ processId: good.id }) },
      {
        messageId: 'later-version',
        body: JSON.stringify({ ...Jobs.jobMessage(good.id), version: 2 }),
      },
      ...event(good.id),
    ];
    const result = await Jobs.handleBatch(records, registry);
    expect(result.batchItemFailures).toEqual([]);
    expect((await Jobs.byId(good.id))?.status).toBe('Success');
  });

  it('recovers a crashed run: a silent Running process is re-sent and taken over', async () => {
    const process = await Jobs.enqueue(echo, { text: 'again' }, 'admin-1');
    await drainQueue(process.id);
    const longAgo = new Date(Date.now() - Jobs.STALE_AFTER_MS - 60_000).toISOString();
    await ProcessEntity.patch({ id: process.id })
      .set({ status: 'Running', startTime: longAgo, heartbeatAt: longAgo, attempts: 1 })
      .go();
    expect(await Jobs.recover()).toBeGreaterThanOrEqual(1);
    // Only this process's messages count: the outbox and other tests share this queue.
    expect((await receive(process.id)).length).toBeGreaterThan(0);
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
    await goSilent(process.id);
    await Jobs.handleBatch(event(process.id), registry);
    expect(runs).toBe(before + 1);
  });

  it('takes a silent run over while it has attempts left', async () => {
    const process = await Jobs.enqueue(echo, { text: 'last try' }, 'admin-1');
    await drainQueue(process.id);
    await goSilent(process.id, { status: 'Running', attempts: 2 });
    await Jobs.handleBatch(event(process.id), registry);
    expect(await Jobs.byId(process.id)).toMatchObject({ status: 'Success', attempts: 3 });
  });

  it('keeps the end of the attempt that took a stalled run over, not the stalled one', async () => {
    const process = await Jobs.enqueue(stall, {}, 'admin-1');
    await drainQueue(process.id);
    const stalled = Jobs.handleBatch(event(process.id), registry);
    await expect.poll(() => stallGates.length).toBe(1);
    await goSilent(process.id);
    const takeover = Jobs.handleBatch(event(process.id), registry);
    await expect.poll(() => stallGates.length).toBe(2);
    // The stalled attempt comes back while the takeover still runs: it must end nothing.
    stallGates[0]!();
    await stalled;
    expect(await Jobs.byId(process.id)).toMatchObject({ status: 'Running', attempts: 2 });
    expect((await Jobs.active()).map((active) => active.id)).toContain(process.id);
    stallGates[1]!();
    await takeover;
    expect(await Jobs.byId(process.id)).toMatchObject({
      status: 'Success',
      output: JSON.stringify('takeover'),
      attempts: 2,
    });
    expect(await Jobs.active()).toEqual([]);
  });

  it('refuses a job while another job of its slot runs, and takes it once that one ended', async () => {
    const first = await Jobs.enqueue(stall, {}, 'admin-1');
    await drainQueue(first.id);
    await expect(Jobs.enqueue(sharing, {}, 'admin-1')).rejects.toMatchObject({
      code: 'jobs.busy',
      status: 409,
    });
    const gatesBefore = stallGates.length;
    const running = Jobs.handleBatch(event(first.id), registry);
    await expect.poll(() => stallGates.length).toBe(gatesBefore + 1);
    stallGates.at(-1)!();
    await running;
    const next = await Jobs.enqueue(sharing, {}, 'admin-1');
    await Jobs.handleBatch(event(next.id), registry);
    expect(await Jobs.byId(next.id)).toMatchObject({ status: 'Success', slot: 'test-stall' });
  });

  it('ends a run that kept stopping Failed after the last attempt and frees its slot', async () => {
    const process = await Jobs.enqueue(echo, { text: 'overrun' }, 'admin-1');
    await drainQueue(process.id);
    await goSilent(process.id, { status: 'Running', attempts: Jobs.MAX_ATTEMPTS });
    const before = runs;
    expect(await Jobs.handleBatch(event(process.id), registry)).toEqual({ batchItemFailures: [] });
    expect(runs).toBe(before);
    expect(await Jobs.byId(process.id)).toMatchObject({
      status: 'Failed',
      error: 'Stopped after 3 attempts: the run kept stopping without finishing',
      attempts: Jobs.MAX_ATTEMPTS,
    });
    expect(await Jobs.active()).toEqual([]);
    const next = await Jobs.enqueue(echo, { text: 'fresh start' }, 'admin-1');
    await Jobs.handleBatch(event(next.id), registry);
    expect((await Jobs.byId(next.id))?.status).toBe('Success');
  });

  it('recover gives up on an exhausted silent run instead of re-sending it', async () => {
    const process = await Jobs.enqueue(echo, { text: 'stuck' }, 'admin-1');
    await drainQueue(process.id);
    await goSilent(process.id, { status: 'Running', attempts: Jobs.MAX_ATTEMPTS });
    expect(await Jobs.recover()).toBe(0);
    // Only this process's messages count: the outbox and other tests share this queue.
    expect((await receive(process.id)).length).toBe(0);
    expect(await Jobs.byId(process.id)).toMatchObject({
      status: 'Failed',
      error: Jobs.TOO_MANY_ATTEMPTS,
    });
    expect(await Jobs.active()).toEqual([]);
  });

  it('a start after an unclean stop runs again at once what the gone worker held, and nothing a live worker holds', async () => {
    const [gone, live, queued] = await Promise.all(
      leftBehind.map((job) => Jobs.enqueue(job, {}, 'npm-start')),
    );
    for (const process of [gone!, live!, queued!]) await drainQueue(process.id);
    // Claimed a moment before the stop: heartbeats still fresh, so recovery alone waits 5 minutes.
    const justNow = new Date().toISOString();
    for (const [process, worker] of [
      [gone!, 'worker of the stopped run'],
      [live!, 'worker of a run still alive'],
    ] as const) {
      await ProcessEntity.patch({ id: process.id })
        .set({ status: 'Running', startTime: justNow, heartbeatAt: justNow, attempts: 1, worker })
        .go();
    }
    expect(await Jobs.recover()).toBe(0);

    const restarted = await Jobs.recoverAfterRestart(
      (worker) => worker === 'worker of the stopped run',
    );

    expect(restarted.released.map((process) => process.id)).toEqual([gone!.id]);
    // The stopped run's queue is gone: the Queued run is sent again too.
    const sent = (await receiveOf([gone!.id, queued!.id, live!.id])).map(
      (message) => (JSON.parse(message.body) as { processId: string }).processId,
    );
    expect(sent.sort()).toEqual([gone!.id, queued!.id].sort());
    expect(await Jobs.byId(gone!.id)).toMatchObject({ status: 'Queued', attempts: 1 });
    await Jobs.handleBatch(event(gone!.id, queued!.id), registry, { worker: 'new worker' });
    expect(await Jobs.byId(gone!.id)).toMatchObject({
      status: 'Success',
      attempts: 2,
      worker: 'new worker',
    });
    expect((await Jobs.byId(queued!.id))?.status).toBe('Success');
    expect(await Jobs.byId(live!.id)).toMatchObject({
      status: 'Running',
      worker: 'worker of a run still alive',
    });
    // Its job takes a new run again; the live one's is still held.
    await expect(Jobs.enqueue(leftBehind[0]!, {}, 'npm-start')).resolves.toBeTruthy();
    await expect(Jobs.enqueue(leftBehind[1]!, {}, 'npm-start')).rejects.toThrow(Jobs.BUSY_MESSAGE);
  });

  it('a restart releases only the claim it read: a run that moved on meanwhile is left as it is', async () => {
    const process = await Jobs.enqueue(leftBehind[2]!, {}, 'npm-start');
    await drainQueue(process.id);
    await ProcessEntity.patch({ id: process.id })
      .set({ status: 'Running', heartbeatAt: new Date().toISOString(), attempts: 1, worker: 'w1' })
      .go();
    // The gone worker's claim was taken over (attempt 2) between the read and the release.
    await Jobs.recoverAfterRestart(async (worker) => {
      await ProcessEntity.patch({ id: process.id }).set({ attempts: 2, worker: 'w2' }).go();
      return worker === 'w1';
    });
    expect(await Jobs.byId(process.id)).toMatchObject({ status: 'Running', worker: 'w2' });
  });
});
