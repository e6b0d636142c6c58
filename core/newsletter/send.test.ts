// 'Send newsletters' end to end through the job runtime and the outbox: planned into chunk
// messages, each chunk delivered to the worker's handler, the e-mails sent by the outbox to the
// SMTP sink. The file has a table of its own, so "the active daily audiences" are exactly these.
import { decodeTime, ulid } from 'ulid';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Audience } from '#core/audiences';
import { db } from '#core/db';
import * as Jobs from '#core/jobs';
import { logger } from '#core/logs';
import * as Newsletter from '#core/newsletter';
import * as Outbox from '#core/outbox';
import * as Subscribers from '#core/subscribers';
import { createAudience } from '#tests/integration/factories';
import { receive } from '#tests/integration/job-queue';
import { linkIn, messagesTo } from '#tests/integration/mail';
import { pick } from '#tests/integration/newsletter-world';
import { useOwnTable } from '#tests/integration/own-table';

useOwnTable('send-newsletters');

const jobs = Jobs.registry([Newsletter.sendNewsletters]);
const deliver = (...messages: { messageId: string; body: string }[]) =>
  Jobs.handleBatch(messages, jobs);
const address = (name: string) => `${name}-${ulid().toLowerCase()}@example.org`;
const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3600_000).toISOString();

const tokenOf = (url: string) => new URL(url).searchParams.get('subscriberHash');

/** A subscriber of the audiences, confirmed unless `pending`. */
async function reader(name: string, audiences: Audience[], { pending = false } = {}) {
  const email = address(name);
  let subscriber: Subscribers.Subscriber | undefined;
  for (const audience of audiences)
    ({ subscriber } = await Subscribers.subscribe({ email, audienceId: audience.id }));
  if (!pending)
    subscriber = await Subscribers.confirm(
      tokenOf(Subscribers.subscriberLinks(subscriber!).confirmUrl),
    );
  return subscriber!;
}

const digestsTo = async (email: string) =>
  (await messagesTo(email)).filter((message) => message.subject.startsWith('Your daily Cluefeed'));

/** Runs a process to its end the way the worker does: its message, then its chunks. */
async function runToEnd(process: Jobs.Process) {
  await deliver(...(await receive(process.id)));
  const chunks = await receive(process.id);
  await Promise.all(chunks.map((message) => deliver(message)));
  return { ended: (await Jobs.byId(process.id))!, chunks };
}

let people: Record<'alice' | 'bob' | 'carol' | 'dave' | 'erin' | 'frank', Subscribers.Subscriber>;
let auditors: Audience;

beforeAll(async () => {
  auditors = await createAudience({ title: 'audit smart contracts', tag: 'aud-audit' });
  const builders = await createAudience({ title: 'build DeFi protocols' });
  const quiet = await createAudience({ title: 'run validators', tag: 'aud-validators' });
  const weekly = await createAudience({ title: 'collect on-chain art', frequency: 'weekly' });
  await pick(auditors, 'A reentrancy bug in a lending pool');
  await pick(auditors, 'Last week’s audit contest', hoursAgo(30));
  await pick(builders, 'A new AMM design');
  await pick(weekly, 'A generative art auction');
  people = {
    alice: await reader('alice', [auditors]),
    bob: await reader('bob', [auditors, builders]),
    carol: await reader('carol', [builders]),
    dave: await reader('dave', [auditors], { pending: true }),
    erin: await reader('erin', [quiet]),
    frank: await reader('frank', [weekly]),
  };
  await Subscribers.unsubscribe(people.carol);
});

