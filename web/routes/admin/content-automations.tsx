// Content Automations: import, score, match sources, pick content, test prompts, clear a table.
// Each action queues a job; while any job runs the actions are disabled and a notice lists them,
// and each automation shows what its last run did.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import * as Articles from '#core/articles';
import * as Automations from '#core/automations';
import * as Audiences from '#core/audiences';
import * as Jobs from '#core/jobs';
import * as Scoring from '#core/scoring';
import * as SourceMatching from '#core/source-matching';
import * as Streams from '#core/streams';
import { ErrorBox, RunningNotice, useActiveProcesses } from '#web/components/admin-status';
import { AudienceNameAssessment } from '#web/components/audience-name-assessment';
import { requireAdmin } from '#web/lib/admin.server';
import { privatePageHeaders } from '#web/lib/cache';
import { processView, runView } from '#web/lib/processes';
import { parseOutput, runSummary, type RunView } from '#web/lib/run-summary';
import { automationAction } from './content-automations.server';

export const meta: MetaFunction = () => [{ title: 'Content Automations · Cluefeed admin' }];
export const headers = privatePageHeaders;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const [active, lastImport, streams, articles, articleCount, audiences, runs] = await Promise.all([
    Jobs.active(),
    Jobs.lastRun(Automations.importArticles.name),
    Streams.list(),
    Articles.latest(20),
    Articles.count(),
    Audiences.list(),
    lastRuns(),
  ]);
  const titles = new Map(audiences.map((audience) => [audience.id, audience.title]));
  const [bestScores, sourceMatches] = await Promise.all([
    Promise.all(articles.map((article) => bestScore(article.id, titles))),
    matchesOfLastRun(runs.audienceMatching),
  ]);
  return {
    active: active.map(processView),
    lastImport: lastImport && processView(lastImport),
    streams: streams.map(({ id, name, url, lastImportAt, lastError, backoffUntil }) => ({
      id,
      name,
      url,
      lastImportAt,
      lastError,
      backoffUntil,
    })),
    articles: articles.map(({ id, title, source, publishedAt, canonicalUrl }, index) => ({
      id,
      title,
      source,
      publishedAt,
      canonicalUrl,
      best: bestScores[index],
    })),
    articleCount,
    collections: Object.entries(Automations.COLLECTIONS).map(([id, { name }]) => ({ id, name })),
    audiences: audiences.map(({ id, title, state }) => ({ id, title, state })),
    runs: Object.fromEntries(
      Object.entries(runs).map(([key, run]) => [key, run && runView(run)]),
    ) as Record<keyof typeof runs, RunView | undefined>,
    experiment: runs.experiment
      ? Automations.experimentResults(
          parseOutput(runs.experiment) as Record<string, number>,
          titles,
        )
      : [],
    sourceMatches,
  };
}

/** The last run of each automation the page reports on: one small Query each. */
async function lastRuns() {
  const [score, experiment, populateMatching, audienceMatching, promptTesting, pickBest, send] =
    await Promise.all(
      [
        Automations.scoreArticles,
        Automations.scoreArticlesExperiment,
        Automations.populateSourceMatching,
        Automations.audienceMatching,
        Automations.promptTesting,
        Automations.pickBestContent,
        Automations.sendNewsletters,
      ].map((job) => Jobs.lastRun(job.name)),
    );
  return { score, experiment, populateMatching, audienceMatching, promptTesting, pickBest, send };
}

/** An article's best score, for the latest articles table: one bounded Query. */
async function bestScore(articleId: string, titles: ReadonlyMap<string, string>) {
  const best = await Scoring.bestFor(articleId);
  return best
    ? { label: best.label, audience: titles.get(best.matchingId) ?? 'a removed audience' }
    : undefined;
}

/** The sources the last audience-matching run rated for its audience, best first. */
async function matchesOfLastRun(run?: Jobs.Process) {
  if (!run) return [];
  const { audienceId } = JSON.parse(run.input) as { audienceId?: string };
  if (!audienceId) return [];
  return (await SourceMatching.forAudience(audienceId)).map(
    ({ streamId, streamName, label, score, reason, headlines }) => ({
      streamId,
      streamName,
      label,
      score,
      reason,
      headlines,
    }),
  );
}

export const action = ({ request }: ActionFunctionArgs) => automationAction(request);

const when = (iso?: string) => (iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : 'never');

