// The Setup campaign page's data, and its actions: preview the issue as a subscriber
// (campaign-preview), send it as a test to one address, or schedule it (campaign-schedule). Each
// checks the window first, so a bad one is refused (SETUP_CAMPAIGN_CONTENT_FROM_TO_NOT_VALID) whatever the button, and the
// operator's inputs come back with every answer so nothing typed is lost.
import { redirect } from '@remix-run/node';
import { VisibleError } from '#core/common';
import * as Audiences from '#core/audiences';
import * as Newsletter from '#core/newsletter';
import { requireAdmin } from '#web/lib/admin.server';
import { readForm } from '#web/lib/api.server';
import { issueWindow, skippedBreakdown } from '#web/lib/campaign-view';
import { refusal } from '#web/lib/refusal.server';

const DAY_MS = 86_400_000;
/** A `datetime-local` value in UTC, to the minute. */
const localUtc = (ms: number) => new Date(ms).toISOString().slice(0, 16);

/** The form's defaults (a new campaign id, the last day), the active audiences, the recent issues. */
export async function campaignLoader(request: Request) {
  await requireAdmin(request);
  const [audiences, issues] = await Promise.all([
    Audiences.list(),
    Newsletter.recentIssues({ limit: 20 }),
  ]);
  // Up to the next whole minute, so what was picked a moment ago is inside the window.
  const now = Math.ceil(Date.now() / 60_000) * 60_000;
  return {
    // Made when the form is shown: submitting it twice schedules one campaign.
    id: Newsletter.newCampaignId(),
    from: localUtc(now - DAY_MS),
    to: localUtc(now),
    audiences: audiences
      .filter((audience) => audience.state === 'active')
      .map(({ id, title, frequency }) => ({ id, title, frequency })),
    issues: issues.map((issue) => ({
      id: issue.id,
      createdAt: issue.createdAt,
      origin: issue.origin,
      frequency: issue.frequency,
      window: issueWindow(issue),
      status: issue.status,
      recipients: issue.recipients ?? 0,
      sent: issue.sent ?? 0,
      failed: issue.failed ?? 0,
      skipped: skippedBreakdown(issue, issue.skipped ?? 0),
      unsubscribes: issue.unsubscribes ?? 0,
      clicks: issue.clicks ?? 0,
      uniqueClicks: issue.uniqueClicks ?? 0,
    })),
  };
}

/** What the operator typed, echoed back so a refused form keeps it. */
export type CampaignForm = {
  id: string;
  from: string;
  to: string;
  frequency: string;
  audienceIds: string[];
  subscriberEmail: string;
  testTo: string;
  sendAt: string;
};

export type CampaignResult =
  | { values: CampaignForm; error: string }
  | { values: CampaignForm; preview: Newsletter.CampaignPreview }
  | { values: CampaignForm; message: string };

/** Longest value kept from a field: enough for any real input, small enough to echo back. */
const FIELD_MAX = 320;

const text = (form: URLSearchParams, name: string) =>
  String(form.get(name) ?? '').slice(0, FIELD_MAX);

export function valuesOf(form: URLSearchParams): CampaignForm {
  return {
    id: text(form, 'id'),
    from: text(form, 'from'),
    to: text(form, 'to'),
    frequency: text(form, 'frequency'),
    audienceIds: form
      .getAll('audienceId')
      .slice(0, Newsletter.MAX_CAMPAIGN_AUDIENCES + 1)
      .map((id) => id.slice(0, FIELD_MAX)),
    subscriberEmail: text(form, 'subscriberEmail').trim(),
    testTo: text(form, 'testTo').trim(),
    sendAt: text(form, 'sendAt').trim(),
  };
}

/** The window as typed; checkCampaign says what is wrong with it (the frequency included). */
export const windowOf = (values: CampaignForm) =>
  ({ ...values, frequency: values.frequency as Newsletter.Frequency }) satisfies Parameters<
    typeof Newsletter.checkCampaign
  >[0];

export async function campaignAction(request: Request) {
  const user = await requireAdmin(request);
  let values: CampaignForm | undefined;
  try {
    const form = await readForm(request);
    values = valuesOf(form);
    const intent = form.get('intent');
    if (intent !== 'campaign-preview' && intent !== 'send-test' && intent !== 'campaign-schedule')
      throw new VisibleError('input.invalid', 'This action is not known', 400);
    const checked = await Newsletter.checkCampaign(windowOf(values));
    // Sent now, a window that ends later (the form's end is the next whole minute) ends at the send.
    const sendsNow = intent === 'campaign-schedule' && !values.sendAt;
    const campaign =
      sendsNow && Date.parse(checked.to) > Date.now()
        ? { ...checked, to: new Date().toISOString() }
        : checked;
    switch (intent) {
      case 'campaign-preview': {
        const preview = await Newsletter.previewCampaign(campaign, {
          subscriberEmail: values.subscriberEmail,
        });
        return { values, preview } satisfies CampaignResult;
      }
      case 'send-test':
        await Newsletter.sendTest(campaign, {
          subscriberEmail: values.subscriberEmail,
          to: values.testTo,
        });
        return { values, message: `Test sent to ${values.testTo}` } satisfies CampaignResult;
      case 'campaign-schedule': {
        const issue = await Newsletter.scheduleCampaign(campaign, {
          id: values.id,
          sendAt: values.sendAt || undefined,
          createdBy: user.id,
        });
        return redirect(`/admin-panel/setup-campaign/${issue.id}`);
      }
    }
  } catch (error) {
    return refusal(error, { values: values ?? valuesOf(new URLSearchParams()) });
  }
}
