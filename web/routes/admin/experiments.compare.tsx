// Comparing runs side by side (`?runs=a&runs=b`): each run's model, prompt, tokens, cost and
// time; per matching entity the label distributions as charts with their tables; how far each
// pair agrees (share of identical labels, Cohen's kappa); the items they label differently; and
// all of it as CSV.
import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { isVisibleError } from '#core/common';
import * as Experiments from '#core/experiments';
import { chartSwatchClass } from '#web/components/chart-colours';
import { DistributionChart } from '#web/components/experiments/distribution-chart';
import { costText, durationText } from '#web/components/experiments/run-output';
import { requireAdmin } from '#web/lib/admin.server';
import { privatePageHeaders } from '#web/lib/cache';
import { experimentsHref } from '#web/lib/experiment-paths';

export const meta: MetaFunction = () => [{ title: 'Compare runs · Cluefeed admin' }];
export const headers = privatePageHeaders;

/** The runs the address names (at most 10, each id bounded). */
const runIdsOf = (query: URLSearchParams) =>
  query
    .getAll('runs')
    .slice(0, 10)
    .map((id) => id.slice(0, 100));

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const query = new URL(request.url).searchParams;
  // Nothing chosen yet is no mistake: the page says where runs are chosen.
  if (!query.has('runs')) return { empty: true as const };
  try {
    const comparison = await Experiments.compare(runIdsOf(query));
    const implementation = Experiments.implementation(comparison.implementation);
    return {
      comparison,
      implementationName: implementation?.name ?? comparison.implementation,
      back: experimentsHref({
        process: implementation?.processId,
        implementation: implementation?.id,
      }),
      csv: `/admin-panel/experiments/compare.csv?${new URLSearchParams(runIdsOf(query).map((id) => ['runs', id]))}`,
    };
  } catch (error) {
    if (!isVisibleError(error)) throw error;
    return data({ problem: error.message }, { status: error.status });
  }
}

const percent = (share: number | null) => (share === null ? '—' : `${Math.round(share * 100)}%`);
const kappaText = (kappa: number | null) => (kappa === null ? '—' : kappa.toFixed(3));

export default function CompareRuns() {
  const page = useLoaderData<typeof loader>();
  if ('empty' in page) {
    return (
      <section className="admin-page">
        <h1>Compare runs</h1>
        <p className="notice">
          Choose two or more successful runs of one implementation on the Experiments screen, then
          &apos;Compare runs&apos;.
        </p>
        <p>
          <Link to={experimentsHref({})}>Go to Experiments</Link>
        </p>
      </section>
    );
  }
  if ('problem' in page) {
    return (
      <section className="admin-page">
        <h1>Compare runs</h1>
        <p className="error-box" role="alert">
          {page.problem}
        </p>
        <p>
          <Link to={experimentsHref({})}>Back to Experiments</Link>
        </p>
      </section>
    );
  }
  const { comparison } = page;
  const names = new Map(comparison.runs.map((run) => [run.id, run.name]));
  return (
    <section className="admin-page compare">
      <h1>Compare runs</h1>
      <p>
        {page.implementationName}: {comparison.runs.length} runs.{' '}
        <Link to={page.back}>Back to the runs</Link> ·{' '}
        <a href={page.csv} download>
          Download CSV
        </a>
      </p>
      <h2 id="compare-runs-heading">Runs</h2>
      <div className="table-scroll" tabIndex={0}>
        <table className="admin-table" aria-labelledby="compare-runs-heading">
          <thead>
            <tr>
              <th scope="col">Run</th>
              <th scope="col">Model</th>
              <th scope="col">Prompt</th>
              <th scope="col">Items</th>
              <th scope="col">Tokens</th>
              <th scope="col">Cost</th>
              <th scope="col">Time</th>
            </tr>
          </thead>
          <tbody>
            {comparison.runs.map((run, index) => (
              <tr key={run.id}>
                <th scope="row">
                  <span className={chartSwatchClass(index)} aria-hidden="true" /> {run.name}
                </th>
                <td>{run.model.name}</td>
                <td>{run.prompt?.title ?? 'None'}</td>
                <td>{run.items}</td>
                <td>
                  {run.usage.inputTokens} in, {run.usage.outputTokens} out
                </td>
                <td>{costText(run.usage)}</td>
                <td>{durationText(run.durationMs)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <h2>Distributions</h2>
      {comparison.distributions.length === 0 ? (
        <p className="notice">These runs counted no labels.</p>
      ) : (
        comparison.distributions.map((distribution) => (
          <section key={distribution.matchingEntity} className="compare-entity">
            <h3>{distribution.matchingEntity}</h3>
            <DistributionChart
              entity={distribution.matchingEntity}
              labels={comparison.labels}
              runs={comparison.runs}
              perRun={distribution.perRun}
            />
          </section>
        ))
      )}

      <h2 id="agreement-heading">Agreement</h2>
      <div className="table-scroll" tabIndex={0}>
        <table className="admin-table" aria-labelledby="agreement-heading">
          <thead>
            <tr>
              <th scope="col">Runs</th>
              <th scope="col">Items both labelled</th>
              <th scope="col">Identical</th>
              <th scope="col">Share identical</th>
              <th scope="col">Cohen&apos;s kappa</th>
            </tr>
          </thead>
          <tbody>
            {comparison.agreement.map((pair) => (
              <tr key={`${pair.a}-${pair.b}`}>
                <th scope="row">
                  {names.get(pair.a)} and {names.get(pair.b)}
                </th>
                <td>{pair.shared}</td>
                <td>{pair.identical}</td>
                <td>{percent(pair.share)}</td>
                <td>{kappaText(pair.kappa)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <h2 id="differences-heading">Items labelled differently</h2>
      {comparison.differencesTotal === 0 ? (
        <p className="notice">The runs label every item alike.</p>
      ) : (
        <>
          {comparison.differencesTotal > comparison.differences.length && (
            <p>
              The first {comparison.differences.length} of {comparison.differencesTotal}; the CSV
              has them all.
            </p>
          )}
          <div className="table-scroll" tabIndex={0}>
            <table className="admin-table" aria-labelledby="differences-heading">
              <thead>
                <tr>
                  <th scope="col">Matching entity</th>
                  <th scope="col">Item</th>
                  {comparison.runs.map((run) => (
                    <th scope="col" key={run.id}>
                      {run.name}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {comparison.differences.map((difference) => (
                  <tr key={`${difference.matchingEntity}-${difference.item}`}>
                    <td>{difference.matchingEntity}</td>
                    <td>{difference.item}</td>
                    {comparison.runs.map((run) => (
                      <td key={run.id}>{difference.perRun[run.id] ?? '—'}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
