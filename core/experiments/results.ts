// A run's results, kept per execution (its process): each chunk's unit results, written once
// (a redelivered chunk keeps the first), and the run's output summed from them when every chunk
// is done. Never in production's scores, picks, posts or cards.
import { isConditionFailure } from '#core/db';
import { ExperimentResultEntity } from './result-entity';

export { ExperimentResultEntity };
import type { UnitResult } from './engine';
import type { RunOutput } from './types';

const chunkKey = (step: number, chunk: number) =>
  `chunk#${String(step).padStart(2, '0')}#${String(chunk).padStart(5, '0')}`;

/**
 * Keeps one chunk's results for one step, once: a second write (a redelivery) keeps the first.
 * Answers the results kept, this write's or the first's.
 */
export async function keepChunk(
  processId: string,
  step: number,
  chunk: number,
  results: UnitResult[],
): Promise<UnitResult[]> {
  const key = chunkKey(step, chunk);
  try {
    await ExperimentResultEntity.create({ processId, key, data: JSON.stringify(results) }).go();
    return results;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
  const { data } = await ExperimentResultEntity.get({ processId, key }).go({ consistent: true });
  return data ? (JSON.parse(data.data) as UnitResult[]) : results;
}

/**
 * Every chunk's results of an execution, per step, per chunk in order (a job's read, and the
 * comparison's: bounded by the dataset's limits).
 */
export async function keptChunks(
  processId: string,
): Promise<Map<number, Map<number, UnitResult[]>>> {
  const { data } = await ExperimentResultEntity.query
    .byProcess({ processId })
    .begins({ key: 'chunk#' })
    .go({ pages: 'all' });
  const steps = new Map<number, Map<number, UnitResult[]>>();
  for (const item of data.sort((a, b) => a.key.localeCompare(b.key))) {
    const [, step, chunk] = item.key.split('#').map(Number) as [number, number, number];
    const chunks = steps.get(step) ?? new Map<number, UnitResult[]>();
    chunks.set(chunk, JSON.parse(item.data) as UnitResult[]);
    steps.set(step, chunks);
  }
  return steps;
}

/** Every chunk's results of an execution, per step in order. */
export async function chunksOf(processId: string): Promise<Map<number, UnitResult[]>> {
  const steps = new Map<number, UnitResult[]>();
  for (const [step, chunks] of await keptChunks(processId))
    steps.set(step, [...chunks.values()].flat());
  return steps;
}

export async function keepOutput(processId: string, output: RunOutput): Promise<void> {
  await ExperimentResultEntity.put({ processId, key: 'output', data: JSON.stringify(output) }).go();
}

/** A successful execution's output: one GetItem. */
export async function outputOf(processId: string): Promise<RunOutput | undefined> {
  const { data } = await ExperimentResultEntity.get({ processId, key: 'output' }).go();
  return data ? (JSON.parse(data.data) as RunOutput) : undefined;
}
