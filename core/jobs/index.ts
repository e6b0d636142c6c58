// Jobs: long work never runs inside a request. `enqueue` records a Queued process and sends its id
// to SQS; the worker claims it (Queued -> Running, exactly once), runs its handler with a logger
// and a progress callback, and ends it Success or Failed. Redelivered messages do no work twice;
// `recover` re-sends what a crash left Queued or Running without a heartbeat. One process per job
// name runs at a time (an import and a newsletter send may overlap), and a run that keeps stopping
// without finishing is ended Failed after MAX_ATTEMPTS claims instead of being retried forever.
import { createWriteTransaction, type EntityItem } from 'electrodb';
import * as v from 'valibot';
import { ulid } from 'ulid';
import { VisibleError } from '#core/common';
import { isConditionFailure } from '#core/db';
import { flush, logger, type Logger } from '#core/logs';
import { ActiveProcessEntity } from './active-process-entity';
import { ProcessEntity } from './entity';
import { send, type JobMessage } from './queue';

export { ProcessEntity, PROCESS_STATUSES } from './entity';
export { ActiveProcessEntity } from './active-process-entity';
export type Process = EntityItem<typeof ProcessEntity>;
export type ProcessStatus = Process['status'];

/** A Running process without a heartbeat for this long is presumed dead and may be taken over. */
export const STALE_AFTER_MS = 5 * 60_000;
/** A Queued process older than this was probably never delivered. */
export const UNDELIVERED_AFTER_MS = 2 * 60_000;
const HEARTBEAT_MS = 30_000;
/** Claims a process gets (the first run and takeovers of a silent one) before it is ended Failed. */
export const MAX_ATTEMPTS = 3;
export const TOO_MANY_ATTEMPTS = `Stopped after ${MAX_ATTEMPTS} attempts: the run kept stopping without finishing`;

export type JobContext = {
  processId: string;
  systemUserId: string;
  log: Logger;
  /** Reports progress (0..1) with an optional note; also proves the run is alive. */
  progress(fraction: number, note?: string): Promise<void>;
};

export type JobDefinition<S extends v.GenericSchema = v.GenericSchema> = {
  name: string;
  /** Jobs that share a slot never run at once (an import and Clear Table); default: the name. */
  slot?: string;
  priority?: number;
  input: S;
  run(input: v.InferOutput<S>, context: JobContext): Promise<unknown>;
};

export type JobRegistry = ReadonlyMap<string, JobDefinition>;

export function defineJob<S extends v.GenericSchema>(
  definition: JobDefinition<S>,
): JobDefinition<S> {
  return definition;
}

export function registry(definitions: JobDefinition[]): JobRegistry {
  return new Map(definitions.map((definition) => [definition.name, definition]));
}

const now = () => new Date().toISOString();

/** The slot a process holds while it is active (processes queued before slots had one: its name). */
const slotOf = (process: Pick<Process, 'name' | 'slot'>) => process.slot ?? process.name;

export const BUSY_MESSAGE = 'A process is still running. Please wait until it ends.';

/**
 * Records a Queued process for `definition` and sends it to the queue. The process takes its job
 * name's slot in the same transaction, so a second run of the same job is refused while one is
 * active; other jobs are not held up.
 */
