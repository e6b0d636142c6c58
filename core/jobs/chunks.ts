// Chunked runs: the claimed process plans its work into ProcessChunk items and sends one message
// per chunk; workers claim chunks (attempts, renewable lease), run them in parallel and checkpoint
// each in one transaction with the process's count, so a redelivered or taken-over chunk never
// counts twice. The chunk that finishes the count ends the run with the chunks' summed totals.
import { createWriteTransaction, type EntityItem } from 'electrodb';
import * as v from 'valibot';
import { isConditionFailure } from '#core/db';
import { logger, type Logger } from '#core/logs';
import { ProcessChunkEntity } from './chunk-entity';
import {
  isChunked,
  queueOf,
  type ChunkedJobDefinition,
  type ChunkTotals,
  type JobContext,
  type JobRegistry,
} from './definition';
import { ProcessEntity } from './entity';
import {
  byId,
  finish,
  heartbeat,
  MAX_ATTEMPTS,
  now,
  TOO_MANY_ATTEMPTS,
  UNDELIVERED_AFTER_MS,
  type Process,
} from './process';
import { jobMessage, sendAll } from './queue';

export type ProcessChunk = EntityItem<typeof ProcessChunkEntity>;

/** A running chunk whose worker stopped renewing its claim this long ago may be claimed again. */
export const CHUNK_LEASE_MS = 5 * 60_000;
/** An item holds at most 400 KB; a chunk's payload leaves room for its checkpoint. */
export const MAX_CHUNK_BYTES = 300_000;
/** Chunk items are written this many at a time. */
const WRITE_CONCURRENCY = 10;

const leaseFromNow = () => new Date(Date.now() + CHUNK_LEASE_MS).toISOString();
const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The running notice's line for a chunked run. */
export const chunksNote = (done: number, failed: number, total: number) =>
  `${done} of ${total} chunks${failed > 0 ? `, ${failed} failed` : ''}`;

/**
 * Plans a claimed chunked run: writes its chunks, records how many, then sends their messages.
 * A crash before chunksTotal is recorded leaves a plain-looking Running process that a takeover
 * plans again (rewriting the chunks); after it, `recoverChunks` re-sends what was not delivered.
 */
export async function planRun(
  process: Process,
  definition: ChunkedJobDefinition,
  input: unknown,
  context: JobContext,
): Promise<void> {
  const attempt = process.attempts ?? 0;
  const chunks = await definition.plan(input, context);
  if (chunks.length === 0) {
    await definition.succeeded?.(input, context);
    const output = JSON.stringify({ chunks: 0 });
    if (await finish(process, { status: 'Success', output }, { attempt }))
      context.log.info(`Finished ${process.name}: nothing to do`);
    return;
  }
  const payloads = chunks.map((chunk, index) => {
    const payload = JSON.stringify(chunk ?? null);
    const bytes = Buffer.byteLength(payload);
    if (bytes > MAX_CHUNK_BYTES)
      throw new Error(`Chunk ${index} is ${bytes} bytes; a chunk must stay under 300 KB`);
    return payload;
  });
  const at = now();
  for (let start = 0; start < payloads.length; start += WRITE_CONCURRENCY) {
    await Promise.all(
      payloads.slice(start, start + WRITE_CONCURRENCY).map((payload, offset) =>
        ProcessChunkEntity.put({
          processId: process.id,
          index: start + offset,
          status: 'pending',
          payload,
          plannedBy: attempt,
          attempts: 0,
          createdAt: at,
          updatedAt: at,
        })
          // A planner that stalled and was taken over must not overwrite the newer plan.
          .where((attr, op) => `${op.notExists(attr.status)} OR ${op.lte(attr.plannedBy, attempt)}`)
          .go(),
      ),
    );
  }
  const total = payloads.length;
  await ProcessEntity.patch({ id: process.id })
    .set({
      chunksTotal: total,
      chunksDone: 0,
      chunksFailed: 0,
      heartbeatAt: now(),
      progress: 0,
      progressNote: chunksNote(0, 0, total),
    })
    .where(
      (attr, op) =>
        `${op.eq(attr.status, 'Running')} AND ${op.eq(attr.attempts, attempt)} AND ${op.notExists(attr.chunksTotal)}`,
    )
    .go();
  context.log.info(`Planned ${process.name}: ${total} chunks`);
  try {
    await sendAll(
      payloads.map((_, chunk) => jobMessage(process.id, chunk)),
      definition.queue,
    );
  } catch (error) {
    // The plan stands; recovery re-sends the chunks that never arrive.
    context.log.error(`Could not send every chunk of ${process.name}; recovery re-sends them`, {
      error,
    });
  }
}

