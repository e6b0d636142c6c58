// Storage calls per operation, counted by the SDK middleware (core/db/storage-calls.ts): what the
// reader's page, a like, a clue change, a subscription and one newsletter e-mail cost in DynamoDB
// and SQS calls. Each figure is asserted exactly, so a change that adds a call is seen (and the
// figure here moved on purpose). The queue's receives are the test's (on AWS the event source
// mapping's), so they are made outside the counted scopes. Log lines are batched across
// operations and written by whichever flushes first, so their writes are not counted.
import { decodeTime, ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { countStorageCalls, totalOf, type ItemWrites, type StorageCalls } from '#core/db';
import * as Feed from '#core/feed';
import * as Jobs from '#core/jobs';
import * as Newsletter from '#core/newsletter';
import * as Outbox from '#core/outbox';
import * as Users from '#core/users';
import { createAudience } from '#tests/integration/factories';
import { receive, receiveEmails } from '#tests/integration/job-queue';
import { dailyWorld } from '#tests/integration/newsletter-world';
import { useOwnTable } from '#tests/integration/own-table';
import { readerWithFeed } from '#tests/integration/readers';
import { call, readerCookie, request } from '#tests/integration/route-call';
import { subscribeTo } from '#web/lib/subscribe.server';
import { action as feedAction, loader as feedLoader } from '#web/routes/feed';

useOwnTable('storage-calls');

const ORIGIN = 'http://localhost:3000';
const SENT_CALLS = 5;
/**
 * Per e-mail of a 20-reader issue, the send's fixed calls spread over them: 2.15 measured (11.6
 * before e-mails were written and sent in groups); a wait for the send rate's next second costs
 * two calls more.
 */
const NEWSLETTER_CALLS = 2.5;
/**
 * Most writes of one item while a 20-reader issue is sent: the issue and the process, 7-8 each
 * measured (created or claimed, planned, two groups written and settled, closed; a heartbeat or a
 * collision more). Written once an e-mail, the issue alone would take 20 and more.
 */
const SHARED_ITEM_WRITES = 10;
const form = (fields: Record<string, string>, cookie?: string) => ({
  method: 'POST',
  body: new URLSearchParams(fields).toString(),
  headers: {
    'Content-Type': 'application/x-www-form-urlencoded',
    Origin: ORIGIN,
    ...(cookie && { Cookie: cookie }),
  },
});

async function reader() {
  const { token, user, articles } = await readerWithFeed([
    'Very Relevant',
    'Quite Relevant',
    'Moderately Relevant',
  ]);
  return { user, articles, cookie: await readerCookie(token) };
}

function add(into: StorageCalls, calls: StorageCalls) {
  for (const [name, count] of Object.entries(calls)) into[name] = (into[name] ?? 0) + count;
}

describe('storage calls per operation', () => {
  it("the reader's page: the session with the reader in one read, then one Query", async () => {
    const { cookie } = await reader();
    await call(feedLoader, request(`${ORIGIN}/feed`, { headers: { Cookie: cookie } }));
    const page = await countStorageCalls(() =>
      call(feedLoader, request(`${ORIGIN}/feed`, { headers: { Cookie: cookie } })),
    );
    expect(page.result.status).toBe(200);
    expect(page.calls).toEqual({ 'dynamodb BatchGetItem': 1, 'dynamodb Query': 1 });

    // Every rating at once is one run of bands too: still one Query.
    const all = await countStorageCalls(() =>
      call(
        feedLoader,
        request(
          `${ORIGIN}/feed?rating=Very+Relevant&rating=Quite+Relevant&rating=Moderately+Relevant`,
          {
            headers: { Cookie: cookie },
          },
        ),
      ),
    );
    expect(all.result.status).toBe(200);
    expect(all.total).toBe(2);
  });

  it('a like, and the rebuild it asks for', async () => {
    const { cookie, articles, user } = await reader();
    const like = await countStorageCalls(() =>
      call(
        feedAction,
        request(
          `${ORIGIN}/feed`,
          form({ intent: 'feedback', kind: 'like', articleId: articles[1]!.id }, cookie),
        ),
      ),
    );
    expect(like.result.status).toBe(200);
    // The session and reader; the story, its feedback, the reader, the build slot and the rate
    // limit's windows; one transaction (with the conversation it opens, the rate limit's count,
    // and the build it queues with its slot); the build's message.
    expect(like.calls, JSON.stringify(like.calls)).toEqual({
      'dynamodb BatchGetItem': 2,
      'dynamodb TransactWriteItems': 1,
      'sqs SendMessage': 1,
    });
    // The next like, while that build is on its way, joins it: no build is queued.
    const next = await countStorageCalls(() =>
      call(
        feedAction,
        request(
          `${ORIGIN}/feed`,
          form({ intent: 'feedback', kind: 'like', articleId: articles[2]!.id }, cookie),
        ),
      ),
    );
    expect(next.result.status).toBe(200);
    expect(next.calls, JSON.stringify(next.calls)).toEqual({
      'dynamodb BatchGetItem': 2,
      'dynamodb TransactWriteItems': 1,
    });
    // The rebuild reads the stored list (ADR 0063, 0066) and writes only the entries that moved
    // (every story here is of the liked source): a batch of puts before the list is published and
    // one of deletes after; the reader's record is taken, published, let go and settled.
    const rebuild = await countStorageCalls(() => Feed.buildFeed(user.id));
    expect(rebuild.calls, JSON.stringify(rebuild.calls)).toEqual({
      'dynamodb GetItem': 3,
      'dynamodb BatchGetItem': 2,
      'dynamodb Query': 3,
      'dynamodb UpdateItem': 4,
      'dynamodb BatchWriteItem': 2,
    });
    // Built again with nothing changed, it writes nothing at all.
    const again = await countStorageCalls(() => Feed.buildFeed(user.id));
    expect(again.total, JSON.stringify(again.calls)).toBe(8);
    expect(Object.keys(again.calls).filter((name) => /Write|Update/.test(name))).toEqual([]);
  });

  it('a clue change', async () => {
    const { user } = await reader();
    // The reader's first scoring (queued with their clues) has ended: its slot is free again.
    await Jobs.ActiveProcessEntity.delete({ name: `score-new-clues#user#${user.id}` }).go();
    const change = await countStorageCalls(() =>
      Users.applyClueChanges(user.id, {
        category: 'change_clues',
        cluesToBeAdded: [{ clue: 'I audit lending pools' }],
        cluesToBeRemoved: [],
        mutesToBeAdded: [],
        mutesToBeRemoved: [],
      }),
    );
    expect(change.result.changed).toBe(true);
    // The reader and the rate limit's windows; the change with its count; queueing its scoring
    // (a transaction and a message).
    expect(change.calls, JSON.stringify(change.calls)).toEqual({
      'dynamodb BatchGetItem': 1,
      'dynamodb TransactWriteItems': 2,
      'sqs SendMessage': 1,
    });
  });

  it('a subscription, and its confirmation e-mail', async () => {
    const audience = await createAudience();
    const email = `r-${ulid().toLowerCase()}@example.org`;
    const subscribe = await countStorageCalls(() =>
      subscribeTo(request(`${ORIGIN}/a/${audience.slug}`, form({ email })), audience),
    );
    expect((subscribe.result as Response).status).toBe(302);
    // The audience, the address's claim and both rate limits' windows in one read; the visitor's
    // count on its own item (one update); the subscriber, its claim, membership, event,
    // e-mail and the address's count in one transaction; the e-mail's message.
    expect(subscribe.total, JSON.stringify(subscribe.calls)).toBe(4);
    expect(subscribe.calls).toMatchObject({
      'dynamodb BatchGetItem': 1,
      'dynamodb TransactWriteItems': 1,
      'sqs SendMessage': 1,
    });
    const queued = (await Outbox.recent({ limit: 200 })).find(({ to }) => to === email)!;
    const messages = await receiveEmails([queued.id]);
    const sent = await countStorageCalls(() => Outbox.handleBatch(messages));
    expect((await Outbox.byId(queued.id))?.status).toBe('sent');
    expect(sent.total, JSON.stringify(sent.calls)).toBe(SENT_CALLS);
  });

  it('one newsletter e-mail, from the send to its settle, and no item written by every e-mail', async () => {
    const READERS = 20;
    const { readers } = await dailyWorld(READERS);
    const jobs = Jobs.registry([Newsletter.sendNewsletters]);
    const calls: StorageCalls = {};
    const writes: ItemWrites = {};
    const counted = async (operation: () => Promise<unknown>) => {
      const made = await countStorageCalls(operation);
      add(calls, made.calls);
      add(writes, made.writes);
    };

    let process: Jobs.Process | undefined;
    await counted(async () => {
      process = await Jobs.enqueue(Newsletter.sendNewsletters, {}, 'admin-1');
    });
    // The process's message plans its chunks; the chunks write and send the e-mails.
    for (let round = 0; round < 2; round++) {
      const messages = await receive(process!.id);
      for (const message of messages) await counted(() => Jobs.handleBatch([message], jobs));
    }
    const emails = (await Outbox.recent({ limit: 200 })).filter(({ to }) =>
      readers.some(({ email }) => email === to),
    );
    expect(emails).toHaveLength(READERS);
    for (const { id } of emails) expect((await Outbox.byId(id))?.status).toBe('sent');
    const issueId = Newsletter.periodIssueId('daily', decodeTime(process!.id));
    expect(await Newsletter.issueById(issueId)).toMatchObject({
      sent: READERS,
      queued: 0,
      status: 'done',
    });
    expect(totalOf(calls) / READERS, JSON.stringify(calls)).toBeLessThanOrEqual(NEWSLETTER_CALLS);
    // The items every e-mail of an issue would share (the issue, the process, the send rate) are
    // written once a group of e-mails at most, never once an e-mail.
    const mostWritten = Math.max(...Object.values(writes));
    expect(mostWritten, JSON.stringify(writes)).toBeLessThanOrEqual(SHARED_ITEM_WRITES);
  });
});
