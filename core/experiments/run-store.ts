// Reading a stored run: for the screen (consistent) and for the job, which acts only while the run
// still names its execution.
import { ExperimentRunEntity, type RunItem } from './run-entity';

export type { RunItem };

export async function readRun(id: string): Promise<RunItem | undefined> {
  if (!id) return undefined;
  const { data } = await ExperimentRunEntity.get({ id }).go({ consistent: true });
  return data ?? undefined;
}

/**
 * The run a job executes, while it still names that execution and is as it was when executed (its
 * revision: an edit that landed between naming the execution and queueing it is not run), or
 * undefined.
 */
export async function runForJob(
  runId: string,
  processId: string,
  revision?: number,
): Promise<RunItem | undefined> {
  const item = await readRun(runId);
  if (item?.processId !== processId) return undefined;
  return revision === undefined || item.revision === revision ? item : undefined;
}