/**
 * Runs one chunk message. Answers 'skipped' when there is nothing to do (the run ended, the chunk
 * is done or another live worker holds it). A chunk's failure is thrown so the message is
 * redelivered, until its last attempt, which marks the chunk failed instead.
 */
export async function runChunkMessage(
  processId: string,
  index: number,
  jobs: JobRegistry,
  { worker }: { worker?: string } = {},
): Promise<'ran' | 'skipped'> {
  const process = await byId(processId);
  if (
    process?.status !== 'Running' ||
    process.chunksTotal === undefined ||
    index >= process.chunksTotal
  )
    return 'skipped';
  const log = logger.child({ processId, job: process.name, chunk: index });
  const definition = jobs.get(process.name);
  if (!definition || !isChunked(definition)) {
    log.error(`No chunked handler for job "${process.name}"; dropped its chunk message`);
    return 'skipped';
  }
  const chunk = await claimChunk(process, index, log, worker);
  if (!chunk) return 'skipped';
  const attempt = chunk.attempts ?? 0;
  const renew = async () => {
    await Promise.all([
      ProcessChunkEntity.patch({ processId, index })
        .set({ leaseUntil: leaseFromNow() })
        .where(
          (attr, op) => `${op.eq(attr.status, 'running')} AND ${op.eq(attr.attempts, attempt)}`,
        )
        .go(),
      ProcessEntity.patch({ id: processId }).set({ heartbeatAt: now() }).go(),
    ]).catch((error: unknown) => {
      // A lost claim shows at the checkpoint, which then keeps nothing.
      if (!isConditionFailure(error)) throw error;
    });
  };
  const stopHeartbeat = heartbeat(renew);
  let totals: ChunkTotals;
  try {
    const input = v.parse(definition.input, JSON.parse(process.input));
    totals = totalsOf(
      await definition.runChunk(JSON.parse(chunk.payload), input, {
        processId,
        systemUserId: process.systemUserId,
        log,
        chunk: index,
        progress: renew,
      }),
    );
  } catch (error) {
    stopHeartbeat();
    return chunkFailed(process, index, attempt, error, log);
  }
  stopHeartbeat();
  if (!(await endChunk(process.id, index, attempt, { status: 'done', totals }))) {
    log.error(`Chunk ${index} of ${process.name} was taken over; its checkpoint is not kept`);
    return 'skipped';
  }
  await afterChunk(process.id, definition);
  return 'ran';
}

/** A chunk's totals must be numbers: they are summed into the run's output. */
function totalsOf(totals: unknown): ChunkTotals {
  const parsed = v.safeParse(v.record(v.string(), v.pipe(v.number(), v.finite())), totals ?? {});
  if (!parsed.success) throw new Error('A chunk must report its totals as finite numbers');
  return parsed.output;
}

/**
 * pending -> running, or running with an expired lease taken over, while it has attempts left;
 * undefined when it is done, failed or held by a live worker. A chunk whose worker kept dying is
 * marked failed here once it has no attempts left.
 */
