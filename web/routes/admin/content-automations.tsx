// Content Automations: import, score, match sources, pick content, test prompts, clear a table.
// Each action queues a job; while any job runs the actions are disabled and a notice lists them,
// and each automation shows what its last run did. Production scoring is promoted here too (not a
// job, so not held up by one).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { ErrorBox, RunningNotice, useActiveProcesses } from '#web/components/admin-status';
import { AudienceNameAssessment } from '#web/components/audience-name-assessment';
import {
  ExperimentTable,
  LastRun,
  PromptTestTable,
  SourceMatchTable,
} from '#web/components/automation-results';
import { PromoteDialog, ProductionScoring } from '#web/components/production-scoring';
import { RemoveStreamDialog, StreamsTable } from '#web/components/streams-table';
import { When } from '#web/components/when';
import { privatePageHeaders } from '#web/lib/cache';
import { automationAction, automationsLoader } from './content-automations.server';

export const meta: MetaFunction = () => [{ title: 'Content Automations · Cluefeed admin' }];
export const headers = privatePageHeaders;

/** Where the page's stream and promote forms go (the component's own address; a .server module
 * is not in the browser's bundle). */
const PATH = '/admin-panel/content-automations';

export const loader = ({ request }: LoaderFunctionArgs) => automationsLoader(request);
export const action = ({ request }: ActionFunctionArgs) => automationAction(request);

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
          <LastRun run={page.lastImport} label="Last import run" />
          <button type="submit" className="button" disabled={busy}>
            Import articles
          </button>
        </Form>

        <ProductionScoring production={page.production} choices={page.choices} path={PATH} />

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

      <StreamsTable streams={page.streams} path={PATH} />
      {page.removing && <RemoveStreamDialog stream={page.removing} path={PATH} />}
      {page.promoting && (
        <PromoteDialog production={page.production} promoting={page.promoting} path={PATH} />
      )}

      <h2 id="articles-heading">Latest articles ({page.articleCount} in all)</h2>
      <div className="table-scroll" tabIndex={0}>
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
                <td>
                  <When iso={article.publishedAt} />
                </td>
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
      </div>
    </section>
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
