// 'Send newsletters': a digest per confirmed member of an issue's audiences. Run by the schedule
// of a frequency (or the admin action) it sends the period's issue, e.g. today's daily one, so a
// second run in the same period finds the same issue and window and sends nobody a second copy;
// run for a campaign it sends the issue the setup page made. The plan splits the members into
// chunks. A chunk takes its subscribers ten at a time: it composes their digests, takes send
// slots for as many as the second has room for, and writes those Deliveries in one transaction,
// each with the outbox e-mail that carries it (written claimed), the stories it sends and the
// issue it marks on the subscriber, while the issue counts them once; then it sends them at once,
// and the outbox settles them in one transaction more (ADR 0067). A redelivered chunk or a planner that runs again writes nothing
// twice: a Delivery is created once. An e-mail whose sender died is sent by the outbox's recovery
// once its lease ends; one that failed for now is retried by the outbox.
import type { EntityItem } from 'electrodb';
import { decodeTime } from 'ulid';
import * as v from 'valibot';
import * as Audiences from '#core/audiences';
import { committed, committedTogether } from '#core/db';
import * as Jobs from '#core/jobs';
import * as Outbox from '#core/outbox';
import * as Subscribers from '#core/subscribers';
import { composeDigest } from './compose';
import { digestEmail } from './email';
import { sharedReads, type DigestReads } from './reads';
import type { Frequency } from './digest';
import { DeliveryEntity } from './delivery-entity';
import { closeIfSettled } from './issue-close';
import { countOne, NewsletterIssueEntity, type SkipReason } from './issue-entity';
import { SentStoriesEntity } from './sent-stories-entity';
import { NOTHING_SENT, sentAfter, type SentStories } from './sent-stories';

export type NewsletterIssue = EntityItem<typeof NewsletterIssueEntity>;
export type Delivery = EntityItem<typeof DeliveryEntity>;

/** How far back an issue's content window reaches from the run's start. */
export const WINDOW_MS: Record<Frequency, number> = {
  daily: 24 * 3600_000,
  weekly: 7 * 24 * 3600_000,
};
/** Subscribers per chunk message. */
export const SUBSCRIBERS_PER_CHUNK = 25;
/**
 * Subscribers of one chunk decided together; their e-mails are written and sent as many at a time
 * as the send rate has room for.
 */
const SENT_TOGETHER = 10;
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

/** What the send decided for one subscriber, to be written with the others of its group. */
type Decided =
  | { subscriberId: string; without: { status: 'skipped'; reason: SkipReason } }
  | { subscriberId: string; without: { status: 'failed'; reason: string } }
  | {
      subscriberId: string;
      subscriber: Subscribers.Subscriber;
      email: Outbox.OutboundEmail;
      before: SentStories;
      stories: SentStories['stories'];
    };

type Emailed = Extract<Decided, { email: Outbox.OutboundEmail }>;

/** Composes the subscriber's digest and decides what their Delivery will be. */
async function decide(
  issue: NewsletterIssue,
  subscriberId: string,
  subscriber: Subscribers.Subscriber | undefined,
  reads: DigestReads,
): Promise<Decided> {
  const reason = notConfirmed(subscriber);
  if (reason || !subscriber)
    return { subscriberId, without: { status: 'skipped', reason: reason ?? 'gone' } };
  const digest = await composeDigest(
    subscriber,
    { frequency: issue.frequency, from: issue.from, to: issue.to, audienceIds: issue.audienceIds },
    reads,
  );
  if (digest.empty) return { subscriberId, without: { status: 'skipped', reason: digest.why } };
  try {
    const email = digestEmail(issue.id, subscriber, digest);
    const before = digest.sentBefore;
    const stories = sentAfter(
      before,
      digest.sections.flatMap((section) => section.stories),
      now(),
    );
    return { subscriberId, subscriber, email, before, stories };
  } catch (error) {
    // Props the template refuses would be refused on every run: recorded, not retried.
    if (!(error instanceof v.ValiError)) throw error;
    return { subscriberId, without: { status: 'failed', reason: error.message } };
  }
}

/** What the issue counts for these decisions: e-mails queued, and the rest by status and reason. */
function countsOf(decided: readonly Decided[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const one of decided) {
    if (!('without' in one)) countOne(counts, 'queued');
    else if (one.without.status === 'failed') countOne(counts, 'failed');
    else countOne(counts, 'skipped', one.without.reason);
  }
  return counts;
}

/**
 * Writes a group's Deliveries in one transaction: each e-mail with its Delivery, the stories it
 * sends and the issue it marks on the subscriber, conditioned on the subscriber still wanting it
 * at this address and on the stories they were sent as the digest read them; the issue counts
 * them all in one write. Answers the decisions written and those refused (a Delivery exists, or
 * the subscriber or their stories changed since they were read).
 */