describe('Send newsletters', () => {
  it('sends each confirmed follower one daily issue of their own stories and skips the rest', async () => {
    const process = await Jobs.enqueue(Newsletter.sendNewsletters, {}, 'admin-1');
    const { ended, chunks } = await runToEnd(process);
    expect(chunks).toHaveLength(1);
    expect(ended.status).toBe('Success');
    // Frank follows only a weekly audience: not a recipient of the daily issue at all.
    // Skips are counted by reason too (an unsubscribed, an unconfirmed, one with nothing picked).
    expect(JSON.parse(ended.output!)).toEqual({
      chunks: 1,
      queued: 2,
      skipped: 3,
      skippedUnsubscribed: 1,
      skippedNotConfirmed: 1,
      skippedNoPicks: 1,
      failed: 0,
      alreadyDone: 0,
    });
    // The run sent its two e-mails itself: once its chunks ran, the issue is done.
    const periodIssueId = Newsletter.periodIssueId('daily', decodeTime(process.id));
    expect(await Newsletter.issueById(periodIssueId)).toMatchObject({
      recipients: 5,
      queued: 0,
      sent: 2,
      skipped: 3,
      status: 'done',
    });

    const [alice, ...moreForAlice] = await digestsTo(people.alice.email);
    expect(moreForAlice).toHaveLength(0);
    expect(alice!.subject).toBe('Your daily Cluefeed: A reentrancy bug in a lending pool');
    expect(alice!.text).toContain('Because you follow those who audit smart contracts');
    expect(alice!.text).not.toContain('A new AMM design');
    expect(alice!.text).not.toContain('audit contest');
    expect(alice!.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    // Her own signed footer link, not anyone else's.
    const unsubscribeLink = linkIn(alice!, 'http://localhost:3000/unsubscribe?');
    expect((await Subscribers.fromToken(tokenOf(unsubscribeLink), ['manage'])).id).toBe(
      people.alice.id,
    );

    // Story links go through the signed click redirect: following one counts it on the issue.
    const storyLink = linkIn(alice!, 'http://localhost:3000/r/');
    const token = new URL(storyLink).pathname.slice('/r/'.length);
    const followed = await Newsletter.followClick(token, { ip: '192.0.2.7' });
    expect(followed).toMatchObject({
      url: expect.stringMatching(/^(https:\/\/news\.example\.org\/|http:\/\/localhost:3000\/p\/)/),
      counted: 'unique',
    });
    expect(alice!.text).not.toContain('https://news.example.org/');

    const bob = await digestsTo(people.bob.email);
    expect(bob).toHaveLength(1);
    expect(bob[0]!.text).toContain('A reentrancy bug in a lending pool');
    expect(bob[0]!.text).toContain('A new AMM design');
    for (const person of [people.carol, people.dave, people.erin, people.frank])
      expect(await digestsTo(person.email)).toHaveLength(0);

    // The period's issue: today's daily one, its window the 24 hours before the run was queued.
    const issueId = Newsletter.periodIssueId('daily', decodeTime(process.id));
    expect(issueId).toBe(`daily-${new Date(decodeTime(process.id)).toISOString().slice(0, 10)}`);
    const issue = (await Newsletter.issueById(issueId))!;
    expect(issue).toMatchObject({
      frequency: 'daily',
      origin: 'schedule',
      processId: process.id,
      to: new Date(Date.parse(issue.from) + Newsletter.WINDOW_MS.daily).toISOString(),
      recipients: 5,
      // Both e-mails went out with the run: each moved from queued to sent.
      queued: 0,
      sent: 2,
      skipped: 3,
      skippedUnsubscribed: 1,
      skippedNotConfirmed: 1,
      skippedNoPicks: 1,
      failed: 0,
      clicks: 1,
      uniqueClicks: 1,
      status: 'done',
    });
    const reasons = await Promise.all(
      [people.carol, people.dave, people.erin].map(
        async ({ id }) => (await Newsletter.deliveryOf(issueId, id))!,
      ),
    );
    expect(reasons.map(({ status, reason }) => [status, reason])).toEqual([
      ['skipped', 'unsubscribed'],
      ['skipped', 'not confirmed'],
      ['skipped', 'no picks'],
    ]);
    // Settled with its e-mail: sent, with the Message-ID the SMTP server accepted.
    expect((await Newsletter.deliveryOf(issueId, people.alice.id))!).toMatchObject({
      status: 'sent',
      outboundEmailId: expect.stringMatching(/^[0-9A-Z]{26}$/),
      smtpMessageId: alice!.headers['message-id'],
      sentAt: expect.any(String),
    });
    expect(await Newsletter.issueById(issueId)).toMatchObject({ queued: 0, sent: 2, skipped: 3 });
  });

  it('sends nobody a second copy when Send newsletters runs again in the same period', async () => {
    const issueId = Newsletter.periodIssueId('daily', Date.now());
    const before = await Newsletter.issueById(issueId);
    const first = await digestsTo(people.bob.email);
    expect(first).toHaveLength(1);

    // A second press (or the schedule firing twice): same issue, same window, nothing queued.
    const process = await Jobs.enqueue(Newsletter.sendNewsletters, { frequency: 'daily' }, 'a-1');
    const { ended } = await runToEnd(process);
    expect(JSON.parse(ended.output!)).toMatchObject({ queued: 0, skipped: 0, alreadyDone: 5 });

    // A worker that died after its work but before the chunk's checkpoint: SQS hands the chunk
    // out again, and a takeover plans the same process again.
    const context = {
      processId: process.id,
      systemUserId: 'a-1',
      log: logger,
      progress: async () => {},
    };
    const input = { frequency: 'daily' as const };
    const replanned = await Newsletter.sendNewsletters.plan(input, context);
    expect(replanned.flatMap((chunk) => chunk.subscriberIds)).toHaveLength(5);
    for (const chunk of replanned)
      expect(
        await Newsletter.sendNewsletters.runChunk(chunk, input, { ...context, chunk: 0 }),
      ).toEqual({ queued: 0, skipped: 0, failed: 0, alreadyDone: 5 });

    expect(await digestsTo(people.bob.email)).toHaveLength(1);
    const after = (await Newsletter.issueById(issueId))!;
    expect(after).toMatchObject({ recipients: 5, queued: 0, sent: 2, skipped: 3 });
    expect([after.from, after.to]).toEqual([before!.from, before!.to]);
  });

  it('counts an unsubscribe against the last issue the subscriber was sent, once', async () => {
    const issueId = Newsletter.periodIssueId('daily', Date.now());
    const alice = (await Subscribers.byId(people.alice.id))!;
    expect(alice).toMatchObject({ lastIssueId: issueId, lastIssueSentAt: expect.any(String) });
    await Promise.all([Subscribers.unsubscribe(alice), Subscribers.unsubscribe(alice)]);
    await Subscribers.unsubscribe((await Subscribers.byId(alice.id))!);
    expect(await Newsletter.issueById(issueId)).toMatchObject({ unsubscribes: 1 });
    // Erin was never sent it (nothing picked for her): her unsubscribe counts against nothing.
    await Subscribers.unsubscribe(people.erin);
    expect(await Newsletter.issueById(issueId)).toMatchObject({ unsubscribes: 1 });
  });

  it('counts nothing more when someone who left comes back and leaves again before the next issue', async () => {
    const issueId = Newsletter.periodIssueId('daily', Date.now());
    const alice = (await Subscribers.byId(people.alice.id))!;
    expect(alice.status).toBe('unsubscribed');
    const before = (await Newsletter.issueById(issueId))!.unsubscribes;
    const { subscriber } = await Subscribers.subscribe({
      email: alice.email,
      audienceId: alice.firstAudienceId!,
    });
    const back = await Subscribers.confirm(
      tokenOf(Subscribers.subscriberLinks(subscriber).confirmUrl),
    );
    expect(back.status).toBe('subscribed');
    await Subscribers.unsubscribe(back);
    expect(await Newsletter.issueById(issueId)).toMatchObject({ unsubscribes: before });
  });

  it('sends the weekly issue to the followers of weekly audiences only', async () => {
    const process = await Jobs.enqueue(
      Newsletter.sendNewsletters,
      { frequency: 'weekly' },
      'admin-1',
    );
    const { ended } = await runToEnd(process);
    expect(JSON.parse(ended.output!)).toMatchObject({ queued: 1, skipped: 0, failed: 0 });
    const weekly = (await messagesTo(people.frank.email)).filter((message) =>
      message.subject.startsWith('Your week on Cluefeed'),
    );
    expect(weekly.map((message) => message.subject)).toEqual([
      'Your week on Cluefeed: A generative art auction',
    ]);
    const issue = (await Newsletter.issueById(
      Newsletter.periodIssueId('weekly', decodeTime(process.id)),
    ))!;
    expect(issue.id).toMatch(/^weekly-\d{4}-W\d{2}$/);
    expect(Date.parse(issue.to) - Date.parse(issue.from)).toBe(Newsletter.WINDOW_MS.weekly);
    expect(issue).toMatchObject({ recipients: 1, queued: 0, sent: 1, status: 'done' });
  });
});

describe('Send newsletters when a transaction on the issue collided with another', () => {
  // DynamoDB Local runs transactions one at a time; DynamoDB cancels one of two that overlap, and
  // every Delivery and every settle of an issue's e-mail updates the same item, the issue.
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** Cancels the first transaction that names every one of `ids` as DynamoDB does a collision; counts them. */
  function collideOnce(...ids: string[]) {
    const { client } = db();
    const send = client.send.bind(client);
    const seen = { transactions: 0 };
    vi.spyOn(client, 'send').mockImplementation(((command: unknown) => {
      const ours =
        command instanceof TransactWriteCommand &&
        ids.every((id) => JSON.stringify(command.input).includes(id));
      if (ours && ++seen.transactions === 1)
        return Promise.reject(
          Object.assign(new Error('Transaction cancelled'), {
            name: 'TransactionCanceledException',
            CancellationReasons: [
              { Code: 'None' },
              { Code: 'None' },
              { Code: 'TransactionConflict' },
            ],
          }),
        );
      return send(command as never);
    }) as never);
    return seen;
  }

  let gina: Subscribers.Subscriber;

  /** A campaign's issue of the auditors' picks of the last day, sending. */
  async function campaign() {
    const { data: issue } = await Newsletter.NewsletterIssueEntity.create({
      id: ulid(),
      origin: 'campaign',
      frequency: 'daily',
      from: hoursAgo(24),
      to: new Date().toISOString(),
      audienceIds: [auditors.id],
      recipients: 1,
      status: 'sending',
      createdAt: new Date().toISOString(),
    }).go();
    return issue.id;
  }

  /** Runs the issue's one chunk, for gina alone. */
  const sendTo = (issueId: string, subscriberId: string) =>
    Newsletter.sendNewsletters.runChunk(
      { issueId, subscriberIds: [subscriberId] },
      { frequency: 'daily' },
      { processId: ulid(), systemUserId: 'a-1', log: logger, chunk: 0, progress: async () => {} },
    );

  it("writes the subscriber's e-mail after all, instead of taking them for done", async () => {
    gina = await reader('gina', [auditors]);
    const issueId = await campaign();
    const seen = collideOnce(gina.id);
    expect(await sendTo(issueId, gina.id)).toEqual({
      queued: 1,
      skipped: 0,
      failed: 0,
      alreadyDone: 0,
    });
    // The write that collided, the same write again, and the settle of the e-mail sent.
    expect(seen.transactions).toBe(3);
    expect(await Newsletter.deliveryOf(issueId, gina.id)).toMatchObject({
      status: 'sent',
      outboundEmailId: expect.any(String),
    });
    expect(await Newsletter.issueById(issueId)).toMatchObject({
      queued: 0,
      sent: 1,
      status: 'done',
    });
    expect(await digestsTo(gina.email)).toHaveLength(1);
  });

  it('marks the e-mail sent once, with its Delivery, instead of leaving it to be sent again', async () => {
    await pick(auditors, 'A second oracle incident');
    const issueId = await campaign();
    // Only the settle writes the Message-ID the server answered with.
    const seen = collideOnce(gina.id, 'smtpMessageId');
    expect(await sendTo(issueId, gina.id)).toMatchObject({ queued: 1, failed: 0 });
    expect(seen.transactions).toBe(2);
    const { outboundEmailId } = (await Newsletter.deliveryOf(issueId, gina.id))!;
    expect(await Outbox.byId(outboundEmailId!)).toMatchObject({ status: 'sent', attempts: 1 });
    expect(await Newsletter.deliveryOf(issueId, gina.id)).toMatchObject({ status: 'sent' });
    expect(await Newsletter.issueById(issueId)).toMatchObject({
      queued: 0,
      sent: 1,
      status: 'done',
    });
    expect(await digestsTo(gina.email)).toHaveLength(2);
  });
});
