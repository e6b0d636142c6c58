// How the admin panel shows a process; shared by the status endpoint and the pages (the views are
// made on the server, processes.server.ts).
import type { Process } from '#core/jobs';

/** The status endpoint the admin pages poll. */
export const STATUS_PATH = '/admin-panel/status';

/**
 * A process as an operator reads it: its job's title in the product's words ('Scoring articles'),
 * not the job's name. A chunked run also counts its chunks (its progressNote reads "{done} of
 * {total} chunks").
 */
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
> & {
  title: string;
  /**
   * A Running process whose worker has not been heard from for two heartbeats: when it last was,
   * and when the run is taken over if it stays silent (what the actions wait for).
   */
  silent?: { since: string; takenOverAt: string };
};

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
