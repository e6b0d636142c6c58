// What journeys wait for on the shared server: other journeys' imports, scorings and sends.
import * as Jobs from '#core/jobs';
import { expect } from './fixtures';

/** Waits until no process runs on the server (the admin pages disable their actions meanwhile). */
export async function noProcessRuns(): Promise<void> {
  await expect
    .poll(async () => (await Jobs.active()).length, { timeout: 90_000, intervals: [500] })
    .toBe(0);
}

/** Waits until the last run of job `name` (other than the run `after`) ended in Success; the run. */
export async function ranToEnd(name: string, after?: string): Promise<Jobs.Process> {
  await expect
    .poll(
      async () => {
        const run = await Jobs.lastRun(name);
        return run && run.id !== after ? run.status : undefined;
      },
      { timeout: 90_000, intervals: [500] },
    )
    .toBe('Success');
  return (await Jobs.lastRun(name))!;
}
