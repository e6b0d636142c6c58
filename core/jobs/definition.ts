// What a job is: a plain job runs in one go; a chunked job plans its work into chunks that run as
// separate messages, in parallel, each checkpointed on its own.
import type * as v from 'valibot';
import type { Logger } from '#core/logs';
import type { QueueName } from './queue';

export type JobContext = {
  processId: string;
  systemUserId: string;
  log: Logger;
  /** Reports progress (0..1) with an optional note; also proves the run is alive. */
  progress(fraction: number, note?: string): Promise<void>;
};

export type JobDefinition<S extends v.GenericSchema = v.GenericSchema> = {
  name: string;
  /** What an operator reads for a run of it, in the product's words: 'Scoring articles'. */
  title: string;
  /** Jobs that share a slot never run at once (an import and Clear Table); default: the name. */
  slot?: string;
  /** A slot per input instead (one user's scoring), so runs for different inputs never wait. */
  slotFor?(input: v.InferOutput<S>): string;
  priority?: number;
  /** The queue its messages go to: 'email' for a job that queues e-mails (ADR 0058). */
  queue?: QueueName;
  input: S;
  run(input: v.InferOutput<S>, context: JobContext): Promise<unknown>;
  /**
   * Runs after a successful run ended and freed its slot: the place to take up a request that
   * arrived too late for the run and found the slot still held. A throw is logged, never retried.
   */
  ended?(input: v.InferOutput<S>, context: JobContext): Promise<void>;
};

/**
 * A chunk's run. Its `progress` only proves the chunk is alive (it renews the chunk's lease and
 * the process's heartbeat): the process's progress counts finished chunks.
 */
export type ChunkContext = JobContext & { chunk: number };

/** Numbers a chunk reports (articles scored, tokens); the run's output sums them over chunks. */
export type ChunkTotals = Record<string, number>;

export type ChunkedJobDefinition<S extends v.GenericSchema = v.GenericSchema, C = unknown> = {
  name: string;
  title: string;
  slot?: string;
  priority?: number;
  /** The queue its messages (its chunks' too) go to: 'email' for one that queues e-mails. */
  queue?: QueueName;
  input: S;
  /** Splits the work; may run again on a takeover before any chunk was sent, so it must not write results. Return [] when there is nothing to do. */
  plan(input: v.InferOutput<S>, context: JobContext): Promise<C[]>;
  /** Does one chunk's work idempotently; its totals are stored with the chunk's checkpoint. */
  runChunk(chunk: C, input: v.InferOutput<S>, context: ChunkContext): Promise<ChunkTotals>;
  /** A slot per input instead (one reader's scoring), so runs for different inputs never wait. */
  slotFor?(input: v.InferOutput<S>): string;
  /**
   * Runs once every chunk has succeeded (or when there was nothing to do), before the run is ended
   * Success; it may run again after a crash, so it must be idempotent. A throw leaves the run to
   * recovery, which tries again.
   */
  succeeded?(input: v.InferOutput<S>, context: JobContext): Promise<void>;
};

export type AnyJobDefinition = JobDefinition | ChunkedJobDefinition;

export type JobRegistry = ReadonlyMap<string, AnyJobDefinition>;

export function defineJob<S extends v.GenericSchema>(
  definition: JobDefinition<S>,
): JobDefinition<S> {
  return definition;
}

export function defineChunkedJob<S extends v.GenericSchema, C>(
  definition: ChunkedJobDefinition<S, C>,
): ChunkedJobDefinition<S, C> {
  return definition;
}

export function registry(definitions: readonly AnyJobDefinition[]): JobRegistry {
  return new Map(definitions.map((definition) => [definition.name, definition]));
}

/**
 * The jobs this process can queue by name: the entry points register the worker's registry at
 * start (core/worker), so core/jobs never imports the modules that define them (ADR 0057).
 */
const registered = new Map<string, AnyJobDefinition>();

export function register(jobs: JobRegistry): void {
  for (const [name, definition] of jobs) registered.set(name, definition);
}

export function registeredJob(name: string): AnyJobDefinition | undefined {
  return registered.get(name);
}

/** The queue a job's messages go to: its own definition's, else the one registered here. */
export function queueOf(name: string, jobs?: JobRegistry): QueueName {
  return (jobs?.get(name) ?? registered.get(name))?.queue ?? 'jobs';
}

/** A job's title for an operator ('Scoring articles'); a job no longer known keeps its name. */
export function jobTitle(name: string): string {
  return registered.get(name)?.title ?? name;
}

export function isChunked(definition: AnyJobDefinition): definition is ChunkedJobDefinition {
  return 'plan' in definition && 'runChunk' in definition;
}
