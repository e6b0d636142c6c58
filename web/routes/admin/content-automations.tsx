// Content Automations: add a stream and import it, import every stream, clear a table. Each
// action queues a job; while any job runs the actions are disabled and a notice lists them.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import * as Articles from '#core/articles';
import * as Automations from '#core/automations';
import * as Jobs from '#core/jobs';
import * as Streams from '#core/streams';
import { ErrorBox, RunningNotice, useActiveProcesses } from '#web/components/admin-status';
import { AudienceNameAssessment } from '#web/components/audience-name-assessment';
import { requireAdmin } from '#web/lib/admin.server';
import { privatePageHeaders } from '#web/lib/cache';
import { processView } from '#web/lib/processes';
import { automationAction } from './content-automations.server';

export const meta: MetaFunction = () => [{ title: 'Content Automations · Cluefeed admin' }];
export const headers = privatePageHeaders;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const [active, lastImport, streams, articles, articleCount] = await Promise.all([
    Jobs.active(),
    Jobs.lastRun(Automations.importArticles.name),
    Streams.list(),
    Articles.latest(20),
    Articles.count(),
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
    articles: articles.map(({ id, title, source, publishedAt, canonicalUrl }) => ({
      id,
      title,
      source,
      publishedAt,
      canonicalUrl,
    })),
    articleCount,
    collections: Object.entries(Automations.COLLECTIONS).map(([id, { name }]) => ({ id, name })),
  };
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
          </tr>
        </thead>
        <tbody>
          {page.articles.map((article) => (
            <tr key={article.id}>
              <td>{when(article.publishedAt)}</td>
              <td>
                <a href={article.canonicalUrl} rel="noopener noreferrer">
                  {article.title}
                </a>
              </td>
              <td>{article.source}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
