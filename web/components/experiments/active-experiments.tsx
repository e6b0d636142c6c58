// The Experiments screen's panel of active experiment processes (Name, Priority, Started,
// Status). While the screen is open its data is reloaded every 10 seconds (the spec's status
// polling); leaving the screen stops it.
import { useNavigation, useRevalidator } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import { STATUS_POLL_MS } from '#web/components/admin-status';
import { When } from '#web/components/when';

export type ActiveExperiment = {
  id: string;
  name: string;
  priority: number | string;
  startTime?: string;
  status: string;
};

/** Reloads the page's data every `ms` while it is shown and nothing else is loading. */
export function useReloadEvery(ms: number) {
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  // The interval reads the latest states without being restarted by them.
  const busy = useRef(false);
  busy.current = revalidator.state !== 'idle' || navigation.state !== 'idle';
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  useEffect(() => {
    const timer = setInterval(() => {
      if (!busy.current && document.visibilityState === 'visible') revalidate.current();
    }, ms);
    return () => clearInterval(timer);
  }, [ms]);
}

export function ActiveExperiments({ processes }: { processes: ActiveExperiment[] }) {
  useReloadEvery(STATUS_POLL_MS);
  return (
    <section className="experiments-panel" aria-labelledby="active-experiments-heading">
      <h2 id="active-experiments-heading">Active experiment processes</h2>
      {processes.length === 0 ? (
        <p className="notice">No experiment process is running.</p>
      ) : (
        <div className="table-scroll" tabIndex={0}>
          <table className="admin-table" aria-labelledby="active-experiments-heading">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Priority</th>
                <th scope="col">Started</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {processes.map((process) => (
                <tr key={process.id}>
                  <td>{process.name}</td>
                  <td>{process.priority}</td>
                  <td>
                    <When iso={process.startTime} otherwise="Not yet" />
                  </td>
                  <td>
                    <RunStatus status={process.status} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

const BADGE: Record<string, string> = {
  Success: 'badge--success',
  Running: 'badge--warning',
  Failed: 'badge--error',
  Queued: 'badge--neutral',
};

/** The spec's status badges: Success green, Running warning, Failed error, Queued neutral. */
export function RunStatus({ status }: { status?: string }) {
  if (!status) return <span className="badge badge--none">Not executed</span>;
  return <span className={`badge ${BADGE[status] ?? 'badge--neutral'}`}>{status}</span>;
}
