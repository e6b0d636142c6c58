// The Setup campaign page and a campaign's own page, through their loaders and actions: the guard,
// the window's error in words (never its code), bad input answered 4xx, one campaign per form,
// cancelling.
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import * as Newsletter from '#core/newsletter';
import { adminPost, signedInAdmin } from '#web/lib/admin.server.test-helpers';
import { createAudience } from '#tests/integration/factories';
import { call, request } from '#tests/integration/route-call';
import { useOwnTable } from '#tests/integration/own-table';
import { action as issueAction, loader as issueLoader } from './setup-campaign.issue';
import { loader as previewLoader } from './setup-campaign.preview';
import { action, loader } from './setup-campaign';

useOwnTable('setup-campaign');

const PATH = '/admin-panel/setup-campaign';
const minutes = (offset: number) =>
  new Date(Date.now() + offset * 60_000).toISOString().slice(0, 16);

async function post(form: Record<string, string | string[]>, path = PATH) {
  const { cookie } = await signedInAdmin();
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(form))
    for (const one of [value].flat()) body.append(name, one);
  const built = adminPost(path, {}, cookie);
  return new Request(built.url, { method: 'POST', headers: built.headers, body: body.toString() });
}

async function campaignForm(overrides: Record<string, string | string[]> = {}) {
  const audience = await createAudience();
  return {
    id: Newsletter.newCampaignId(),
    from: minutes(-24 * 60),
    to: minutes(0),
    frequency: 'daily',
    audienceId: audience.id,
    subscriberEmail: '',
    testTo: '',
    sendAt: '',
    ...overrides,
  };
}

type Refused = { values: { from: string; to: string }; error: string };

describe('the Setup campaign page', () => {
  it('sends a visitor without a session to the admin sign-in, and refuses their POST', async () => {
    const page = await call(loader, request(`http://localhost:3000${PATH}`));
    expect(page.status).toBe(302);
    expect(page.location).toBe(
      `/admin-panel/authorize?returnUrl=${encodeURIComponent('/admin-panel/setup-campaign')}`,
    );
    const origin = 'http://localhost:3000';
    const posted = await call(
      action,
      request(`${origin}${PATH}`, {
        method: 'POST',
        body: 'intent=campaign-preview',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: origin },
      }),
    );
    expect(posted.status).toBe(302);
    expect(posted.location).toMatch(/^\/admin-panel\/authorize/);
  });

  it('refuses a POST without our Origin, even from a signed-in admin', async () => {
    const signedIn = await post(await campaignForm({ intent: 'campaign-schedule' }));
    const headers = new Headers(signedIn.headers);
    headers.delete('Origin');
    const body = await signedIn.text();
    const answer = await call(action, new Request(signedIn.url, { method: 'POST', headers, body }));
    expect(answer.status).toBe(403);
  });

  it('shows a form with a campaign id and the last 24 hours, and the active audiences', async () => {
    const audience = await createAudience({ title: 'audit smart contracts', frequency: 'weekly' });
    const upcoming = await createAudience({ state: 'upcoming' });
    const { cookie } = await signedInAdmin();
    const answer = await call(
      loader,
      new Request(`http://localhost:3000${PATH}`, { headers: { Cookie: cookie } }),
    );
    const page = answer.data as Awaited<ReturnType<typeof loader>>;
    expect(page.id).toMatch(/^[0-9A-Z]{26}$/);
    expect(Date.parse(`${page.to}Z`) - Date.parse(`${page.from}Z`)).toBe(86_400_000);
    expect(page.audiences).toContainEqual({
      id: audience.id,
      title: 'audit smart contracts',
      frequency: 'weekly',
    });
    expect(page.audiences.map((a) => a.id)).not.toContain(upcoming.id);
  });

  it('answers a window that ends before it starts with 400 and its message (no code), keeping the inputs', async () => {
    const form = await campaignForm({ from: minutes(-60), to: minutes(-120) });
    for (const intent of ['campaign-preview', 'send-test', 'campaign-schedule']) {
      const answer = await call(action, await post({ ...form, intent }));
      expect(answer.status, intent).toBe(400);
      const refused = answer.data as Refused;
      expect(refused.error).toBe('The content window is not valid: "From" must be before "To".');
      expect(refused.values).toMatchObject({ from: form.from, to: form.to });
    }
    expect(await Newsletter.issueById(form.id)).toBeUndefined();
  });

  it('answers bad input with a 4xx and a message, never a 500, and schedules nothing', async () => {
    const form = await campaignForm();
    const cases: [Record<string, string | string[]>, number, string][] = [
      [{ ...form, intent: 'nonsense' }, 400, 'This action is not known'],
      [{ intent: 'campaign-schedule' }, 400, 'From must be a date and time'],
      [{ ...form, from: 'yesterday', intent: 'campaign-schedule' }, 400, 'From must be'],
      [{ ...form, to: '2026-13-01T10:00', intent: 'campaign-schedule' }, 400, 'real date'],
      [{ ...form, frequency: 'hourly', intent: 'campaign-schedule' }, 400, 'daily or weekly'],
      [{ ...form, audienceId: [], intent: 'campaign-schedule' }, 400, 'at least one audience'],
      [{ ...form, audienceId: ulid(), intent: 'campaign-schedule' }, 400, 'active audiences'],
      [{ ...form, id: 'x', intent: 'campaign-schedule' }, 400, 'reload the page'],
      [{ ...form, sendAt: 'soon', intent: 'campaign-schedule' }, 400, 'Send at must be'],
      [{ ...form, sendAt: minutes(-600), intent: 'campaign-schedule' }, 400, 'in the past'],
      [{ ...form, subscriberEmail: 'nobody', intent: 'campaign-preview' }, 400, ''],
      [
        { ...form, subscriberEmail: 'nobody@example.org', intent: 'campaign-preview' },
        404,
        'No subscriber has this address',
      ],
      [
        { ...form, subscriberEmail: 'nobody@example.org', intent: 'send-test' },
        400,
        'Please enter your email address',
      ],
    ];
    for (const [input, status, message] of cases) {
      const answer = await call(action, await post(input));
      const label = JSON.stringify(input);
      expect(answer.status, label).toBe(status);
      expect((answer.data as Refused).error, label).toContain(message);
      expect((answer.data as Refused).error, label).not.toMatch(/\(\S+[._]\S+\)$/);
    }
    expect(await Newsletter.issueById(form.id)).toBeUndefined();
  });

  it('schedules one campaign however often its form is sent, and shows it on its own page', async () => {
    const form = await campaignForm({ sendAt: minutes(90), intent: 'campaign-schedule' });
    const first = await call(action, await post(form));
    const second = await call(action, await post({ ...form, sendAt: minutes(120) }));
    expect(first).toMatchObject({ status: 302, location: `${PATH}/${form.id}` });
    expect(second).toMatchObject({ status: 302, location: `${PATH}/${form.id}` });
    const issues = await Newsletter.recentIssues({ limit: 100 });
    expect(issues.filter((issue) => issue.id === form.id)).toHaveLength(1);
    expect(await Newsletter.issueById(form.id)).toMatchObject({
      origin: 'campaign',
      status: 'scheduled',
      sendAt: `${form.sendAt}:00.000Z`,
    });

    const { cookie } = await signedInAdmin();
    const page = await call(
      issueLoader,
      new Request(`http://localhost:3000${PATH}/${form.id}`, { headers: { Cookie: cookie } }),
      { id: form.id },
    );
    expect(page.data).toMatchObject({
      status: 'scheduled',
      audiences: ['build DeFi protocols'],
      figures: { recipients: 0, sent: 0, unsubscribes: 0 },
    });
  });

  it("sent now with the form's window (ending at the next whole minute), ends the window at the send, and shows no internal id", async () => {
    const next = new Date(Math.ceil((Date.now() + 1) / 60_000) * 60_000).toISOString().slice(0, 16);
    const form = await campaignForm({ to: next, intent: 'campaign-schedule' });
    const answer = await call(action, await post(form));
    expect(answer).toMatchObject({ status: 302, location: `${PATH}/${form.id}` });
    const issue = (await Newsletter.issueById(form.id))!;
    expect(Date.parse(issue.to)).toBeLessThanOrEqual(Date.parse(issue.sendAt!));
    expect(Date.parse(issue.to)).toBeLessThanOrEqual(Date.now());

    const { cookie } = await signedInAdmin();
    const page = await call(
      issueLoader,
      new Request(`http://localhost:3000${PATH}/${form.id}`, { headers: { Cookie: cookie } }),
      { id: form.id },
    );
    expect(page.data).toMatchObject({ byProcess: true });
    // The campaign's own id is its address; no other internal id (its process's) is shown.
    const shown = JSON.stringify(page.data).replaceAll(form.id, '');
    expect(shown).not.toMatch(/\b[0-9A-HJKMNP-TV-Z]{26}\b/);
  });

  it('frames the preview of an unknown subscriber as a message, under its own strict policy', async () => {
    const form = await campaignForm({ subscriberEmail: 'nobody@example.org' });
    const { cookie } = await signedInAdmin();
    const query = new URLSearchParams(form as Record<string, string>);
    const response = (await previewLoader({
      request: new Request(`http://localhost:3000${PATH}/preview?${query}`, {
        headers: { Cookie: cookie },
      }),
      params: {},
      context: {},
    })) as Response;
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('<p>No subscriber has this address</p>');
    const policy = response.headers.get('Content-Security-Policy')!;
    expect(policy).toContain("default-src 'none'");
    expect(policy).toMatch(/(^|; )sandbox($|;)/);
  });
});

