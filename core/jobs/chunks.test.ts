import { afterEach, describe, expect, it, vi } from 'vitest';
import { receive, type QueueMessage } from '#tests/integration/job-queue';
import * as v from 'valibot';
import * as Jobs from '#core/jobs';
import { ProcessChunkEntity } from './chunk-entity';
import { ProcessEntity } from './entity';
import { useOwnTable } from '#tests/integration/own-table';

// Active runs and recovery read every process in the table: other files' runs (a signup's
// scoring, say) must not show in what these tests count.
useOwnTable('chunked-jobs');

/** runChunk calls per `{processId}#{chunk}` and plan calls per process: work done, counted. */
const calls = new Map<string, number>();
const plans = new Map<string, number>();
/** A chunk whose key is here waits for the promise before it finishes its work. */
const holds = new Map<string, Promise<void>>();

/** Sums numbers in chunks of `size`; chunk `failChunk` throws on its first `failTimes` calls. */
const summing = (name: string) =>
  Jobs.defineChunkedJob({
    name,
    title: 'Summing numbers',
    input: v.object({
      numbers: v.array(v.number()),
      size: v.number(),
      failChunk: v.optional(v.number()),
      failTimes: v.optional(v.number()),
    }),
    async plan({ numbers, size }, context) {
      plans.set(context.processId, (plans.get(context.processId) ?? 0) + 1);
      const chunks: number[][] = [];
      for (let start = 0; start < numbers.length; start += size)
        chunks.push(numbers.slice(start, start + size));
      return chunks;
    },
    async runChunk(chunk, { failChunk, failTimes = 0 }, context) {
      const key = `${context.processId}#${context.chunk}`;
      const call = (calls.get(key) ?? 0) + 1;
      calls.set(key, call);
      await holds.get(key);
      if (context.chunk === failChunk && call <= failTimes)
        throw new Error(`chunk ${context.chunk} is on fire`);
      return { numbers: chunk.length, sum: chunk.reduce((total, n) => total + n, 0) };
    },
  });

const jobs = {
  sum: summing('test-chunked-sum'),
  redelivered: summing('test-chunked-redelivered'),
  crash: summing('test-chunked-crash'),
  takeover: summing('test-chunked-takeover'),
  race: summing('test-chunked-race'),
  checkpointed: summing('test-chunked-checkpointed'),
  empty: summing('test-chunked-empty'),
  failing: summing('test-chunked-failing'),
  lost: summing('test-chunked-lost'),
  replan: summing('test-chunked-replan'),
  restarted: summing('test-chunked-restarted'),
};
const registry = Jobs.registry(Object.values(jobs));

type Record = QueueMessage;

const chunkOf = (record: Record) => (JSON.parse(record.body) as { chunk?: number }).chunk;
const chunkMessage = (processId: string, chunk: number, copy = 0): Record => ({
  messageId: `m-${processId}-${chunk}-${copy}`,
  body: JSON.stringify(Jobs.jobMessage(processId, chunk)),
});
const run = (...records: Record[]) => Jobs.handleBatch(records, registry);
const callsOf = (processId: string, chunk: number) => calls.get(`${processId}#${chunk}`) ?? 0;

/** Enqueues a run and delivers its process message: the run is planned and its chunks sent. */
async function planned(job: Jobs.ChunkedJobDefinition, input: object) {
  const process = await Jobs.enqueue(job, input, 'admin-1');
  expect(await run(...(await receive(process.id)))).toEqual({ batchItemFailures: [] });
  const chunkMessages = await receive(process.id);
  return { process, chunkMessages };
}

const numbers = (count: number) => Array.from({ length: count }, (_, index) => index + 1);
const stdout = () => vi.spyOn(process.stdout, 'write');

afterEach(() => {
  vi.restoreAllMocks();
});

