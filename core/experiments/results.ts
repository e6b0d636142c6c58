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

/** Keeps one chunk's results for one step; a second write (a redelivery) keeps the first. */
export async function keepChunk(
  processId: string,
  step: number,
  chunk: number,
  results: UnitResult[],
): Promise<void> {
  try {
    await ExperimentResultEntity.create({
      processId,
      key: chunkKey(step, chunk),
      data: JSON.stringify(results),
    }).go();
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/**
 * Every chunk's results of an execution, per step in order (a job's read, and the comparison's:
 * bounded by the dataset's limits, a few dozen items).
 */
export async function chunksOf(processId: string): Promise<Map<number, UnitResult[]>> {
  const { data } = await ExperimentResultEntity.query
    .byProcess({ processId })
    .begins({ key: 'chunk#' })
    .go({ pages: 'all' });
  const steps = new Map<number, UnitResult[]>();
  for (const item of data.sort((a, b) => a.key.localeCompare(b.key))) {
    const step = Number(item.key.split('#')[1]);
    steps.set(step, [...(steps.get(step) ?? []), ...(JSON.parse(item.data) as UnitResult[])]);
  }
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