async function writeDeliveries(issue: NewsletterIssue, decided: readonly Decided[]) {
  return committedTogether(
    {
      delivery: DeliveryEntity,
      outbox: Outbox.OutboundEmailEntity,
      issue: NewsletterIssueEntity,
      sent: SentStoriesEntity,
      subscriber: Subscribers.SubscriberEntity,
    },
    decided,
    (one, entities) => {
      const { subscriberId } = one;
      if ('without' in one)
        return [
          entities.delivery
            .create({ issueId: issue.id, subscriberId, ...one.without, createdAt: now() })
            .commit(),
        ];
      const { subscriber, email, before, stories } = one;
      const linkVersion = subscriber.linkVersion ?? 0;
      return [
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
        // Conditioned on what the digest was composed from: another issue that sent the
        // subscriber stories meanwhile makes this one compose again.
        before.version === 0
          ? entities.sent.create({ subscriberId, stories, version: 1 }).commit()
          : entities.sent
              .patch({ subscriberId })
              .set({ stories, version: before.version + 1 })
              .where((attr, op) => op.eq(attr.version, before.version))
              .commit(),
        // Their unsubscribe counts against the issue they were last sent; and only while they
        // still want it at this address does it go out.
        entities.subscriber
          .patch({ id: subscriberId })
          .set({ lastIssueId: issue.id, lastIssueSentAt: email.createdAt })
          .where(
            (attr, op) =>
              `${op.eq(attr.status, 'subscribed')} AND ${op.eq(attr.email, subscriber.email)} AND ${
                linkVersion === 0
                  ? `(${op.notExists(attr.linkVersion)} OR ${op.eq(attr.linkVersion, 0)})`
                  : op.eq(attr.linkVersion, linkVersion)
              }`,
          )
          .commit(),
      ];
    },
    (written, entities) => [entities.issue.patch({ id: issue.id }).add(countsOf(written)).commit()],
  );
}

/**
 * Times a subscriber's Delivery is decided again after its write was refused (they changed, or
 * another issue recorded stories for them, between the read and the write); then the chunk runs
 * again.
 */
const DECIDE_ATTEMPTS = 3;

/** The outcome the chunk reports for a decision written. */
function outcomeOf(one: Decided, sent: Outbox.Outcome | undefined): Outcome {
  if (!('without' in one)) return sent?.result === 'failed' ? 'failed' : 'queued';
  return one.without.status === 'failed' ? 'failed' : { skipped: one.without.reason };
}

/**
 * One group's Deliveries: decided together, then written and sent as many at a time as the send
 * rate has room for; a subscriber whose write was refused is read again and decided again.
 */
async function deliverGroup(
  issue: NewsletterIssue,
  subscriberIds: readonly string[],
  subscribers: Map<string, Subscribers.Subscriber>,
  reads: DigestReads,
): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  let left = [...subscriberIds];
  for (let attempt = 1; left.length > 0; attempt++) {
    const decided = await Promise.all(
      left.map((id) => decide(issue, id, subscribers.get(id), reads)),
    );
    // Skips need no send slot: they are written with the first e-mails.
    let next = decided.filter((one) => 'without' in one);
    const emails = decided.filter((one): one is Emailed => 'email' in one);
    const refused: Decided[] = [];
    do {
      // As many of the e-mails as the second has room for, their slots taken before the write
      // that claims them, so their leases start after any wait.
      const granted = emails.length > 0 ? (await Outbox.takeSendSlots(emails.length)).granted : 0;
      const leased = emails
        .splice(0, granted)
        .map((one) => ({ ...one, email: Outbox.leasedFromNow(one.email) }));
      const batch = [...next, ...leased];
      next = [];
      const written = await writeDeliveries(issue, batch);
      refused.push(...written.refused);
      const claimed = written.committed.flatMap((one) => ('email' in one ? [one.email] : []));
      const sent = new Map(
        (await Outbox.sendClaimed(claimed)).map((outcome, index) => [claimed[index]!.id, outcome]),
      );
      for (const one of written.committed)
        outcomes.push(outcomeOf(one, 'email' in one ? sent.get(one.email.id) : undefined));
    } while (emails.length > 0);
    left = [];
    for (const { subscriberId } of refused) {
      if (await deliveryOf(issue.id, subscriberId)) {
        outcomes.push('alreadyDone');
        continue;
      }
      if (attempt >= DECIDE_ATTEMPTS)
        throw new Error(`The digest of ${subscriberId} kept being refused while it was written`);
      const { data } = await Subscribers.SubscriberEntity.get({ id: subscriberId }).go({
        consistent: true,
      });
      if (data) subscribers.set(subscriberId, data);
      else subscribers.delete(subscriberId);
      left.push(subscriberId);
    }
  }
  return outcomes;
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
    const [{ data: found }, { data: written }, { data: sentItems }] = await Promise.all([
      Subscribers.SubscriberEntity.get(keys).go({ consistent: true }),
      DeliveryEntity.get(
        chunk.subscriberIds.map((subscriberId) => ({ issueId: issue.id, subscriberId })),
      ).go({ consistent: true, attributes: ['subscriberId'] }),
      SentStoriesEntity.get(chunk.subscriberIds.map((subscriberId) => ({ subscriberId }))).go({
        consistent: true,
      }),
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
    const sent = new Map(
      chunk.subscriberIds.map((id): [string, SentStories] => [id, NOTHING_SENT]),
    );
    for (const { subscriberId, version, stories } of sentItems)
      sent.set(subscriberId, { version, stories });
    const reads = sharedReads(sent);
    const pending = chunk.subscriberIds.filter((id) => !done.has(id));
    for (let start = 0; start < pending.length; start += SENT_TOGETHER) {
      const group = pending.slice(start, start + SENT_TOGETHER);
      for (const outcome of await deliverGroup(issue, group, subscribers, reads)) {
        if (typeof outcome === 'string') countOne(totals, outcome);
        else countOne(totals, 'skipped', outcome.skipped);
      }
      await context.progress(0);
    }
    await closeIfSettled(issue.id);
    return totals;
  },
});
