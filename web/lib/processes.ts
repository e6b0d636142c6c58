// How the admin panel shows a process; shared by the status endpoint and the pages.
import type { Process } from '#core/jobs';

export type ProcessView = Pick<
  Process,
  'id' | 'name' | 'priority' | 'status' | 'startTime' | 'createdAt' | 'progress' | 'progressNote'
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
}: Process): ProcessView {
  return { id, name, priority, status, startTime, createdAt, progress, progressNote };
}
