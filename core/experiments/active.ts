// The Experiments screen's panel: the active processes whose names contain 'experiment', with
// the run each executes.
import * as Jobs from '#core/jobs';
import { readRun } from './run-store';

export type ActiveExperiment = {
  id: string;
  name: string;
  priority: number;
  startTime?: string;
  createdAt: string;
  status: Jobs.ProcessStatus;
};

export async function activeExperiments(): Promise<ActiveExperiment[]> {
  const processes = (await Jobs.active()).filter((process) => process.name.includes('experiment'));
  return Promise.all(
    processes.map(async (process) => {
      const runId = (JSON.parse(process.input) as { runId?: string }).runId;
      const run = runId ? await readRun(runId) : undefined;
      return {
        id: process.id,
        name: run ? `${process.name}: ${run.name}` : process.name,
        priority: process.priority ?? 0,
        ...(process.startTime && { startTime: process.startTime }),
        createdAt: process.createdAt,
        status: process.status,
      };
    }),
  );
}