export default function ContentAutomations() {
  const page = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const active = useActiveProcesses(page.active);
  const busy = active.length > 0 || navigation.state !== 'idle';

  return (
    <section className="admin-page">
      <h1>Content Automations</h1>
      <ErrorBox message={result && 'error' in result ? result.error : undefined} />
      {result && 'message' in result && (
        <p className="success-box" role="status">
          {result.message}
        </p>
      )}
      <RunningNotice processes={active} />

      <div className="automations">
        <Form method="post" className="automation">
          <h2>Add stream and import articles</h2>
          <input type="hidden" name="intent" value="add-stream" />
          <label htmlFor="streamName">Stream name</label>
          <input id="streamName" name="streamName" required maxLength={100} />
          <label htmlFor="streamUrl">Feed URL</label>
          <input id="streamUrl" name="streamUrl" type="url" required />
          <button type="submit" className="button" disabled={busy}>
            Add stream and import articles
          </button>
        </Form>

        <Form method="post" className="automation">
          <h2>Import articles</h2>
          <input type="hidden" name="intent" value="import" />
          <p>
            Last import run:{' '}
            <strong>{when(page.lastImport?.startTime ?? page.lastImport?.createdAt)}</strong>
            {page.lastImport && ` (${page.lastImport.status})`}
          </p>
          <button type="submit" className="button" disabled={busy}>
            Import articles
          </button>
        </Form>

        <Form method="post" className="automation">
          <h2>Score unscored articles</h2>
          <input type="hidden" name="intent" value="score" />
          <p>Every new article against every active audience, after each import and on demand.</p>
          <LastRun run={page.runs.score} />
          <button type="submit" className="button" disabled={busy}>
            Score unscored articles
          </button>
        </Form>

        <Form method="post" className="automation">
          <h2>Score articles experiment</h2>
          <input type="hidden" name="intent" value="score-experiment" />
          <label htmlFor="articleLimit">Article limit</label>
          <input
            id="articleLimit"
            name="articleLimit"
            type="number"
            min={1}
            max={500}
            step={1}
            defaultValue={50}
          />
          <LastRun run={page.runs.experiment} />
          <button type="submit" className="button" disabled={busy}>
            Score articles experiment
          </button>
        </Form>

        <Form method="post" className="automation">
          <h2>Populate source and audience matching</h2>
          <input type="hidden" name="intent" value="populate-matching" />
          <p>Rates each source not yet matched against every active audience.</p>
          <LastRun run={page.runs.populateMatching} />
          <button type="submit" className="button" disabled={busy}>
            Populate source and audience matching
          </button>
        </Form>

        <Form method="post" className="automation">
          <h2>Pick best content for descriptors</h2>
          <input type="hidden" name="intent" value="pick-best" />
          <p>
            Per active audience, the best recent scored stories become picks and a content card on
            its public page.
          </p>
          <LastRun run={page.runs.pickBest} />
          <button type="submit" className="button" disabled={busy}>
            Pick best content for descriptors
          </button>
        </Form>

        <Form method="post" className="automation">
          <h2>Send newsletters</h2>
          <input type="hidden" name="intent" value="send-newsletters" />
          <p>
            Each confirmed subscriber gets one issue built from the picks of the audiences they
            follow: today&apos;s daily or this week&apos;s weekly issue, with the picks since the
            last one. Sending again in the same day or week reaches only those who have not had it.
          </p>
          <label htmlFor="newsletterFrequency">Frequency</label>
          <select id="newsletterFrequency" name="frequency" defaultValue="daily">
            <option value="daily">Daily (today&apos;s issue)</option>
            <option value="weekly">Weekly (this week&apos;s issue)</option>
          </select>
          <LastRun run={page.runs.send} />
          <button type="submit" className="button" disabled={busy}>
            Send newsletters
          </button>
        </Form>

        <Form method="post" className="automation">
          <h2>Audience matching</h2>
          <input type="hidden" name="intent" value="audience-matching" />
          <AudienceSelect id="audienceMatchingAudience" audiences={page.audiences} />
          <LastRun run={page.runs.audienceMatching} />
          <button type="submit" className="button" disabled={busy}>
            Audience matching
          </button>
        </Form>

        <Form method="post" className="automation">
          <h2>Prompt testing</h2>
          <input type="hidden" name="intent" value="prompt-testing" />
          <AudienceSelect id="promptTestingAudience" audiences={page.audiences} />
          <LastRun run={page.runs.promptTesting} />
          <button type="submit" className="button" disabled={busy}>
            Prompt testing
          </button>
        </Form>

        <Form method="post" className="automation">
          <h2>Clear table</h2>
          <input type="hidden" name="intent" value="clear" />
          <label htmlFor="collection">Table</label>
          <select id="collection" name="collection" required defaultValue="">
            <option value="" disabled>
              Choose a table
            </option>
            {page.collections.map((collection) => (
              <option key={collection.id} value={collection.id}>
                {collection.name}
              </option>
            ))}
          </select>
          <label className="checkbox">
            <input type="checkbox" name="confirm" value="yes" required /> Yes, delete every item in
            this table
          </label>
          <button type="submit" className="button button--danger" disabled={busy}>
            Clear table
          </button>
        </Form>
        <AudienceNameAssessment disabled={busy} />
      </div>

      <ExperimentTable results={page.experiment} />
      <SourceMatchTable matches={page.sourceMatches} />
      <PromptTestTable run={page.runs.promptTesting} />

      <h2 id="streams-heading">Streams ({page.streams.length})</h2>
      <table className="admin-table" aria-labelledby="streams-heading">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">URL</th>
            <th scope="col">Last import</th>
            <th scope="col">Problem</th>
          </tr>
        </thead>
        <tbody>
          {page.streams.map((stream) => (
            <tr key={stream.id}>
              <td>{stream.name}</td>
              <td className="admin-table__url">{stream.url}</td>
              <td>{when(stream.lastImportAt)}</td>
              <td>
                {stream.lastError ?? ''}
                {stream.backoffUntil && stream.backoffUntil > new Date().toISOString()
                  ? ` (paused until ${when(stream.backoffUntil)})`
                  : ''}
              </td>
            </tr>
          ))}
        </tbody>
      </table>

      <h2 id="articles-heading">Latest articles ({page.articleCount} in all)</h2>
      <table className="admin-table" aria-labelledby="articles-heading">
        <thead>
          <tr>
            <th scope="col">Published</th>
            <th scope="col">Title</th>
            <th scope="col">Source</th>
            <th scope="col">Best match</th>
          </tr>
        </thead>
        <tbody>
          {page.articles.map((article) => (
            <tr key={article.id}>
              <td>{when(article.publishedAt)}</td>
              <td>
                <Link to={`/admin-panel/articles/${article.id}`}>{article.title}</Link>
              </td>
              <td>{article.source}</td>
              <td>
                {article.best
                  ? `${article.best.label} for those who ${article.best.audience}`
                  : 'Not scored yet'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function LastRun({ run }: { run?: RunView }) {
  if (!run) return <p>Last run: never</p>;
  const summary = runSummary(run);
  return (
    <p>
      Last run: <strong>{when(run.startTime ?? run.createdAt)}</strong> ({run.status})
      {summary && <span className="automation__summary">{summary}</span>}
    </p>
  );
}

function AudienceSelect({
  id,
  audiences,
}: {
  id: string;
  audiences: { id: string; title: string; state: string }[];
}) {
  return (
    <>
      <label htmlFor={id}>Audience</label>
      {/* Not `required`: without a choice the server answers the spec's message. */}
      <select id={id} name="audienceId" defaultValue="">
        <option value="">Select an audience</option>
        {audiences.map((audience) => (
          <option key={audience.id} value={audience.id}>
            {audience.title}
            {audience.state === 'upcoming' ? ' (upcoming)' : ''}
          </option>
        ))}
      </select>
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

function ExperimentTable({
  results,
}: {
  results: { matchingEntity: string; groupByMetricPerMatchingEntity: Record<string, number> }[];
}) {
  if (results.length === 0) return null;
  return (
    <>
      <h2 id="experiment-heading">Last score articles experiment</h2>
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
    </>
  );
}

function SourceMatchTable({
  matches,
}: {
  matches: { streamId: string; streamName: string; label: string; score: number; reason: string }[];
}) {
  if (matches.length === 0) return null;
  return (
    <>
      <h2 id="matches-heading">Sources for the last matched audience</h2>
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

function PromptTestTable({ run }: { run?: RunView }) {
  const output = run?.status === 'Success' ? (parseOutput(run) as PromptTestOutput) : undefined;
  if (!output?.results?.length) return null;
  return (
    <>
      <h2 id="prompt-test-heading">Last prompt test: those who {output.audience}</h2>
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
              <td>{result.top[0] ? `${result.top[0].title} (${result.top[0].label})` : 'None'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
