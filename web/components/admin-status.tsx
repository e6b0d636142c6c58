// Process status for admin pages: polled every 10 seconds; while anything runs, actions wait.
import { useFetcher } from '@remix-run/react';
import { useEffect } from 'react';
import type { ProcessView } from '#web/lib/processes';

export const STATUS_POLL_MS = 10_000;

export function useActiveProcesses(initial: ProcessView[]): ProcessView[] {
  const fetcher = useFetcher<{ processes: ProcessView[] }>();
  useEffect(() => {
    const timer = setInterval(() => fetcher.load('/admin-panel/status'), STATUS_POLL_MS);
    return () => clearInterval(timer);
    // fetcher.load is stable for the life of the fetcher
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return fetcher.data?.processes ?? initial;
}

const time = (iso?: string) =>
  iso ? new Date(iso).toLocaleString('en-GB', { timeZone: 'UTC' }) + ' UTC' : 'not started';

export function RunningNotice({ processes }: { processes: ProcessView[] }) {
  if (processes.length === 0) return null;
  return (
    <div className="notice notice--running" role="status">
      <p>
        <strong>Actions are disabled while these processes run:</strong>
      </p>
      <ul>
        {processes.map((process) => (
          <li key={process.id}>
            {process.name} — {process.status}, started{' '}
            {time(process.startTime ?? process.createdAt)},{' '}
            {Math.round((process.progress ?? 0) * 100)}%
            {process.progressNote ? ` (${process.progressNote})` : ''}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function ErrorBox({ message }: { message?: string }) {
  useEffect(() => {
    if (message) window.scrollTo(0, 0);
  }, [message]);
  if (!message) return null;
  return (
    <div className="error-box" role="alert">
      {message}
    </div>
  );
}