async function claimChunk(
  process: Process,
  index: number,
  log: Logger,
  worker?: string,
): Promise<ProcessChunk | undefined> {
  const at = now();
  try {
    const { data } = await ProcessChunkEntity.update({ processId: process.id, index })
      .set({
        status: 'running',
        leaseUntil: leaseFromNow(),
        updatedAt: at,
        ...(worker && { worker }),
      })
      .add({ attempts: 1 })
      .where(
        (attr, op) =>
          `(${op.eq(attr.status, 'pending')} OR (${op.eq(attr.status, 'running')} AND ${op.lt(attr.leaseUntil, at)})) AND ${op.lt(attr.attempts, MAX_ATTEMPTS)}`,
      )
      .go({ response: 'all_new' });
    return data as ProcessChunk;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
  const { data: chunk } = await ProcessChunkEntity.get({ processId: process.id, index }).go({
    consistent: true,
  });
  const exhausted =
    chunk?.status === 'running' &&
    (chunk.leaseUntil ?? '') < at &&
    (chunk.attempts ?? 0) >= MAX_ATTEMPTS;
  if (
    exhausted &&
    (await endChunk(
      process.id,
      index,
      chunk.attempts ?? 0,
      { status: 'failed', error: TOO_MANY_ATTEMPTS },
      chunk.leaseUntil,
    ))
  ) {
    log.error(`Gave up chunk ${index} of ${process.name}: ${TOO_MANY_ATTEMPTS}`);
    await afterChunk(process.id);
  }
  return undefined;
}

/** A chunk's own error: retried through redelivery while it has attempts left, then failed. */
async function chunkFailed(
  process: Process,
  index: number,
  attempt: number,
  error: unknown,
  log: Logger,
): Promise<'ran'> {
  const message = errorText(error);
  if (attempt >= MAX_ATTEMPTS) {
    log.error(`Chunk ${index} of ${process.name} failed on its last attempt`, { error });
    if (await endChunk(process.id, index, attempt, { status: 'failed', error: message }))
      await afterChunk(process.id);
    return 'ran';
  }
  log.error(`Chunk ${index} of ${process.name} failed; it will be retried`, { error });
  // Released at once, so the redelivered message need not wait for the lease to run out.
  await ProcessChunkEntity.patch({ processId: process.id, index })
    .set({ status: 'pending', updatedAt: now(), error: message })
    .where((attr, op) => `${op.eq(attr.status, 'running')} AND ${op.eq(attr.attempts, attempt)}`)
    .go()
    .catch((failure: unknown) => {
      if (!isConditionFailure(failure)) throw failure;
    });
  throw error;
}

/**
 * The checkpoint: the chunk (still claimed by `attempt`, and when giving up still on the expired
 * lease as read) ends done or failed, and the process counts it, in one transaction. Answers
 * false when the claim was taken over or the run ended: then nothing is kept.
 */
async function endChunk(
  processId: string,
  index: number,
  attempt: number,
  end: { status: 'done'; totals: ChunkTotals } | { status: 'failed'; error: string },
  expiredLease?: string,
): Promise<boolean> {
  const at = now();
  const changes =
    end.status === 'done'
      ? { status: end.status, totals: JSON.stringify(end.totals), updatedAt: at }
      : { status: end.status, error: end.error, updatedAt: at };
  const result = await createWriteTransaction(
    { chunk: ProcessChunkEntity, process: ProcessEntity },
    (entities) => [
      entities.chunk
        .patch({ processId, index })
        .set(changes)
        .where(
          (attr, op) =>
            `${op.eq(attr.status, 'running')} AND ${op.eq(attr.attempts, attempt)}${expiredLease === undefined ? '' : ` AND ${op.eq(attr.leaseUntil, expiredLease)}`}`,
        )
        .commit(),
      entities.process
        .patch({ id: processId })
        .add(end.status === 'done' ? { chunksDone: 1 } : { chunksFailed: 1 })
        .set({ heartbeatAt: at })
        .where((attr, op) => op.eq(attr.status, 'Running'))
        .commit(),
    ],
  )
    .go()
    .catch((error: unknown) => {
      if (isConditionFailure(error)) return { canceled: true as const };
      throw error;
    });
  return !result.canceled;
}

/**
 * After a checkpoint: the run's progress moves on, or, when every chunk has ended, the run ends
 * (a failed chunk's run ends Failed, so only a success needs the job's `definition`).
 */
async function afterChunk(processId: string, definition?: ChunkedJobDefinition): Promise<void> {
  const process = await byId(processId);
  if (process?.status !== 'Running' || process.chunksTotal === undefined) return;
  const done = process.chunksDone ?? 0;
  const failed = process.chunksFailed ?? 0;
  const total = process.chunksTotal;
  if (done + failed >= total) return completeRun(process, definition);
  // Only if no later checkpoint wrote a newer count meanwhile.
  await ProcessEntity.patch({ id: processId })
    .set({ progress: (done + failed) / total, progressNote: chunksNote(done, failed, total) })
    .where(
      (attr, op) =>
        `${op.eq(attr.status, 'Running')} AND ${op.eq(attr.chunksDone, done)} AND ${op.eq(attr.chunksFailed, failed)}`,
    )
    .go()
    .catch((error: unknown) => {
      if (!isConditionFailure(error)) throw error;
    });
}

/** The chunks of a planned run, by index (a longer plan's leftovers past chunksTotal are not). */
export async function chunksOf(processId: string, total: number): Promise<ProcessChunk[]> {
  const { data } = await ProcessChunkEntity.query
    .byProcess({ processId })
    .lt({ index: total })
    .go({ consistent: true, pages: 'all' });
  return data;
}

/**
 * Ends a run whose chunks have all ended: Success with the chunks' summed totals (after the job's
 * `succeeded`), or Failed naming the first failure. Conditional on the process's claimed attempt,
 * so it ends once.
 */
async function completeRun(process: Process, definition?: ChunkedJobDefinition): Promise<void> {
  const total = process.chunksTotal ?? 0;
  const chunks = await chunksOf(process.id, total);
  const failures = chunks.filter((chunk) => chunk.status === 'failed');
  const sums: ChunkTotals = {};
  for (const chunk of chunks) {
    if (chunk.status !== 'done') continue;
    for (const [name, value] of Object.entries(JSON.parse(chunk.totals ?? '{}') as ChunkTotals))
      sums[name] = (sums[name] ?? 0) + value;
  }
  const end =
    failures.length > 0
      ? {
          status: 'Failed' as const,
          error: `${failures.length} of ${total} chunks failed: ${failures[0]?.error ?? 'unknown error'}`,
        }
      : { status: 'Success' as const, output: JSON.stringify({ chunks: total, ...sums }) };
  if (end.status === 'Success' && definition?.succeeded) {
    const log = logger.child({ processId: process.id, job: process.name });
    await definition.succeeded(v.parse(definition.input, JSON.parse(process.input)), {
      processId: process.id,
      systemUserId: process.systemUserId,
      log,
      progress: async () => {},
    });
  }
  if (await finish(process, end, { attempt: process.attempts ?? 0 }))
    logger[end.status === 'Success' ? 'info' : 'error'](
      `${end.status === 'Success' ? 'Finished' : 'Failed'} ${process.name}`,
      { processId: process.id, chunks: total, failed: failures.length },
    );
}

/**
 * Recovery of a planned run (never planned again): re-sends the chunks whose messages seem lost,
 * pending while the whole run has been quiet, or running on an expired lease; ends a run whose
 * chunks all ended but whose end was not written. Answers how many chunks it re-sent.
 */
export async function recoverChunks(
  process: Process,
  at: number,
  definition?: ChunkedJobDefinition,
): Promise<number> {
  const total = process.chunksTotal ?? 0;
  if ((process.chunksDone ?? 0) + (process.chunksFailed ?? 0) >= total) {
    await completeRun(process, definition);
    return 0;
  }
  const quietSince = new Date(at - UNDELIVERED_AFTER_MS).toISOString();
  const quiet = (process.heartbeatAt ?? '') < quietSince;
  const atIso = new Date(at).toISOString();
  const lost = (await chunksOf(process.id, total)).filter((chunk) =>
    chunk.status === 'pending'
      ? quiet && chunk.updatedAt < quietSince
      : chunk.status === 'running' && (chunk.leaseUntil ?? '') < atIso,
  );
  await sendAll(
    lost.map((chunk) => jobMessage(process.id, chunk.index)),
    definition?.queue ?? queueOf(process.name),
  );
  return lost.length;
}
