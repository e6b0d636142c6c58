// Jobs: long work never runs inside a request. `enqueue` records a Queued process and sends its id
// to SQS; the worker claims it (Queued -> Running, exactly once), runs its handler with a logger
// and a progress callback, and ends it Success or Failed. Redelivered messages do no work twice;
// `recover` re-sends what a crash left Queued or Running without a heartbeat. One process per job
// name runs at a time (an import and a newsletter send may overlap), and a run that keeps stopping
// without finishing is ended Failed after MAX_ATTEMPTS claims instead of being retried forever.
// A chunked job's claimed run plans chunks that run as their own messages, in parallel (chunks.ts).
import {
  createWriteTransaction,
  type Entity,
  type EntityItem,
  type TransactWriteEntity,
} from 'electrodb';
import * as v from 'valibot';
import { VisibleError } from '#core/common';
import { ulid } from '#core/ids';
import { committedOnce, isConditionFailure, type ItemRead } from '#core/db';
import { flush, logger } from '#core/logs';
import { ActiveProcessEntity } from './active-process-entity';
import { planRun, recoverChunks, runChunkMessage } from './chunks';
import {
  isChunked,
  queueOf,
  registeredJob,
  type AnyJobDefinition,
  type ChunkedJobDefinition,
  type JobContext,
  type JobDefinition,
  type JobRegistry,
} from './definition';
import { ProcessEntity } from './entity';
import {
  active,
  byId,
  finish,
  heartbeat,
  MAX_ATTEMPTS,
  now,
  slotOf,
  STALE_AFTER_MS,
  TOO_MANY_ATTEMPTS,
  UNDELIVERED_AFTER_MS,
  type Process,
} from './process';
import { jobMessage, kindOf, send, type JobMessage } from './queue';

export { ProcessEntity, PROCESS_STATUSES } from './entity';
export { ActiveProcessEntity } from './active-process-entity';
export { ProcessChunkEntity, CHUNK_STATUSES } from './chunk-entity';
export {
  defineChunkedJob,
  defineJob,
  jobTitle,
  register,
  registry,
  type AnyJobDefinition,
  type ChunkContext,
  type ChunkedJobDefinition,
  type ChunkTotals,
  type JobContext,
  type JobDefinition,
  type JobRegistry,
} from './definition';
export {
  active,
  byId,
  HEARTBEAT_MS,
  MAX_ATTEMPTS,
  STALE_AFTER_MS,
  TOO_MANY_ATTEMPTS,
  UNDELIVERED_AFTER_MS,
  type Process,
} from './process';
export { CHUNK_LEASE_MS, MAX_CHUNK_BYTES, type ProcessChunk } from './chunks';
export { recoverAfterRestart } from './restart';
export {
  emailMessage,
  jobMessage,
  kindOf,
  MESSAGE_VERSION,
  queueUrl,
  send,
  sendAll,
  type EmailMessage,
  type JobMessage,
  type QueueMessage,
  type QueueName,
} from './queue';
export type ProcessStatus = Process['status'];

/** A process id chosen ahead (a ULID), so a record can name the run before it is queued. */
export type EnqueueOptions = { id?: string };

export const BUSY_MESSAGE = 'A process is still running. Please wait until it ends.';

/**
 * Records a Queued process for a job and sends it to the queue. The process takes its job's slot
 * in the same transaction, so a second run of the same job is refused while one is active; other
 * jobs are not held up. A module that does not own the job names it instead: its definition is
 * then the one this process registered (core/worker), and its input is checked against it here
 * as well as when the job runs.
 */
export async function enqueue<S extends v.GenericSchema, C>(
  job: JobDefinition<S> | ChunkedJobDefinition<S, C>,
  input: v.InferInput<S>,
  systemUserId: string,
  options?: EnqueueOptions,
): Promise<Process>;
export async function enqueue(
  job: string,
  input: unknown,
  systemUserId: string,
  options?: EnqueueOptions,
): Promise<Process>;
export async function enqueue(
  job: string | AnyJobDefinition,
  input: unknown,
  systemUserId: string,
  options: EnqueueOptions = {},
): Promise<Process> {
  const run = queueing(job, input, systemUserId, options);
  // Only a held slot refuses it; a collision with another transaction (a like checking the slot)
  // is tried again.
  const written = await committedOnce(
    createWriteTransaction({ process: ProcessEntity, active: ActiveProcessEntity }, run.writes),
  );
  if (!written) throw new VisibleError('jobs.busy', BUSY_MESSAGE, 409);
  return run.send();
}

type TransactionOf<E> =
  E extends Entity<infer A, infer F, infer C, infer S> ? TransactWriteEntity<A, F, C, S> : never;

/** A run ready to be queued: its writes for a transaction, then its message once they committed. */
export type Queueing = {
  process: Process;
  /** The Queued process and its slot, taken only if free (in the caller's transaction too). */
  writes: (entities: {
    process: TransactionOf<typeof ProcessEntity>;
    active: TransactionOf<typeof ActiveProcessEntity>;
  }) => ReturnType<ReturnType<TransactionOf<typeof ProcessEntity>['create']>['commit']>[];
  /** Sends the run's message; if that fails the run ends Failed and frees its slot. */
  send: () => Promise<Process>;
};

