// How the admin panel shows a process; shared by the status endpoint and the pages.
import type { Process } from '#core/jobs';
import type { RunView } from './run-summary';

/** The status endpoint the admin pages poll. */
export const STATUS_PATH = '/admin-panel/status';

/** A chunked run also counts its chunks (its progressNote reads "{done} of {total} chunks"). */
export type ProcessView = Pick<
  Process,
  | 'id'
  | 'name'
  | 'priority'
  | 'status'
  | 'startTime'
  | 'createdAt'
  | 'progress'
  | 'progressNote'
  | 'chunksTotal'
  | 'chunksDone'
  | 'chunksFailed'
>;

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

/**
 * Whether the page's data is out of date: a process it showed has ended (its results, the last
 * run and the counts changed) or one has started or moved on (the last run's status changed).
 * Progress alone is not a change.
 */
export function processesChanged(shown: ProcessView[], polled: ProcessView[]): boolean {
  const states = (processes: ProcessView[]) =>
    processes
      .map(({ id, status }) => `${id}:${status}`)
      .sort()
      .join(',');
  return states(shown) !== states(polled);
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
