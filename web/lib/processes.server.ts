// The process views the admin pages send: only what they show, with the job's title.
import { HEARTBEAT_MS, jobTitle, STALE_AFTER_MS, type Process } from '#core/jobs';
import type { ProcessView } from './processes';
import type { RunView } from './run-summary';

/** How long a worker may go unheard before the notice says the run waits for it. */
const SILENT_AFTER_MS = 2 * HEARTBEAT_MS;

export function processView({
  id,
  name,
  priority,
  status,
  startTime,
  createdAt,
  progress,
  progressNote,
  chunksTotal,
  chunksDone,
  chunksFailed,
  heartbeatAt,
}: Process): ProcessView {
  const heard = heartbeatAt ? Date.parse(heartbeatAt) : NaN;
  const silent =
    status === 'Running' && heard < Date.now() - SILENT_AFTER_MS
      ? { since: heartbeatAt!, takenOverAt: new Date(heard + STALE_AFTER_MS).toISOString() }
      : undefined;
  return {
    id,
    name,
    title: jobTitle(name),
    priority,
    status,
    startTime,
    createdAt,
    progress,
    progressNote,
    chunksTotal,
    chunksDone,
    chunksFailed,
    ...(silent && { silent }),
  };
}

/** A run as the admin shows its result: the view plus what it stored when it ended. */
export function runView(process: Process): RunView {
  return {
    ...processView(process),
    output: process.output,
    error: process.error,
    endTime: process.endTime,
  };
}