/**
 * A run of `job` made ready without writing anything: `enqueue` writes it alone, and a caller may
 * write it in its own transaction (a like queues its build with the feedback) to save a call.
 */
export function queueing(
  job: string | AnyJobDefinition,
  input: unknown,
  systemUserId: string,
  { id = ulid() }: EnqueueOptions = {},
): Queueing {
  const definition = typeof job === 'string' ? registeredJob(job) : job;
  if (!definition)
    throw new Error(
      `No job "${String(job)}" is registered in this process: its entry point registers the worker's jobs (core/worker)`,
    );
  const parsed = v.safeParse(definition.input, input);
  if (!parsed.success)
    throw new VisibleError('input.invalid', parsed.issues[0]?.message ?? 'Invalid input', 400);
  const process: Process = {
    id,
    name: definition.name,
    slot:
      ('slotFor' in definition && definition.slotFor?.(parsed.output)) ||
      (definition.slot ?? definition.name),
    priority: definition.priority ?? 0,
    status: 'Queued',
    input: JSON.stringify(parsed.output ?? null),
    systemUserId,
    progress: 0,
    attempts: 0,
    createdAt: now(),
  };
  return {
    process,
    writes: (entities) => [
      entities.process.create(process).commit(),
      entities.active
        .create({ id: process.id, name: slotOf(process), createdAt: process.createdAt })
        .commit(),
    ],
    async send() {
      try {
        await send(jobMessage(process.id), definition.queue);
      } catch (error) {
        await finish(
          process,
          { status: 'Failed', error: `Could not queue the job: ${String(error)}` },
          { status: 'Queued', heartbeatAt: undefined },
        );
        throw error;
      }
      logger.info(`Queued ${process.name}`, { processId: process.id, systemUserId });
      return process;
    },
  };
}

/** A job slot's holder (for a read made together with others; core/db's getTogether). */
export function slotRead(slot: string): ItemRead<EntityItem<typeof ActiveProcessEntity>> {
  return {
    key: ActiveProcessEntity.get({ name: slot }).params().Key,
    parse: (item) => ActiveProcessEntity.parse({ Item: item }).data ?? undefined,
  };
}

/** The newest run of a job, if any. */
export async function lastRun(name: string): Promise<Process | undefined> {
  const { data } = await ProcessEntity.query.byName({ name }).go({ order: 'desc', limit: 1 });
  return data[0];
}

/**
 * Queued -> Running, or a stale Running taken over while it has attempts left; undefined when
 * another run owns it, it ended, or it ran out of attempts (then it is ended Failed here). A
 * chunked run is never taken over once it has planned its chunks: recovery re-sends those.
 */
async function claim(id: string, worker?: string): Promise<Process | undefined> {
  const staleBefore = new Date(Date.now() - STALE_AFTER_MS).toISOString();
  try {
    const { data } = await ProcessEntity.update({ id })
      .set({ status: 'Running', startTime: now(), heartbeatAt: now(), ...(worker && { worker }) })
      .add({ attempts: 1 })
      .where(
        (attr, op) =>
          `(${op.eq(attr.status, 'Queued')} OR (${op.eq(attr.status, 'Running')} AND ${op.lt(attr.heartbeatAt, staleBefore)})) AND ${op.lt(attr.attempts, MAX_ATTEMPTS)} AND ${op.notExists(attr.chunksTotal)}`,
      )
      .go({ response: 'all_new' });
    return data as Process;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    await giveUpIfExhausted(id);
    return undefined;
  }
}

/**
 * A silent run that used all its attempts ends Failed and frees its job's slot. A planned chunked
 * run is judged by its chunks' attempts instead (chunks.ts).
 */
async function giveUpIfExhausted(id: string, at = Date.now()): Promise<boolean> {
  const process = await byId(id);
  if (!process || (process.attempts ?? 0) < MAX_ATTEMPTS || process.chunksTotal !== undefined)
    return false;
  const staleBefore = new Date(at - STALE_AFTER_MS).toISOString();
  const silent =
    process.status === 'Queued' ||
    (process.status === 'Running' && (process.heartbeatAt ?? '') < staleBefore);
  if (!silent) return false;
  const ended = await finish(process, { status: 'Failed', error: TOO_MANY_ATTEMPTS }, process);
  if (ended) logger.error(`Gave up ${process.name}: ${TOO_MANY_ATTEMPTS}`, { processId: id });
  return ended;
}

/**
 * Runs one process, or for a chunked job plans it and sends its chunks (the chunks' messages then
 * run it and the last one ends it). A handler's own failure ends the process Failed (it is not
 * retried: the operator sees the error and runs it again); only infrastructure errors propagate,
 * so the message is redelivered.
 */
