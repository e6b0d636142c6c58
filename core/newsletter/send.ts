// 'Send newsletters': a digest per confirmed member of an issue's audiences. Run by the schedule
// of a frequency (or the admin action) it sends the period's issue, e.g. today's daily one, so a
// second run in the same period finds the same issue and window and sends nobody a second copy;
// run for a campaign it sends the issue the setup page made. The plan splits the members into
// chunks; each subscriber's Delivery is written once, in the same transaction as the outbox
// e-mail that carries their digest, so a redelivered chunk or a planner that runs again queues
// nothing twice. Sending, retrying and settling the e-mail is the outbox's work (core/outbox).
import { createWriteTransaction, type EntityItem } from 'electrodb';
import { decodeTime } from 'ulid';
import * as v from 'valibot';
import * as Audiences from '#core/audiences';
import { mapPool } from '#core/common';
import { committed, committedOnce } from '#core/db';
import * as Jobs from '#core/jobs';
import * as Outbox from '#core/outbox';
import * as Subscribers from '#core/subscribers';
import { composeDigest } from './compose';
import { digestEmail } from './email';
import { sharedReads, type DigestReads } from './reads';
import type { Frequency } from './digest';
import { DeliveryEntity } from './delivery-entity';
import { closeIfSettled } from './issue-close';
import { NewsletterIssueEntity, SKIP_COUNTS, type SkipReason } from './issue-entity';

export type NewsletterIssue = EntityItem<typeof NewsletterIssueEntity>;
export type Delivery = EntityItem<typeof DeliveryEntity>;

/** How far back an issue's content window reaches from the run's start. */
export const WINDOW_MS: Record<Frequency, number> = {
  daily: 24 * 3600_000,
  weekly: 7 * 24 * 3600_000,
};
/** Subscribers per chunk message. */
export const SUBSCRIBERS_PER_CHUNK = 25;
/** Subscribers of one chunk composed and queued at once. */
const SEND_CONCURRENCY = 5;
/** Audience members read per Query while planning. */
const MEMBERS_PAGE = 500;

export const SendInput = v.object({
  frequency: v.optional(v.picklist(['daily', 'weekly']), 'daily'),
  /** A campaign's issue (setup page); without it, the frequency's issue of the current period. */
  issueId: v.optional(v.pipe(v.string(), v.regex(/^[0-9A-Z]{26}$/, 'Not an issue id'))),
});

type SendChunk = { issueId: string; subscriberIds: string[] };
type Outcome = 'queued' | 'failed' | 'alreadyDone' | { skipped: SkipReason };

const now = () => new Date().toISOString();

export async function issueById(id: string): Promise<NewsletterIssue | undefined> {
  const { data } = await NewsletterIssueEntity.get({ id }).go({ consistent: true });
  return data ?? undefined;
}