describe('a campaign page', () => {
  const issueRequest = async (id: string) => {
    const { cookie } = await signedInAdmin();
    return new Request(`http://localhost:3000${PATH}/${id}`, { headers: { Cookie: cookie } });
  };

  it('answers 404 for an unknown or malformed id', async () => {
    for (const id of [ulid(), 'daily-2020-01-01', 'nope', '../outbox', 'x'.repeat(300)]) {
      const answer = await call(issueLoader, await issueRequest(id), { id });
      expect(answer.status, id).toBe(404);
      const cancel = await call(issueAction, await post({ intent: 'cancel' }, `${PATH}/x`), {
        id,
      });
      expect(cancel.status, id).toBe(404);
    }
  });

  it('cancels a scheduled campaign once, then says it can no longer be cancelled', async () => {
    const form = await campaignForm({ sendAt: minutes(60), intent: 'campaign-schedule' });
    await call(action, await post(form));
    const params = { id: form.id };
    const cancel = () => post({ intent: 'cancel' }, `${PATH}/${form.id}`);
    expect(await call(issueAction, await cancel(), params)).toMatchObject({
      status: 302,
      location: `${PATH}/${form.id}`,
    });
    expect((await Newsletter.issueById(form.id))?.status).toBe('cancelled');
    const again = await call(issueAction, await cancel(), params);
    expect(again.status).toBe(409);
    expect(again.data).toEqual({
      error: 'This campaign has already started or ended: it can no longer be cancelled',
    });
    const bad = await call(
      issueAction,
      await post({ intent: 'delete' }, `${PATH}/${form.id}`),
      params,
    );
    expect(bad.status).toBe(400);
  });
});