export async function runProcess(
  processId: string,
  jobs: JobRegistry,
  { worker }: WorkerOptions = {},
): Promise<'ran' | 'skipped'> {
  const process = await claim(processId, worker);
  if (!process) return 'skipped';
  const log = logger.child({ processId, job: process.name });
  const definition = jobs.get(process.name);
  const stopHeartbeat = heartbeat(() =>
    ProcessEntity.patch({ id: processId }).set({ heartbeatAt: now() }).go(),
  );
  try {
    if (!definition) throw new Error(`No handler for job "${process.name}"`);
    log.info(`Started ${process.name}`, { attempt: process.attempts });
    const input = v.parse(definition.input, JSON.parse(process.input));
    const context: JobContext = {
      processId,
      systemUserId: process.systemUserId,
      log,
      progress: async (fraction, note) => {
        await ProcessEntity.patch({ id: processId })
          .set({
            progress: Math.max(0, Math.min(1, fraction)),
            heartbeatAt: now(),
            ...(note && { progressNote: note }),
          })
          .go();
      },
    };
    if (isChunked(definition)) {
      await planRun(process, definition, input, context);
      return 'ran';
    }
    const output = await definition.run(input, context);
    const mine = { attempt: process.attempts ?? 0 };
    if (
      await finish(process, { status: 'Success', output: JSON.stringify(output ?? null) }, mine)
    ) {
      log.info(`Finished ${process.name}`);
      await definition.ended?.(input, context).catch((error: unknown) => {
        log.error(`${process.name} could not take up what came after its run`, { error });
      });
    } else
      log.error(`${process.name} finished after another attempt took it over; its end is not kept`);
  } catch (error) {
    log.error(`Failed ${process.name}`, { error });
    await finish(
      process,
      { status: 'Failed', error: error instanceof Error ? error.message : String(error) },
      { attempt: process.attempts ?? 0 },
    );
  } finally {
    stopHeartbeat();
    await flush();
  }
  return 'ran';
}

export type SqsRecord = { messageId: string; body: string };

/** The worker running a batch: named by a local run, so its claims can be known as its own. */
export type WorkerOptions = { worker?: string };

/** A message that can never be processed is dropped, not retried until the dead-letter queue. */
function messageOf(body: string): JobMessage | undefined {
  if (kindOf(body) !== 'job') return undefined;
  const { processId, chunk } = JSON.parse(body) as Partial<JobMessage>;
  if (typeof processId !== 'string' || processId.length === 0) return undefined;
  if (chunk === undefined) return jobMessage(processId);
  return Number.isSafeInteger(chunk) && chunk >= 0 ? jobMessage(processId, chunk) : undefined;
}

/** The worker's batch: each message's process runs; failures are reported per message. */
export async function handleBatch(
  records: SqsRecord[],
  jobs: JobRegistry,
  options: WorkerOptions = {},
) {
  const batchItemFailures: { itemIdentifier: string }[] = [];
  for (const record of records) {
    const message = messageOf(record.body);
    if (!message) {
      logger.error('Dropped a malformed job message', { messageId: record.messageId });
      continue;
    }
    try {
      if (message.chunk === undefined) await runProcess(message.processId, jobs, options);
      else await runChunkMessage(message.processId, message.chunk, jobs, options);
    } catch (error) {
      logger.error('Job message failed; it will be redelivered', {
        messageId: record.messageId,
        error,
      });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  await flush();
  return { batchItemFailures };
}

/**
 * Re-sends processes a crash left behind: Queued and never delivered, or Running and silent. One
 * that has used all its attempts is ended Failed instead, which frees its job's slot. A planned
 * chunked run gets its lost chunks re-sent instead (`recoverChunks`), or is ended if all its
 * chunks ended (with its job's `succeeded`, found in `jobs`). Answers how many messages it sent.
 */
export async function recover(at = Date.now(), jobs?: JobRegistry): Promise<number> {
  const undeliveredBefore = new Date(at - UNDELIVERED_AFTER_MS).toISOString();
  const staleBefore = new Date(at - STALE_AFTER_MS).toISOString();
  const processes = await active();
  // Only a Running process has planned chunks (chunksTotal is set while it is claimed).
  const planned = processes.filter((process) => process.chunksTotal !== undefined);
  let chunks = 0;
  for (const process of planned) {
    const definition = jobs?.get(process.name);
    chunks += await recoverChunks(
      process,
      at,
      definition && isChunked(definition) ? definition : undefined,
    );
  }
  if (chunks > 0) logger.info(`Re-sent ${chunks} chunk(s)`, { ids: planned.map((p) => p.id) });
  const silent = processes.filter(
    (process) =>
      process.chunksTotal === undefined &&
      (process.status === 'Queued'
        ? process.createdAt < undeliveredBefore
        : process.status === 'Running' && (process.heartbeatAt ?? '') < staleBefore),
  );
  const stuck: Process[] = [];
  for (const process of silent) if (!(await giveUpIfExhausted(process.id, at))) stuck.push(process);
  for (const process of stuck) await send(jobMessage(process.id), queueOf(process.name, jobs));
  if (stuck.length > 0)
    logger.info(`Recovered ${stuck.length} job(s)`, { ids: stuck.map((p) => p.id) });
  return stuck.length + chunks;
}
