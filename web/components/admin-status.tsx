// Process status for admin pages: polled every 10 seconds; while anything runs, actions wait.
// When the poll sees a process end (or start, or move on), the page's own data is reloaded, so
// its last run, counts and stream problems never stay as they were when the process began.
import { useRevalidator } from '@remix-run/react';
import { useEffect, useRef, useState } from 'react';
import { processesChanged, STATUS_PATH, type ProcessView } from '#web/lib/processes';
import { When } from './when';

export const STATUS_POLL_MS = 10_000;

/**
 * The active processes: the page's own list, kept current by polling the status endpoint. The
 * poll is a plain request, not a fetcher: the page's revalidation after news must not send the
 * poll again (one request per tick).
 */
export function useActiveProcesses(fromPage: ProcessView[]): ProcessView[] {
  const { revalidate } = useRevalidator();
  const [active, setActive] = useState(fromPage);
  const [polled, setPolled] = useState<ProcessView[]>();
  /** What the page's data last reflected, to tell whether a poll brings news. */
  const shown = useRef(fromPage);

  useEffect(() => {
    shown.current = fromPage;
    setActive(fromPage);
  }, [fromPage]);

  useEffect(() => {
    if (!polled) return;
    setActive(polled);
    if (processesChanged(shown.current, polled)) {
      shown.current = polled;
      revalidate();
    }
    // revalidate is a new function on every render; the poll's answer is what matters here
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [polled]);

  useEffect(() => {
    let stopped = false;
    const timer = setInterval(async () => {
      // A failed poll (offline, signed out) leaves the list as it was until the next tick.
      const response = await fetch(STATUS_PATH, { headers: { Accept: 'application/json' } }).catch(
        () => undefined,
      );
      if (stopped || !response?.ok) return;
      const body = (await response.json().catch(() => undefined)) as
        { processes?: ProcessView[] } | undefined;
      if (!stopped && body?.processes) setPolled(body.processes);
    }, STATUS_POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, []);
  return active;
}

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
            <ProcessLine process={process} />
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * 'Scoring articles: started 3 Jan 2026, 14:05 UTC, 40% done (4 of 10 chunks)', or, before a
 * worker took it, 'Importing articles: waiting to start (queued 3 Jan 2026, 14:05 UTC)'.
 */
function ProcessLine({ process }: { process: ProcessView }) {
  if (process.status === 'Queued' || !process.startTime) {
    return (
      <>
        {process.title}: waiting to start (queued <When iso={process.createdAt} />)
      </>
    );
  }
  const percent = Math.round((process.progress ?? 0) * 100);
  return (
    <>
      {process.title}: started <When iso={process.startTime} />,{' '}
      {percent > 0 ? `${percent}% done` : 'just started'}
      {process.progressNote ? ` (${process.progressNote})` : ''}
      {process.silent && (
        <>
          ; waiting for its worker, not heard from since <When iso={process.silent.since} />: the
          run starts again at <When iso={process.silent.takenOverAt} /> if it stays silent
        </>
      )}
    </>
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
