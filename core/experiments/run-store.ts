// Reading a stored run: for the screen (consistent) and for the job, which acts only while the run
// still names its execution.
import { ExperimentRunEntity, type RunItem } from './run-entity';

export type { RunItem };

export async function readRun(id: string): Promise<RunItem | undefined> {
  if (!id) return undefined;
  const { data } = await ExperimentRunEntity.get({ id }).go({ consistent: true });
  return data ?? undefined;
}

/** The run a job executes, while it still names that execution, or undefined. */
export async function runForJob(runId: string, processId: string): Promise<RunItem | undefined> {
  const item = await readRun(runId);
  return item?.processId === processId ? item : undefined;
}
