// Campaigns from the setup page: the window's checks, the preview and the test send, and sending
// now or later through the same 'Send newsletters' job. The file has a table of its own.
import { ulid } from 'ulid';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Audience } from '#core/audiences';
import * as Worker from '#core/worker';
import * as Jobs from '#core/jobs';
import * as Newsletter from '#core/newsletter';
import * as Subscribers from '#core/subscribers';
import { createAudience } from '#tests/integration/factories';
import { receive } from '#tests/integration/job-queue';
import { messagesTo, receivedBy } from '#tests/integration/mail';
import { pick } from '#tests/integration/newsletter-world';
import { useOwnTable } from '#tests/integration/own-table';

useOwnTable('campaigns');

const jobs = Jobs.registry([Newsletter.sendNewsletters]);
const deliver = (...messages: { messageId: string; body: string }[]) =>
  Jobs.handleBatch(messages, jobs);
const address = (name: string) => `${name}-${ulid().toLowerCase()}@example.org`;
const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3600_000).toISOString();

async function reader(name: string, audience: Audience) {
  const { subscriber } = await Subscribers.subscribe({
    email: address(name),
    audienceId: audience.id,
  });
  const token = new URL(Subscribers.subscriberLinks(subscriber).confirmUrl).searchParams.get(
    'subscriberHash',
  );
  return Subscribers.confirm(token);
}

async function runToEnd(processId: string) {
  await deliver(...(await receive(processId)));
  for (const message of await receive(processId)) await deliver(message);
  return (await Jobs.byId(processId))!;
}

let auditors: Audience;
let collectors: Audience;
let people: Record<'ana' | 'ben' | 'cy', Subscribers.Subscriber>;
const window = () => ({
  from: hoursAgo(48),
  to: new Date().toISOString(),
  frequency: 'daily' as const,
  audienceIds: [auditors.id],
});

beforeAll(async () => {
  auditors = await createAudience({ title: 'audit smart contracts' });
  collectors = await createAudience({ title: 'collect on-chain art', frequency: 'weekly' });
  await pick(auditors, 'A reentrancy bug in a lending pool');
  await pick(auditors, 'An old story', hoursAgo(100));
  await pick(collectors, 'A generative art auction');
  people = {
    ana: await reader('ana', auditors),
    ben: await reader('ben', auditors),
    cy: await reader('cy', collectors),
  };
});