/** An issue's Delivery for one subscriber, if it was written. */
export async function deliveryOf(
  issueId: string,
  subscriberId: string,
): Promise<Delivery | undefined> {
  const { data } = await DeliveryEntity.get({ issueId, subscriberId }).go({ consistent: true });
  return data ?? undefined;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The period an issue of `frequency` sent at `at` belongs to: its UTC day or ISO week. */
export function periodOf(frequency: Frequency, at: number): string {
  const date = new Date(at);
  if (frequency === 'daily') return date.toISOString().slice(0, 10);
  // ISO 8601: weeks start on Monday and belong to the year of their Thursday.
  const thursday = new Date(
    Date.UTC(
      date.getUTCFullYear(),
      date.getUTCMonth(),
      date.getUTCDate() + 4 - (date.getUTCDay() || 7),
    ),
  );
  const yearStart = Date.UTC(thursday.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((thursday.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return `${thursday.getUTCFullYear()}-W${pad(week)}`;
}

/** The id of the issue of `frequency` for the period of `at`, e.g. `daily-2026-11-23`. */
export const periodIssueId = (frequency: Frequency, at: number) =>
  `${frequency}-${periodOf(frequency, at)}`;

/**
 * The period's issue, created by the first run in the period: its window ends when that run was
 * queued (its process id's time) and starts where the previous period's issue ended, so
 * consecutive issues never carry the same pick and none falls between them (an early press the
 * day before makes today's window longer than a day: less than two, since that issue ended in the
 * previous period). Without an issue in the previous period it reaches one period back. Every
 * later run in the period finds the issue as it was.
 */
async function periodIssue(processId: string, frequency: Frequency): Promise<NewsletterIssue> {
  const end = decodeTime(processId);
  const id = periodIssueId(frequency, end);
  const existing = await issueById(id);
  if (existing) return existing;
  const previous = await issueById(periodIssueId(frequency, end - WINDOW_MS[frequency]));
  const from = previous ? Date.parse(previous.to) : end - WINDOW_MS[frequency];
  const audiences = (await Audiences.list()).filter(
    (audience) => audience.state === 'active' && audience.frequency === frequency,
  );
  return createIssue({
    id,
    origin: 'schedule',
    frequency,
    from: new Date(from).toISOString(),
    to: new Date(end).toISOString(),
    audienceIds: audiences.map((audience) => audience.id),
    status: 'sending',
    processId,
    startedAt: now(),
    createdAt: now(),
  });
}

/** Creates an issue once; a second creator gets the first one's. */
async function createIssue(issue: NewsletterIssue): Promise<NewsletterIssue> {
  // Read back either way: the stored issue, with its counts' defaults, whoever created it.
  await committed(NewsletterIssueEntity.create(issue));
  return (await issueById(issue.id))!;
}

/** A campaign's issue, marked sending by this process (it may have been scheduled). */
async function campaignIssue(processId: string, issueId: string): Promise<NewsletterIssue> {
  const issue = await issueById(issueId);
  if (!issue) throw new Error(`No newsletter issue ${issueId}`);
  if (issue.status === 'scheduled') {
    // Refused when another process marked it first: it is read again below either way.
    await committed(
      NewsletterIssueEntity.patch({ id: issueId })
        .set({ status: 'sending', processId, startedAt: now() })
        .where((attr, op) => op.eq(attr.status, 'scheduled')),
    );
  }
  return (await issueById(issueId))!;
}

/** The distinct members of the audiences, in the order first met, page by page. */
async function membersOf(audienceIds: readonly string[]): Promise<string[]> {
  const ids = new Set<string>();
  for (const audienceId of audienceIds) {
    let cursor: string | null = null;
    do {
      const page: { subscriberIds: string[]; cursor: string | null } = await Subscribers.byAudience(
        { audienceId, cursor, limit: MEMBERS_PAGE },
      );
      for (const id of page.subscriberIds) ids.add(id);
      cursor = page.cursor;
    } while (cursor);
  }
  return [...ids];
}

/** Why a subscriber gets no issue whatever it holds; undefined when they may get one. */
function notConfirmed(subscriber: Subscribers.Subscriber | undefined): SkipReason | undefined {
  if (!subscriber) return 'gone';
  if (subscriber.status === 'subscribed') return undefined;
  return subscriber.status === 'pending' ? 'not confirmed' : subscriber.status;
}

/**
 * Writes a Delivery that carries no e-mail (skipped, or failed with the error) with the issue's
 * counts; false when the subscriber has a Delivery already.
 */
async function writeWithout(
  issue: NewsletterIssue,
  subscriberId: string,
  outcome: { status: 'skipped'; reason: SkipReason } | { status: 'failed'; reason: string },
): Promise<boolean> {
  const { status, reason } = outcome;
  const counts =
    outcome.status === 'skipped' ? { skipped: 1, [SKIP_COUNTS[outcome.reason]]: 1 } : { failed: 1 };
  return committedOnce(
    createWriteTransaction(
      { delivery: DeliveryEntity, issue: NewsletterIssueEntity },
      (entities) => [
        entities.delivery
          .create({ issueId: issue.id, subscriberId, status, reason, createdAt: now() })
          .commit(),
        entities.issue.patch({ id: issue.id }).add(counts).commit(),
      ],
    ),
  );
}

/** A skip, or `alreadyDone` when the subscriber had their Delivery before. */
async function skip(
  issue: NewsletterIssue,
  subscriberId: string,
  reason: SkipReason,
): Promise<Outcome> {
  return (await writeWithout(issue, subscriberId, { status: 'skipped', reason }))
    ? { skipped: reason }
    : 'alreadyDone';
}

/** One subscriber's part of the issue; infrastructure errors propagate so the chunk runs again. */
async function deliverTo(
  issue: NewsletterIssue,
  subscriberId: string,
  subscriber: Subscribers.Subscriber | undefined,
  reads: DigestReads,
): Promise<Outcome> {
  const reason = notConfirmed(subscriber);
  if (reason || !subscriber) return skip(issue, subscriberId, reason ?? 'gone');
  const digest = await composeDigest(
    subscriber,
    {
      frequency: issue.frequency,
      from: issue.from,
      to: issue.to,
      audienceIds: issue.audienceIds,
    },
    reads,
  );
  if (digest.empty) return skip(issue, subscriberId, digest.why);
  let email: Outbox.OutboundEmail;
  try {
    email = digestEmail(issue.id, subscriber, digest);
  } catch (error) {
    // Props the template refuses would be refused on every run: recorded, not retried.
    if (!(error instanceof v.ValiError)) throw error;
    return (await writeWithout(issue, subscriberId, { status: 'failed', reason: error.message }))
      ? 'failed'
      : 'alreadyDone';
  }
  // Every one of them adds to the issue's counts: one that collided with another on the issue
  // is tried again, never taken for a Delivery written before.
  const written = await committedOnce(
    createWriteTransaction(
      {
        delivery: DeliveryEntity,
        outbox: Outbox.OutboundEmailEntity,
        issue: NewsletterIssueEntity,
      },
      (entities) => [
        entities.delivery
          .create({
            issueId: issue.id,
            subscriberId,
            status: 'queued',
            outboundEmailId: email.id,
            createdAt: now(),
          })
          .commit(),
        entities.outbox.create(email).commit(),
        entities.issue.patch({ id: issue.id }).add({ queued: 1 }).commit(),
      ],
    ),
  );
  if (!written) return 'alreadyDone';
  // The outbox's worker sends it from its own message: a chunk stays a few quick writes, so a
  // worker that dies mid-chunk costs the chunk little, and e-mails go out in parallel.
  await Outbox.dispatch([email]);
  return 'queued';
}

export const sendNewsletters = Jobs.defineChunkedJob({
  name: 'send-newsletters',
  title: 'Sending newsletters',
  slot: 'newsletter',
  // Its chunks queue the digests: on the e-mail queue, so no long job holds them up (ADR 0058).
  queue: 'email',
  input: SendInput,
  async plan(input, context): Promise<SendChunk[]> {
    const issue = input.issueId
      ? await campaignIssue(context.processId, input.issueId)
      : await periodIssue(context.processId, input.frequency);
    if (issue.status === 'cancelled') {
      context.log.info('The campaign was cancelled before it started: nothing to send', {
        issueId: issue.id,
      });
      return [];
    }
    const subscriberIds = await membersOf(issue.audienceIds);
    // Set, not added: a planner that runs again plans the members as they are now.
    await NewsletterIssueEntity.patch({ id: issue.id })
      .set({ recipients: subscriberIds.length })
      .go();
    context.log.info(
      `Sending the ${issue.frequency} issue to ${subscriberIds.length} subscriber(s) of ${issue.audienceIds.length} audience(s)`,
      { issueId: issue.id, from: issue.from, to: issue.to },
    );
    if (subscriberIds.length === 0) await closeIfSettled(issue.id);
    const chunks: SendChunk[] = [];
    for (let start = 0; start < subscriberIds.length; start += SUBSCRIBERS_PER_CHUNK)
      chunks.push({
        issueId: issue.id,
        subscriberIds: subscriberIds.slice(start, start + SUBSCRIBERS_PER_CHUNK),
      });
    return chunks;
  },
  async runChunk(chunk, _input, context) {
    const issue = await issueById(chunk.issueId);
    if (!issue) throw new Error(`No newsletter issue ${chunk.issueId}`);
    const keys = chunk.subscriberIds.map((id) => ({ id }));
    const [{ data: found }, { data: written }] = await Promise.all([
      Subscribers.SubscriberEntity.get(keys).go({ consistent: true }),
      DeliveryEntity.get(
        chunk.subscriberIds.map((subscriberId) => ({ issueId: issue.id, subscriberId })),
      ).go({ consistent: true, attributes: ['subscriberId'] }),
    ]);
    const subscribers = new Map(found.map((subscriber) => [subscriber.id, subscriber]));
    const done = new Set(written.map((delivery) => delivery.subscriberId));
    // Skips are also counted by reason, under the issue's names for them (SKIP_COUNTS).
    const totals: Record<string, number> = {
      queued: 0,
      skipped: 0,
      failed: 0,
      alreadyDone: done.size,
    };
    const reads = sharedReads();
    let handled = 0;
    await mapPool(
      chunk.subscriberIds.filter((id) => !done.has(id)),
      SEND_CONCURRENCY,
      async (subscriberId) => {
        const outcome = await deliverTo(issue, subscriberId, subscribers.get(subscriberId), reads);
        if (typeof outcome === 'string') totals[outcome]! += 1;
        else {
          const count = SKIP_COUNTS[outcome.skipped];
          totals.skipped! += 1;
          totals[count] = (totals[count] ?? 0) + 1;
        }
        if (++handled % 10 === 0) await context.progress(0);
      },
    );
    await closeIfSettled(issue.id);
    return totals;
  },
});
