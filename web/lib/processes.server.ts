// The process views the admin pages send: only what they show, with the job's title.
import * as Automations from '#core/automations';
import type { Process } from '#core/jobs';
import type { ProcessView } from './processes';
import type { RunView } from './run-summary';

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
}: Process): ProcessView {
  return {
    id,
    name,
    title: Automations.jobTitle(name),
    priority,
    status,
    startTime,
    createdAt,
    progress,
    progressNote,
    chunksTotal,
    chunksDone,
    chunksFailed,
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