describe('setting up a campaign', () => {
  it('refuses a content window that does not end after it starts, with the spec code', async () => {
    const now = Date.now();
    const refused = (input: Partial<ReturnType<typeof window>>) =>
      Newsletter.checkCampaign({ ...window(), ...input }, now);
    await expect(refused({ from: hoursAgo(1), to: hoursAgo(2) })).rejects.toMatchObject({
      code: 'SETUP_CAMPAIGN_CONTENT_FROM_TO_NOT_VALID',
      status: 400,
      message: 'The content window is not valid: "From" must be before "To".',
    });
    // One moment for both ends: two calls of hoursAgo can fall a millisecond apart.
    const hourAgo = hoursAgo(1);
    await expect(refused({ from: hourAgo, to: hourAgo })).rejects.toMatchObject({
      code: 'SETUP_CAMPAIGN_CONTENT_FROM_TO_NOT_VALID',
    });
    await expect(
      refused({
        from: new Date(now + 3600_000).toISOString(),
        to: new Date(now + 7200_000).toISOString(),
      }),
    ).rejects.toMatchObject({ code: 'SETUP_CAMPAIGN_CONTENT_FROM_TO_NOT_VALID' });
    await expect(refused({ from: hoursAgo(24 * 40) })).rejects.toMatchObject({
      code: 'SETUP_CAMPAIGN_CONTENT_FROM_TO_NOT_VALID',
      message: 'The content window is not valid: it may span at most 31 days.',
    });
    await expect(refused({ from: 'yesterday' })).rejects.toMatchObject({
      status: 400,
      message: 'From must be a date and time',
    });
    await expect(refused({ from: '2026-02-31T10:00' })).rejects.toMatchObject({
      status: 400,
      message: 'From must be a real date and time',
    });
    await expect(refused({ audienceIds: [] })).rejects.toMatchObject({
      message: 'Choose at least one audience',
    });
    await expect(refused({ audienceIds: [ulid()] })).rejects.toMatchObject({
      code: 'campaign.audiences_not_valid',
    });
    // A form's datetime-local value has no zone: it is read as UTC.
    const checked = await Newsletter.checkCampaign({
      ...window(),
      from: '2026-11-01T08:00',
      to: '2026-11-02T08:00',
    });
    expect([checked.from, checked.to]).toEqual([
      '2026-11-01T08:00:00.000Z',
      '2026-11-02T08:00:00.000Z',
    ]);
  });

  it('previews the issue a chosen subscriber would get, with footer links that act on nobody', async () => {
    const campaign = await Newsletter.checkCampaign(window());
    const preview = await Newsletter.previewCampaign(campaign, {
      subscriberEmail: people.ana.email,
    });
    expect(preview.subscriber).toMatchObject({ id: people.ana.id, status: 'subscribed' });
    expect(preview.skipped).toBeUndefined();
    expect(preview.email!.subject).toBe('Your daily Cluefeed: A reentrancy bug in a lending pool');
    expect(preview.email!.text).toContain('Because you follow those who audit smart contracts');
    expect(preview.email!.text).not.toContain('An old story');
    expect(preview.email!.html).toContain('A reentrancy bug in a lending pool');
    expect(preview.email!.text).not.toContain('subscriberHash');
    expect(preview.email!.minutes).toBeLessThanOrEqual(5);

    // Cy follows only the collectors: the campaign of the auditors has nothing for him.
    const none = await Newsletter.previewCampaign(campaign, { subscriberEmail: people.cy.email });
    expect(none).toMatchObject({ skipped: 'no audiences' });
    expect(none.email).toBeUndefined();
    await expect(
      Newsletter.previewCampaign(campaign, { subscriberEmail: address('nobody') }),
    ).rejects.toMatchObject({ status: 404, message: 'No subscriber has this address' });
  });

  it('sends the preview as a test to one address, counted nowhere', async () => {
    const campaign = await Newsletter.checkCampaign(window());
    const tester = address('editor');
    await Newsletter.sendTest(campaign, { subscriberEmail: people.ben.email, to: tester });
    const [test, ...more] = await messagesTo(tester);
    expect(more).toHaveLength(0);
    expect(test!.subject).toBe('[Test] Your daily Cluefeed: A reentrancy bug in a lending pool');
    expect(test!.text).toContain('Because you follow those who audit smart contracts');
    expect(test!.text).not.toContain('subscriberHash');
    expect(await receivedBy(people.ben.email)).toHaveLength(1); // only his confirmation
  });

  it('sends now once, however often the form is submitted', async () => {
    const campaign = await Newsletter.checkCampaign(window());
    const id = Newsletter.newCampaignId();
    const first = await Newsletter.scheduleCampaign(campaign, { id, createdBy: 'admin' });
    const again = await Newsletter.scheduleCampaign(campaign, { id, createdBy: 'admin' });
    expect(again.processId).toBe(first.processId);
    expect(first.processId).toMatch(/^[0-9A-Z]{26}$/);
    expect(await runToEnd(first.processId!)).toMatchObject({ status: 'Success' });

    const issue = (await Newsletter.issueById(id))!;
    await messagesTo(people.ana.email);
    expect(await Newsletter.issueById(id)).toMatchObject({
      origin: 'campaign',
      status: 'done',
      recipients: 2,
      sent: 2,
      queued: 0,
    });
    expect(issue.from).toBe(campaign.from);
    for (const person of [people.ana, people.ben]) {
      const copies = (await receivedBy(person.email)).filter((m) =>
        m.subject.startsWith('Your daily Cluefeed'),
      );
      expect(copies).toHaveLength(1);
    }
    expect(await receivedBy(people.cy.email)).toHaveLength(1); // his confirmation only
    expect(await Newsletter.recentIssues()).toEqual(
      expect.arrayContaining([expect.objectContaining({ id, sent: 2 })]),
    );
  });

  it('starts a scheduled campaign when its time comes, and a cancelled one never', async () => {
    const campaign = await Newsletter.checkCampaign({ ...window(), audienceIds: [collectors.id] });
    const sendAt = new Date(Date.now() + 3600_000).toISOString();
    const later = await Newsletter.scheduleCampaign(campaign, {
      id: Newsletter.newCampaignId(),
      sendAt,
      createdBy: 'admin',
    });
    expect(later).toMatchObject({ status: 'scheduled', sendAt });
    expect(later.processId).toBeUndefined();
    expect(await Newsletter.startDueCampaigns()).toBe(0);

    const cancelled = await Newsletter.scheduleCampaign(campaign, {
      id: Newsletter.newCampaignId(),
      sendAt,
      createdBy: 'admin',
    });
    expect(await Newsletter.cancelCampaign(cancelled.id)).toBe(true);
    expect(await Newsletter.cancelCampaign(cancelled.id)).toBe(false);

    expect(await Newsletter.startDueCampaigns(Date.parse(sendAt) + 1000)).toBe(1);
    const started = (await Newsletter.issueById(later.id))!;
    await runToEnd(started.processId!);
    expect(await Newsletter.startDueCampaigns(Date.parse(sendAt) + 2000)).toBe(0);
    await messagesTo(people.cy.email);
    // A weekly audience's picks as the campaign's daily issue: the campaign chose it.
    expect(await Newsletter.issueById(later.id)).toMatchObject({ status: 'done', sent: 1 });
    expect(await Newsletter.issueById(cancelled.id)).toMatchObject({
      status: 'cancelled',
      sent: 0,
    });
    await expect(
      Newsletter.scheduleCampaign(campaign, {
        id: Newsletter.newCampaignId(),
        sendAt: hoursAgo(2),
        createdBy: 'admin',
      }),
    ).rejects.toMatchObject({ status: 400, message: '"Send at" must not be in the past' });
  });

  it('sends nothing when cancelled after the schedule queued its send, before it planned', async () => {
    const campaign = await Newsletter.checkCampaign(window());
    const issue = await Newsletter.scheduleCampaign(campaign, {
      id: Newsletter.newCampaignId(),
      sendAt: new Date(Date.now() + 3600_000).toISOString(),
      createdBy: 'admin',
    });
    // The schedule's start has queued the send; the admin cancels before the worker takes it.
    const process = await Jobs.enqueue(Newsletter.sendNewsletters, { issueId: issue.id }, 'a');
    expect(await Newsletter.cancelCampaign(issue.id)).toBe(true);
    expect(await runToEnd(process.id)).toMatchObject({ status: 'Success' });
    expect(await Newsletter.issueById(issue.id)).toMatchObject({
      status: 'cancelled',
      recipients: 0,
      queued: 0,
      sent: 0,
    });
    expect(await Newsletter.startDueCampaigns(Date.now() + 2 * 3600_000)).toBe(0);
  });

  it('the daily schedule sends the period issue once and does nothing after it is done', async () => {
    // The campaigns above sent their readers today's picks: the daily issue carries a new one.
    await pick(auditors, 'An oracle that lagged a block');
    await Worker.runSchedule('send-daily-newsletter');
    const issueId = Newsletter.periodIssueId('daily', Date.now());
    const processId = (await Jobs.active()).find((p) => p.name === 'send-newsletters')?.id;
    expect(processId).toBeDefined();
    await runToEnd(processId!);
    // The run sends its e-mails itself: once it ended, every one is settled and the issue done.
    expect(await Newsletter.issueById(issueId)).toMatchObject({
      status: 'done',
      origin: 'schedule',
      queued: 0,
      sent: expect.any(Number),
    });
    expect((await Newsletter.issueById(issueId))!.sent).toBeGreaterThan(0);
    await Worker.runSchedule('send-daily-newsletter');
    expect((await Jobs.active()).filter((p) => p.name === 'send-newsletters')).toHaveLength(0);
  });

  it('closes, on the recovery schedule, an issue whose last e-mail settled as its sender died', async () => {
    const issueId = Newsletter.periodIssueId('daily', Date.now());
    expect(await Newsletter.issueById(issueId)).toMatchObject({ status: 'done', queued: 0 });
    // As if the worker that settled its last e-mail had died before it could close it.
    await Newsletter.NewsletterIssueEntity.patch({ id: issueId })
      .set({ status: 'sending' })
      .remove(['doneAt'])
      .go();
    expect(await Newsletter.closeSettledIssues()).toBe(1);
    expect(await Newsletter.issueById(issueId)).toMatchObject({
      status: 'done',
      doneAt: expect.any(String),
    });
    // One still waiting for an e-mail stays open.
    await Newsletter.NewsletterIssueEntity.patch({ id: issueId })
      .set({ status: 'sending' })
      .add({ queued: 1 })
      .go();
    expect(await Newsletter.closeSettledIssues()).toBe(0);
    expect(await Newsletter.issueById(issueId)).toMatchObject({ status: 'sending', queued: 1 });
    await Newsletter.NewsletterIssueEntity.patch({ id: issueId }).add({ queued: -1 }).go();
    expect(await Newsletter.closeSettledIssues()).toBe(1);
  });
});