describe('chunked jobs', () => {
  it('plans chunks, runs them in parallel, moves progress and ends Success with summed totals', async () => {
    const { process, chunkMessages } = await planned(jobs.sum, { numbers: numbers(10), size: 3 });
    expect(chunkMessages.map(chunkOf).sort()).toEqual([0, 1, 2, 3]);
    expect(await Jobs.byId(process.id)).toMatchObject({
      status: 'Running',
      chunksTotal: 4,
      chunksDone: 0,
      progressNote: '0 of 4 chunks',
    });

    await run(chunkMessages[0]!);
    expect(await Jobs.byId(process.id)).toMatchObject({
      status: 'Running',
      chunksDone: 1,
      progress: 0.25,
      progressNote: '1 of 4 chunks',
    });

    const results = await Promise.all(chunkMessages.slice(1).map((message) => run(message)));
    expect(results.flatMap((result) => result.batchItemFailures)).toEqual([]);
    const ended = await Jobs.byId(process.id);
    expect(ended).toMatchObject({ status: 'Success', progress: 1, chunksDone: 4, chunksTotal: 4 });
    expect(JSON.parse(ended!.output!)).toEqual({ chunks: 4, numbers: 10, sum: 55 });
    expect(plans.get(process.id)).toBe(1);
    expect((await Jobs.active()).map((active) => active.id)).not.toContain(process.id);
  });

  it('does no chunk work twice when a chunk message is redelivered, in turn or at once', async () => {
    const { process, chunkMessages } = await planned(jobs.redelivered, {
      numbers: numbers(4),
      size: 2,
    });
    const [first, second] = chunkMessages.sort((a, b) => chunkOf(a)! - chunkOf(b)!);
    await run(first!);
    await run(first!);
    expect(callsOf(process.id, 0)).toBe(1);

    let release!: () => void;
    holds.set(`${process.id}#1`, new Promise((resolve) => (release = resolve)));
    const owner = run(second!);
    await expect.poll(() => callsOf(process.id, 1)).toBe(1);
    // A copy delivered while the owner works finds the chunk leased and does nothing.
    expect(await run(chunkMessage(process.id, 1, 1))).toEqual({ batchItemFailures: [] });
    release();
    await owner;
    expect(callsOf(process.id, 1)).toBe(1);
    const ended = await Jobs.byId(process.id);
    expect(ended).toMatchObject({ status: 'Success', chunksDone: 2 });
    expect(JSON.parse(ended!.output!)).toEqual({ chunks: 2, numbers: 4, sum: 10 });
  });

  it('retries a chunk that threw and one whose worker died, counting every chunk once', async () => {
    const { process, chunkMessages } = await planned(jobs.crash, {
      numbers: numbers(6),
      size: 2,
      failChunk: 1,
      failTimes: 1,
    });
    const byChunk = new Map(chunkMessages.map((message) => [chunkOf(message)!, message]));
    await run(byChunk.get(0)!);

    // The chunk's own error: the message is handed back to SQS and the chunk released.
    expect(await run(byChunk.get(1)!)).toEqual({
      batchItemFailures: [{ itemIdentifier: byChunk.get(1)!.messageId }],
    });
    const { data: released } = await ProcessChunkEntity.get({
      processId: process.id,
      index: 1,
    }).go();
    expect(released).toMatchObject({ status: 'pending', attempts: 1, error: 'chunk 1 is on fire' });
    await run(byChunk.get(1)!);

    // A worker claimed chunk 2 and died before its checkpoint: its lease runs out.
    await ProcessChunkEntity.patch({ processId: process.id, index: 2 })
      .set({ status: 'running', attempts: 1, leaseUntil: '2000-01-01T00:00:00.000Z' })
      .go();
    expect(await Jobs.recover()).toBeGreaterThanOrEqual(1);
    const resent = await receive(process.id);
    expect(resent.map(chunkOf)).toEqual([2]);
    await run(...resent);

    const ended = await Jobs.byId(process.id);
    expect(ended).toMatchObject({ status: 'Success', chunksDone: 3 });
    expect(JSON.parse(ended!.output!)).toEqual({ chunks: 3, numbers: 6, sum: 21 });
    expect([0, 1, 2].map((chunk) => callsOf(process.id, chunk))).toEqual([1, 2, 1]);
    const { data: chunk2 } = await ProcessChunkEntity.get({ processId: process.id, index: 2 }).go();
    expect(chunk2).toMatchObject({ status: 'done', attempts: 2 });
  });

  it('keeps nothing from a stalled chunk whose claim was taken over', async () => {
    const { process, chunkMessages } = await planned(jobs.takeover, {
      numbers: numbers(4),
      size: 2,
    });
    const [first, second] = chunkMessages.sort((a, b) => chunkOf(a)! - chunkOf(b)!);
    const key = `${process.id}#0`;
    let releaseStalled!: () => void;
    holds.set(key, new Promise((resolve) => (releaseStalled = resolve)));
    const stalled = run(first!);
    await expect.poll(() => callsOf(process.id, 0)).toBe(1);
    // The stalled worker's lease runs out; the redelivered message takes the chunk over.
    let releaseTakeover!: () => void;
    holds.set(key, new Promise((resolve) => (releaseTakeover = resolve)));
    await ProcessChunkEntity.patch({ processId: process.id, index: 0 })
      .set({ leaseUntil: '2000-01-01T00:00:00.000Z' })
      .go();
    const takeover = run(chunkMessage(process.id, 0, 1));
    await expect.poll(() => callsOf(process.id, 0)).toBe(2);
    // The stalled worker comes back while the takeover still works: its checkpoint is refused.
    releaseStalled();
    await stalled;
    expect(await Jobs.byId(process.id)).toMatchObject({ status: 'Running', chunksDone: 0 });
    const { data: chunk } = await ProcessChunkEntity.get({ processId: process.id, index: 0 }).go();
    expect(chunk).toMatchObject({ status: 'running', attempts: 2 });
    releaseTakeover();
    await takeover;
    expect(await Jobs.byId(process.id)).toMatchObject({ status: 'Running', chunksDone: 1 });

    await run(second!);
    const ended = await Jobs.byId(process.id);
    expect(ended).toMatchObject({ status: 'Success', chunksDone: 2 });
    expect(JSON.parse(ended!.output!)).toEqual({ chunks: 2, numbers: 4, sum: 10 });
  });

  it('ends a run once when its two last chunks finish at once', async () => {
    const { process, chunkMessages } = await planned(jobs.race, { numbers: numbers(6), size: 2 });
    const byChunk = new Map(chunkMessages.map((message) => [chunkOf(message)!, message]));
    await run(byChunk.get(0)!);
    let release!: () => void;
    const together = new Promise<void>((resolve) => (release = resolve));
    holds.set(`${process.id}#1`, together);
    holds.set(`${process.id}#2`, together);
    const lines = stdout();
    const last = Promise.all([run(byChunk.get(1)!), run(byChunk.get(2)!)]);
    await expect.poll(() => callsOf(process.id, 1) + callsOf(process.id, 2)).toBe(2);
    release();
    await last;
    const finished = lines.mock.calls.filter(([line]) =>
      String(line).includes('"message":"Finished test-chunked-race"'),
    );
    expect(finished).toHaveLength(1);
    const ended = await Jobs.byId(process.id);
    expect(ended).toMatchObject({ status: 'Success', chunksDone: 3 });
    expect(JSON.parse(ended!.output!)).toEqual({ chunks: 3, numbers: 6, sum: 21 });
    expect(await Jobs.active()).not.toContainEqual(expect.objectContaining({ id: process.id }));
  });

  it('recovery ends, once, a run whose last worker died after its checkpoint', async () => {
    const { process, chunkMessages } = await planned(jobs.checkpointed, {
      numbers: numbers(6),
      size: 2,
    });
    const byChunk = new Map(chunkMessages.map((message) => [chunkOf(message)!, message]));
    await run(byChunk.get(0)!, byChunk.get(1)!);
    // Chunk 2's worker checkpointed (chunk done, counted) and died before it could end the run.
    await ProcessChunkEntity.patch({ processId: process.id, index: 2 })
      .set({ status: 'done', attempts: 1, totals: JSON.stringify({ numbers: 2, sum: 11 }) })
      .go();
    await ProcessEntity.patch({ id: process.id }).add({ chunksDone: 1 }).go();
    expect(await Jobs.byId(process.id)).toMatchObject({ status: 'Running' });

    const lines = stdout();
    await Promise.all([Jobs.recover(), Jobs.recover()]);
    const finished = lines.mock.calls.filter(([line]) =>
      String(line).includes('"message":"Finished test-chunked-checkpointed"'),
    );
    expect(finished).toHaveLength(1);
    const ended = await Jobs.byId(process.id);
    expect(ended).toMatchObject({ status: 'Success', chunksDone: 3 });
    expect(JSON.parse(ended!.output!)).toEqual({ chunks: 3, numbers: 6, sum: 21 });
    expect(callsOf(process.id, 2)).toBe(0);
  });

  it('ends a run with nothing to do Success at once', async () => {
    const { process, chunkMessages } = await planned(jobs.empty, { numbers: [], size: 2 });
    expect(chunkMessages).toEqual([]);
    expect(await Jobs.byId(process.id)).toMatchObject({
      status: 'Success',
      output: JSON.stringify({ chunks: 0 }),
    });
    expect(await Jobs.active()).not.toContainEqual(expect.objectContaining({ id: process.id }));
  });

  it('fails a chunk after its last attempt and ends the run Failed naming it', async () => {
    const { process, chunkMessages } = await planned(jobs.failing, {
      numbers: numbers(4),
      size: 2,
      failChunk: 1,
      failTimes: 99,
    });
    const byChunk = new Map(chunkMessages.map((message) => [chunkOf(message)!, message]));
    await run(byChunk.get(0)!);
    const failing = byChunk.get(1)!;
    for (let attempt = 1; attempt < Jobs.MAX_ATTEMPTS; attempt++)
      expect((await run(failing)).batchItemFailures).toHaveLength(1);
    expect(await Jobs.byId(process.id)).toMatchObject({ status: 'Running' });
    // The last attempt does not ask SQS to retry: the chunk is failed and the run ends.
    expect(await run(failing)).toEqual({ batchItemFailures: [] });
    expect(callsOf(process.id, 1)).toBe(Jobs.MAX_ATTEMPTS);
    expect(await Jobs.byId(process.id)).toMatchObject({
      status: 'Failed',
      chunksDone: 1,
      chunksFailed: 1,
      error: '1 of 2 chunks failed: chunk 1 is on fire',
    });
    expect(await Jobs.active()).not.toContainEqual(expect.objectContaining({ id: process.id }));
  });

  it('re-sends chunks whose messages were never sent once the run has been quiet, never planning again', async () => {
    const { process, chunkMessages } = await planned(jobs.lost, { numbers: numbers(4), size: 2 });
    // The planner died after writing its chunks and before sending them: these never arrive.
    expect(chunkMessages).toHaveLength(2);
    expect(await Jobs.recover()).toBe(0);
    expect(await receive(process.id)).toEqual([]);

    // Quiet past the stale limit: the process message must not plan the run again either.
    await ProcessEntity.patch({ id: process.id })
      .set({ heartbeatAt: '2000-01-01T00:00:00.000Z' })
      .go();
    await run({ messageId: 'again', body: JSON.stringify(Jobs.jobMessage(process.id)) });
    expect(plans.get(process.id)).toBe(1);

    const later = Date.now() + Jobs.UNDELIVERED_AFTER_MS + 1_000;
    expect(await Jobs.recover(later)).toBe(2);
    const resent = await receive(process.id);
    expect(resent.map(chunkOf).sort()).toEqual([0, 1]);
    await run(...resent);
    const ended = await Jobs.byId(process.id);
    expect(ended).toMatchObject({ status: 'Success', attempts: 1 });
    expect(JSON.parse(ended!.output!)).toEqual({ chunks: 2, numbers: 4, sum: 10 });
  });

  it('plans again when the planner died before recording its chunks, ignoring an older longer plan', async () => {
    const process = await Jobs.enqueue(jobs.replan, { numbers: numbers(4), size: 2 }, 'admin-1');
    await receive(process.id);
    // A first attempt claimed the run, wrote a chunk past the new plan's end, and died.
    await ProcessEntity.patch({ id: process.id })
      .set({ status: 'Running', attempts: 1, heartbeatAt: '2000-01-01T00:00:00.000Z' })
      .go();
    await ProcessChunkEntity.put({
      processId: process.id,
      index: 5,
      status: 'done',
      payload: '[100]',
      plannedBy: 1,
      totals: JSON.stringify({ numbers: 1, sum: 100 }),
      createdAt: '2000-01-01T00:00:00.000Z',
      updatedAt: '2000-01-01T00:00:00.000Z',
    }).go();

    expect(await Jobs.recover()).toBe(1);
    await run(...(await receive(process.id)));
    expect(await Jobs.byId(process.id)).toMatchObject({ attempts: 2, chunksTotal: 2 });
    await run(...(await receive(process.id)));
    const ended = await Jobs.byId(process.id);
    expect(ended).toMatchObject({ status: 'Success' });
    expect(JSON.parse(ended!.output!)).toEqual({ chunks: 2, numbers: 4, sum: 10 });
  });

  it('a start after an unclean stop sends the chunks of a planned run again at once and counts the run as heard from', async () => {
    const { process } = await planned(jobs.restarted, { numbers: numbers(6), size: 2 });
    // The stopped run's worker held chunk 0 on a lease still running, and went quiet a while ago.
    const quietSince = new Date(Date.now() - 2 * Jobs.HEARTBEAT_MS).toISOString();
    await ProcessChunkEntity.patch({ processId: process.id, index: 0 })
      .set({
        status: 'running',
        worker: 'worker of the stopped run',
        attempts: 1,
        leaseUntil: new Date(Date.now() + Jobs.CHUNK_LEASE_MS).toISOString(),
      })
      .go();
    await ProcessEntity.patch({ id: process.id }).set({ heartbeatAt: quietSince }).go();
    expect(await Jobs.recover()).toBe(0);

    const restarted = await Jobs.recoverAfterRestart(
      (worker) => worker === 'worker of the stopped run',
    );

    expect(restarted.resumed.map((run) => run.id)).toContain(process.id);
    expect(restarted.released.map((run) => run.id)).not.toContain(process.id);
    const resent = await receive(process.id);
    expect(resent.map(chunkOf).sort()).toEqual([0, 1, 2]);
    // In this start's hands now: the admin's notice must not say it waits for the gone worker.
    const resumed = await Jobs.byId(process.id);
    expect(resumed!.heartbeatAt! > quietSince).toBe(true);
    expect(Date.parse(resumed!.heartbeatAt!)).toBeGreaterThan(Date.now() - Jobs.HEARTBEAT_MS);
    await run(...resent);
    const ended = await Jobs.byId(process.id);
    expect(ended).toMatchObject({ status: 'Success', chunksDone: 3 });
    expect(JSON.parse(ended!.output!)).toEqual({ chunks: 3, numbers: 6, sum: 21 });
  });
});
