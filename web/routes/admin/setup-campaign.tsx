// Setup campaign: choose a content window, audiences and a frequency; preview the issue as any
// subscriber would get it, send it as a test, then send it now or schedule it. Below, the recent
// issues and campaigns with their figures. A plain form: every button works without JavaScript.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import type * as Newsletter from '#core/newsletter';
import { ErrorBox } from '#web/components/admin-status';
import { When } from '#web/components/when';
import { privatePageHeaders } from '#web/lib/cache';
import { ISSUE_ORIGIN, ISSUE_STATUS, skipReason } from '#web/lib/campaign-view';
import { campaignAction, campaignLoader, type CampaignForm } from './setup-campaign.server';

export const meta: MetaFunction = () => [{ title: 'Setup campaign · Cluefeed admin' }];
export const headers = privatePageHeaders;

export const loader = ({ request }: LoaderFunctionArgs) => campaignLoader(request);
export const action = ({ request }: ActionFunctionArgs) => campaignAction(request);

export default function SetupCampaign() {
  const page = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== 'idle';
  // The operator's own inputs, kept after any answer; the campaign id stays the form's first one.
  const values: CampaignForm = result?.values ?? {
    id: page.id,
    from: page.from,
    to: page.to,
    frequency: 'daily',
    audienceIds: [],
    subscriberEmail: '',
    testTo: '',
    sendAt: '',
  };
  const error = result && 'error' in result ? result.error : undefined;
  const chosen = new Set(values.audienceIds);
  // A fresh key per answer resets the uncontrolled inputs to the values the server echoed.
  const formKey = JSON.stringify(values);

  return (
    <section className="admin-page">
      <h1>Setup campaign</h1>
      <ErrorBox message={error} />
      {result && 'message' in result && (
        <p className="success-box" role="status">
          {result.message}
        </p>
      )}

      <Form method="post" className="campaign-form" key={formKey}>
        <input type="hidden" name="id" value={values.id || page.id} />
        <fieldset>
          <legend>Content window (UTC)</legend>
          <label htmlFor="from">From (UTC)</label>
          <input id="from" name="from" type="datetime-local" defaultValue={values.from} />
          <label htmlFor="to">To (UTC)</label>
          <input id="to" name="to" type="datetime-local" defaultValue={values.to} />
          <label htmlFor="frequency">Frequency</label>
          <select id="frequency" name="frequency" defaultValue={values.frequency}>
            <option value="daily">Daily</option>
            <option value="weekly">Weekly</option>
          </select>
        </fieldset>

        <fieldset>
          <legend>Audiences</legend>
          {page.audiences.length === 0 && <p className="notice">No active audiences yet.</p>}
          {page.audiences.map((audience) => (
            <label key={audience.id} className="checkbox">
              <input
                type="checkbox"
                name="audienceId"
                value={audience.id}
                defaultChecked={chosen.has(audience.id)}
              />
              Those who {audience.title} ({audience.frequency})
            </label>
          ))}
        </fieldset>

        <fieldset>
          <legend>Preview as subscriber</legend>
          <label htmlFor="subscriberEmail">Subscriber's e-mail address</label>
          <input
            id="subscriberEmail"
            name="subscriberEmail"
            type="email"
            defaultValue={values.subscriberEmail}
          />
          <button
            type="submit"
            className="button"
            name="intent"
            value="campaign-preview"
            disabled={busy}
          >
            Preview
          </button>
          <label htmlFor="testTo">Send the test to</label>
          <input id="testTo" name="testTo" type="email" defaultValue={values.testTo} />
          <button type="submit" className="button" name="intent" value="send-test" disabled={busy}>
            Send test
          </button>
        </fieldset>

        <fieldset>
          <legend>Send</legend>
          <label htmlFor="sendAt">Send at (UTC)</label>
          <input
            id="sendAt"
            name="sendAt"
            type="datetime-local"
            defaultValue={values.sendAt}
            aria-describedby="sendAt-hint"
          />
          <p id="sendAt-hint" className="hint">
            Leave empty to send now.
          </p>
          <button
            type="submit"
            className="button"
            name="intent"
            value="campaign-schedule"
            disabled={busy}
          >
            Schedule campaign
          </button>
        </fieldset>
      </Form>

      {result && 'preview' in result && result.preview && (
        <Preview values={values} preview={result.preview} />
      )}

      <h2 id="issues-heading">Recent issues and campaigns</h2>
      {page.issues.length === 0 ? (
        <p className="notice">No issues yet.</p>
      ) : (
        <div className="table-scroll" tabIndex={0}>
          <table className="admin-table" aria-labelledby="issues-heading">
            <thead>
              <tr>
                <th scope="col">Created</th>
                <th scope="col">Origin</th>
                <th scope="col">Frequency</th>
                <th scope="col">Window</th>
                <th scope="col">Status</th>
                <th scope="col">Recipients</th>
                <th scope="col">Sent</th>
                <th scope="col">Failed</th>
                <th scope="col">Skipped</th>
                <th scope="col">Unsubscribes</th>
                <th scope="col">Clicks (unique)</th>
              </tr>
            </thead>
            <tbody>
              {page.issues.map((issue) => (
                <tr key={issue.id}>
                  <td>
                    <Link to={`/admin-panel/setup-campaign/${issue.id}`}>
                      <When iso={issue.createdAt} />
                    </Link>
                  </td>
                  <td>{ISSUE_ORIGIN[issue.origin ?? 'schedule']}</td>
                  <td>{issue.frequency}</td>
                  <td>{issue.window}</td>
                  <td>{ISSUE_STATUS[issue.status] ?? issue.status}</td>
                  <td>{issue.recipients}</td>
                  <td>{issue.sent}</td>
                  <td>{issue.failed}</td>
                  <td>{issue.skipped}</td>
                  <td>{issue.unsubscribes}</td>
                  <td>
                    {issue.clicks} ({issue.uniqueClicks})
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

function Preview({
  values,
  preview,
}: {
  values: CampaignForm;
  preview: Newsletter.CampaignPreview;
}) {
  const { email, subscriber, skipped } = preview;
  const query = new URLSearchParams([
    ['from', values.from],
    ['to', values.to],
    ['frequency', values.frequency],
    ...values.audienceIds.map((id) => ['audienceId', id]),
    ['subscriberEmail', subscriber.email],
  ]);
  return (
    <section className="campaign-preview" aria-labelledby="preview-heading">
      <h2 id="preview-heading">Preview for {subscriber.email}</h2>
      {skipped && (
        <p className="notice" role="status">
          The send would skip {subscriber.email}: {skipReason(skipped)}.
        </p>
      )}
      {email && (
        <>
          <p>
            Subject: <strong>{email.subject}</strong>
          </p>
          <p>
            {email.words} words, about {email.minutes} minute{email.minutes === 1 ? '' : 's'} of{' '}
            {email.pastimes}
          </p>
          <iframe
            title={`Preview: ${email.subject}`}
            src={`/admin-panel/setup-campaign/preview?${query}`}
            // Nothing in the preview runs, submits or opens anything.
            sandbox=""
            className="campaign-preview__frame"
          />
          <details>
            <summary>Plain-text part</summary>
            <pre className="campaign-preview__text">{email.text}</pre>
          </details>
        </>
      )}
    </section>
  );
}