export async function enqueue<S extends v.GenericSchema>(
  definition: JobDefinition<S>,
  input: v.InferInput<S>,
  systemUserId: string,
): Promise<Process> {
  const parsed = v.safeParse(definition.input, input);
  if (!parsed.success)
    throw new VisibleError('input.invalid', parsed.issues[0]?.message ?? 'Invalid input', 400);
  const process: Process = {
    id: ulid(),
    name: definition.name,
    slot: definition.slot ?? definition.name,
    priority: definition.priority ?? 0,
    status: 'Queued',
    input: JSON.stringify(parsed.output ?? null),
    systemUserId,
    progress: 0,
    attempts: 0,
    createdAt: now(),
  };
  const written = await createWriteTransaction(
    { process: ProcessEntity, active: ActiveProcessEntity },
    (entities) => [
      entities.process.create(process).commit(),
      entities.active
        .create({ id: process.id, name: slotOf(process), createdAt: process.createdAt })
        .commit(),
    ],
  )
    .go()
    .catch((error: unknown) => {
      if (isConditionFailure(error)) return { canceled: true };
      throw error;
    });
  if (written.canceled) throw new VisibleError('jobs.busy', BUSY_MESSAGE, 409);
  try {
    await send({ processId: process.id });
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
}

export async function byId(id: string): Promise<Process | undefined> {
  const { data } = await ProcessEntity.get({ id }).go({ consistent: true });
  return data ?? undefined;
}

/**
 * Every Queued or Running process, oldest first: one Query of the slots partition (at most one
 * item per job name) and one BatchGet of their processes; never a scan.
 */
export async function active(): Promise<Process[]> {
  const { data: slots } = await ActiveProcessEntity.query
    .slot({})
    .go({ consistent: true, pages: 'all' });
  if (slots.length === 0) return [];
  const { data } = await ProcessEntity.get(slots.map(({ id }) => ({ id }))).go({
    consistent: true,
  });
  return data.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

/** The newest run of a job, if any. */
export async function lastRun(name: string): Promise<Process | undefined> {
  const { data } = await ProcessEntity.query.byName({ name }).go({ order: 'desc', limit: 1 });
  return data[0];
}

/**
 * Queued -> Running, or a stale Running taken over while it has attempts left; undefined when
 * another run owns it, it ended, or it ran out of attempts (then it is ended Failed here).
 */
async function claim(id: string): Promise<Process | undefined> {
  const staleBefore = new Date(Date.now() - STALE_AFTER_MS).toISOString();
  try {
    const { data } = await ProcessEntity.update({ id })
      .set({ status: 'Running', startTime: now(), heartbeatAt: now() })
      .add({ attempts: 1 })
      .where(
        (attr, op) =>
          `(${op.eq(attr.status, 'Queued')} OR (${op.eq(attr.status, 'Running')} AND ${op.lt(attr.heartbeatAt, staleBefore)})) AND ${op.lt(attr.attempts, MAX_ATTEMPTS)}`,
      )
      .go({ response: 'all_new' });
    return data as Process;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    await giveUpIfExhausted(id);
    return undefined;
  }
}

/** A silent run that used all its attempts ends Failed and frees its job's slot. */
async function giveUpIfExhausted(id: string, at = Date.now()): Promise<boolean> {
  const process = await byId(id);
  if (!process || (process.attempts ?? 0) < MAX_ATTEMPTS) return false;
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
 * Ends a process and frees its job name's slot in one transaction, only if the process is still
 * as `seen`: giving up on a silent run must not end one that just came back to life, and a run
 * ends only the attempt it claimed (a run taken over after a stall must not overwrite the
 * takeover's end). Answers false when the process moved on.
 */
async function finish(
  process: Pick<Process, 'id' | 'name' | 'slot'>,
  end: { status: 'Success' | 'Failed'; output?: string; error?: string },
  seen: Pick<Process, 'status' | 'heartbeatAt'> | { attempt: number },
): Promise<boolean> {
  const { id } = process;
  const changes = {
    ...end,
    endTime: now(),
    ...(end.status === 'Success' && { progress: 1 }),
  };
  const result = await createWriteTransaction(
    { process: ProcessEntity, active: ActiveProcessEntity },
    (entities) => [
      entities.process
        .patch({ id })
        .set(changes)
        .where((attr, op) =>
          'attempt' in seen
            ? `${op.eq(attr.status, 'Running')} AND ${op.eq(attr.attempts, seen.attempt)}`
            : `${op.eq(attr.status, seen.status)} AND ${seen.heartbeatAt === undefined ? op.notExists(attr.heartbeatAt) : op.eq(attr.heartbeatAt, seen.heartbeatAt)}`,
        )
        .commit(),
      entities.active
        .delete({ name: slotOf(process) })
        .where((attr, op) => op.eq(attr.id, id))
        .commit(),
    ],
  )
    .go()
    .catch((error: unknown) => {
      if (isConditionFailure(error)) return { canceled: true as const };
      throw error;
    });
  // A cancelled transaction: the process moved on since it was seen, and its end is someone else's.
  return !result.canceled;
}

/**
 * Runs one process. A handler's own failure ends the process Failed (it is not retried: the
 * operator sees the error and runs it again); only infrastructure errors propagate, so the
 * message is redelivered.
 */
export async function runProcess(processId: string, jobs: JobRegistry): Promise<'ran' | 'skipped'> {
  const process = await claim(processId);
  if (!process) return 'skipped';
  const log = logger.child({ processId, job: process.name });
  const definition = jobs.get(process.name);
  const heartbeat = setInterval(() => {
    void ProcessEntity.patch({ id: processId })
      .set({ heartbeatAt: now() })
      .go()
      .catch(() => undefined);
  }, HEARTBEAT_MS);
  heartbeat.unref?.();
  try {
    if (!definition) throw new Error(`No handler for job "${process.name}"`);
    log.info(`Started ${process.name}`, { attempt: process.attempts });
    const input = v.parse(definition.input, JSON.parse(process.input));
    const output = await definition.run(input, {
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
    });
    const mine = { attempt: process.attempts ?? 0 };
    if (await finish(process, { status: 'Success', output: JSON.stringify(output ?? null) }, mine))
      log.info(`Finished ${process.name}`);
    else
      log.error(`${process.name} finished after another attempt took it over; its end is not kept`);
  } catch (error) {
    log.error(`Failed ${process.name}`, { error });
    await finish(
      process,
      { status: 'Failed', error: error instanceof Error ? error.message : String(error) },
      { attempt: process.attempts ?? 0 },
    );
  } finally {
    clearInterval(heartbeat);
    await flush();
  }
  return 'ran';
}

export type SqsRecord = { messageId: string; body: string };

/** A message that can never be processed is dropped, not retried until the dead-letter queue. */
function processIdOf(body: string): string | undefined {
  try {
    const { processId } = JSON.parse(body) as Partial<JobMessage>;
    return typeof processId === 'string' && processId.length > 0 ? processId : undefined;
  } catch {
    return undefined;
  }
}

/** The worker's batch: each message's process runs; failures are reported per message. */
export async function handleBatch(records: SqsRecord[], jobs: JobRegistry) {
  const batchItemFailures: { itemIdentifier: string }[] = [];
  for (const record of records) {
    const processId = processIdOf(record.body);
    if (!processId) {
      logger.error('Dropped a malformed job message', { messageId: record.messageId });
      continue;
    }
    try {
      await runProcess(processId, jobs);
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
 * that has used all its attempts is ended Failed instead, which frees its job's slot.
 */
export async function recover(at = Date.now()): Promise<number> {
  const undeliveredBefore = new Date(at - UNDELIVERED_AFTER_MS).toISOString();
  const staleBefore = new Date(at - STALE_AFTER_MS).toISOString();
  const silent = (await active()).filter((process) =>
    process.status === 'Queued'
      ? process.createdAt < undeliveredBefore
      : process.status === 'Running' && (process.heartbeatAt ?? '') < staleBefore,
  );
  const stuck: Process[] = [];
  for (const process of silent) if (!(await giveUpIfExhausted(process.id, at))) stuck.push(process);
  for (const process of stuck) await send({ processId: process.id });
  if (stuck.length > 0)
    logger.info(`Recovered ${stuck.length} job(s)`, { ids: stuck.map((p) => p.id) });
  return stuck.length;
}
