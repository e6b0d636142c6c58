// What the automations' last runs did: a line per run under each automation, and the tables of
// the score experiment, the last audience matching and the last prompt test.
import { parseOutput, runSummary, type RunView } from '#web/lib/run-summary';
import { When } from './when';

const STATUS_WORDS: Record<RunView['status'], string> = {
  Queued: 'waiting to start',
  Running: 'running',
  Success: 'done',
  Failed: 'failed',
};

/** 'Last run: 3 Jan 2026, 14:05 UTC, done.' and, under it, what the run did in sentences. */
export function LastRun({ run, label = 'Last run' }: { run?: RunView; label?: string }) {
  if (!run) return <p>{label}: never</p>;
  const summary = runSummary(run);
  return (
    <>
      <p>
        {label}:{' '}
        <strong>
          <When iso={run.startTime ?? run.createdAt} />
        </strong>
        , {STATUS_WORDS[run.status]}.
      </p>
      {summary && <p>{summary}</p>}
    </>
  );
}

const LABEL_COLUMNS = [
  'Very Relevant',
  'Quite Relevant',
  'Moderately Relevant',
  'Slightly Relevant',
  'Not Relevant',
  'Total',
] as const;

export function ExperimentTable({
  results,
}: {
  results: { matchingEntity: string; groupByMetricPerMatchingEntity: Record<string, number> }[];
}) {
  if (results.length === 0) return null;
  return (
    <>
      <h2 id="experiment-heading">Last score articles experiment</h2>
      <div className="table-scroll" tabIndex={0}>
        <table className="admin-table" aria-labelledby="experiment-heading">
          <thead>
            <tr>
              <th scope="col">Audience</th>
              {LABEL_COLUMNS.map((label) => (
                <th key={label} scope="col">
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {results.map((row) => (
              <tr key={row.matchingEntity}>
                <th scope="row">{row.matchingEntity}</th>
                {LABEL_COLUMNS.map((label) => (
                  <td key={label}>{row.groupByMetricPerMatchingEntity[label] ?? 0}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

export function SourceMatchTable({
  matches,
}: {
  matches: { streamId: string; streamName: string; label: string; score: number; reason: string }[];
}) {
  if (matches.length === 0) return null;
  return (
    <>
      <h2 id="matches-heading">Sources for the last matched audience</h2>
      <div className="table-scroll" tabIndex={0}>
        <table className="admin-table" aria-labelledby="matches-heading">
          <thead>
            <tr>
              <th scope="col">Source</th>
              <th scope="col">Label</th>
              <th scope="col">Score</th>
              <th scope="col">Reason</th>
            </tr>
          </thead>
          <tbody>
            {matches.map((match) => (
              <tr key={match.streamId}>
                <td>{match.streamName}</td>
                <td>{match.label}</td>
                <td>{match.score.toFixed(2)}</td>
                <td>{match.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

type PromptTestOutput = {
  audience?: string;
  results?: {
    promptId: string;
    title: string;
    labels: Record<string, number>;
    top: { articleId: string; title: string; label: string; score: number }[];
  }[];
};

export function PromptTestTable({ run }: { run?: RunView }) {
  const output = run?.status === 'Success' ? (parseOutput(run) as PromptTestOutput) : undefined;
  if (!output?.results?.length) return null;
  return (
    <>
      <h2 id="prompt-test-heading">Last prompt test: those who {output.audience}</h2>
      <div className="table-scroll" tabIndex={0}>
        <table className="admin-table" aria-labelledby="prompt-test-heading">
          <thead>
            <tr>
              <th scope="col">Prompt</th>
              {LABEL_COLUMNS.map((label) => (
                <th key={label} scope="col">
                  {label}
                </th>
              ))}
              <th scope="col">Top story</th>
            </tr>
          </thead>
          <tbody>
            {output.results.map((result) => (
              <tr key={result.promptId}>
                <th scope="row">{result.title}</th>
                {LABEL_COLUMNS.map((label) => (
                  <td key={label}>{result.labels[label] ?? 0}</td>
                ))}
                <td>
                  {result.top[0] ? `${result.top[0].title} (${result.top[0].label})` : 'None'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
