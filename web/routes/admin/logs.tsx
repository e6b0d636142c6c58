// Monitor Logs: a day's log lines (default the last 1000). 'Watch logs' refreshes every second
// until 'Stop watching logs', an empty answer, or leaving the page. Enter is ignored in the inputs.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useFetcher, useLoaderData } from '@remix-run/react';
import { useEffect, useState, type KeyboardEvent } from 'react';
import { When } from '#web/components/when';
import { privatePageHeaders } from '#web/lib/cache';
import { loadLines } from './logs.server';

export const meta: MetaFunction = () => [{ title: 'Monitor Logs · Cluefeed admin' }];
export const headers = privatePageHeaders;

export const WATCH_EVERY_MS = 1_000;

export const loader = ({ request }: LoaderFunctionArgs) => loadLines(request);

const ignoreEnter = (event: KeyboardEvent<HTMLInputElement>) => {
  if (event.key === 'Enter') event.preventDefault();
};

export default function MonitorLogs() {
  const initial = useLoaderData<typeof loader>();
  const fetcher = useFetcher<typeof loader>();
  const [date, setDate] = useState(initial.date);
  const [lines, setLines] = useState(String(initial.lines));
  const [watching, setWatching] = useState(false);
  const shown = fetcher.data ?? initial;
  const query = `date=${encodeURIComponent(date)}&lines=${encodeURIComponent(lines)}`;

  useEffect(() => {
    if (!watching) return;
    fetcher.load(`/admin-panel/logs/lines?${query}`);
    const timer = setInterval(
      () => fetcher.load(`/admin-panel/logs/lines?${query}`),
      WATCH_EVERY_MS,
    );
    return () => clearInterval(timer);
    // fetcher.load is stable; the effect restarts only when watching or the query changes
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [watching, query]);

  useEffect(() => {
    if (watching && fetcher.state === 'idle' && fetcher.data && fetcher.data.entries.length === 0)
      setWatching(false);
  }, [watching, fetcher.state, fetcher.data]);

  return (
    <section className="admin-page">
      <h1>Monitor Logs</h1>
      <form className="log-controls" method="get" onSubmit={(event) => event.preventDefault()}>
        <label htmlFor="log-date">Date</label>
        <input
          id="log-date"
          type="date"
          name="date"
          value={date}
          onChange={(e) => setDate(e.target.value)}
          onKeyDown={ignoreEnter}
        />
        <label htmlFor="log-lines">Number of lines</label>
        <input
          id="log-lines"
          type="number"
          name="lines"
          min={1}
          value={lines}
          onChange={(e) => setLines(e.target.value)}
          onKeyDown={ignoreEnter}
        />
        {watching ? (
          <button type="button" className="button" onClick={() => setWatching(false)}>
            Stop watching logs
          </button>
        ) : (
          <button type="button" className="button" onClick={() => setWatching(true)}>
            Watch logs
          </button>
        )}
      </form>
      {shown.entries.length === 0 ? (
        <p className="notice">No logs for the selected date</p>
      ) : (
        <ol className="log-lines" aria-live={watching ? 'polite' : 'off'}>
          {shown.entries.map((entry) => (
            <li key={entry.id} className={`log-line log-line--${entry.level}`}>
              <When iso={entry.timestamp} seconds />
              <span className="log-line__level">{entry.level}</span>
              <span className="log-line__message">{entry.message}</span>
              {entry.fields && <code className="log-line__fields">{entry.fields}</code>}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
