// One issue or campaign: its window, audiences, status and send time, and its figures, reloaded
// every 2 seconds while it waits or sends (and while e-mails of it are still queued). A campaign
// that has not started can be cancelled.
import {
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useRevalidator } from '@remix-run/react';
import { useEffect } from 'react';
import * as Audiences from '#core/audiences';
import { VisibleError } from '#core/common';
import * as Newsletter from '#core/newsletter';
import { ErrorBox } from '#web/components/admin-status';
import { When } from '#web/components/when';
import { requireAdmin } from '#web/lib/admin.server';
import { readForm } from '#web/lib/api.server';
import { notFound, privatePageHeaders } from '#web/lib/cache';
import { refusal } from '#web/lib/refusal.server';
import { ISSUE_STATUS, issueWindow, skippedBreakdown } from '#web/lib/campaign-view';

export const meta: MetaFunction = () => [{ title: 'Campaign · Cluefeed admin' }];
export const headers = privatePageHeaders;

/** While the issue's figures can still move, the page reloads its data this often. */
export const LIVE_REFRESH_MS = 2_000;

/** A campaign's ULID, or a period issue's id (`daily-2026-11-23`, `weekly-2026-W48`). */
const ISSUE_ID = /^(?:[0-9A-Z]{26}|daily-\d{4}-\d{2}-\d{2}|weekly-\d{4}-W\d{2})$/;

async function issueOf(params: { id?: string }) {
  const id = params.id ?? '';
  const issue = ISSUE_ID.test(id) ? await Newsletter.issueById(id) : undefined;
  if (!issue) throw notFound();
  return issue;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const issue = await issueOf(params);
  const audiences = await Audiences.byIds(issue.audienceIds);
  const titles = new Map(audiences.map((audience) => [audience.id, audience.title]));
  return {
    id: issue.id,
    origin: issue.origin,
    frequency: issue.frequency,
    window: issueWindow(issue),
    audiences: issue.audienceIds.map((id) => titles.get(id) ?? 'a removed audience'),
    status: issue.status,
    sendAt: issue.sendAt,
    startedAt: issue.startedAt,
    doneAt: issue.doneAt,
    /** Sent by a 'Send newsletters' run (a schedule's issue, or a campaign once it started). */
    byProcess: Boolean(issue.processId),
    figures: {
      recipients: issue.recipients ?? 0,
      queued: issue.queued ?? 0,
      sent: issue.sent ?? 0,
      failed: issue.failed ?? 0,
      skipped: skippedBreakdown(issue, issue.skipped ?? 0),
      unsubscribes: issue.unsubscribes ?? 0,
      clicks: issue.clicks ?? 0,
      uniqueClicks: issue.uniqueClicks ?? 0,
    },
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  await requireAdmin(request);
  const issue = await issueOf(params);
  try {
    const form = await readForm(request);
    if (form.get('intent') !== 'cancel')
      throw new VisibleError('input.invalid', 'This action is not known', 400);
    if (!(await Newsletter.cancelCampaign(issue.id)))
      throw new VisibleError(
        'campaign.not_cancellable',
        'This campaign has already started or ended: it can no longer be cancelled',
        409,
      );
    return redirect(`/admin-panel/setup-campaign/${issue.id}`);
  } catch (error) {
    return refusal(error, {});
  }
}

export default function CampaignIssue() {
  const issue = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { revalidate, state } = useRevalidator();
  const live =
    issue.status === 'scheduled' || issue.status === 'sending' || issue.figures.queued > 0;
  useEffect(() => {
    if (!live || state !== 'idle') return;
    const timer = setTimeout(revalidate, LIVE_REFRESH_MS);
    return () => clearTimeout(timer);
  }, [live, state, revalidate, issue]);
  const { figures } = issue;

  return (
    <section className="admin-page">
      <p>
        <Link to="/admin-panel/setup-campaign">Back to Setup campaign</Link>
      </p>
      <h1>{issue.origin === 'campaign' ? 'Campaign' : `${issue.frequency} issue`}</h1>
      <ErrorBox message={result?.error} />
      <dl className="campaign-facts">
        <dt>Status</dt>
        <dd>{ISSUE_STATUS[issue.status] ?? issue.status}</dd>
        <dt>Content window</dt>
        <dd>{issue.window}</dd>
        <dt>Frequency</dt>
        <dd>{issue.frequency}</dd>
        <dt>Audiences</dt>
        <dd>{issue.audiences.map((title) => `those who ${title}`).join('; ')}</dd>
        <dt>Send time</dt>
        <dd>
          <When iso={issue.startedAt ?? issue.sendAt} otherwise="not set" />
        </dd>
        {issue.doneAt && (
          <>
            <dt>{issue.status === 'cancelled' ? 'Cancelled' : 'Done'}</dt>
            <dd>
              <When iso={issue.doneAt} />
            </dd>
          </>
        )}
        {issue.byProcess && (
          <>
            <dt>Sent by</dt>
            <dd>
              A &apos;Send newsletters&apos; run (its last runs are on{' '}
              <Link to="/admin-panel/content-automations">Content Automations</Link>)
            </dd>
          </>
        )}
      </dl>
      {live && (
        <p className="notice" role="status">
          Updating live every 2 seconds
        </p>
      )}

      <h2 id="figures-heading">Figures</h2>
      <div className="table-scroll" tabIndex={0}>
        <table className="admin-table campaign-figures" aria-labelledby="figures-heading">
          <tbody>
            <Figure name="Recipients" value={figures.recipients} />
            <Figure name="Queued" value={figures.queued} />
            <Figure name="Sent" value={figures.sent} />
            <Figure name="Failed" value={figures.failed} />
            <Figure name="Skipped" value={figures.skipped} />
            <Figure name="Unsubscribes after the issue" value={figures.unsubscribes} />
            <Figure name="Clicks" value={figures.clicks} />
            <Figure name="Unique clicks" value={figures.uniqueClicks} />
          </tbody>
        </table>
      </div>

      {issue.status === 'scheduled' && (
        <Form method="post">
          <input type="hidden" name="intent" value="cancel" />
          <button type="submit" className="button button--danger">
            Cancel campaign
          </button>
        </Form>
      )}
    </section>
  );
}

function Figure({ name, value }: { name: string; value: number | string }) {
  return (
    <tr>
      <th scope="row">{name}</th>
      <td>{value}</td>
    </tr>
  );
}
