// The analytics rollup: a scheduled job recounts each day since the watermark whole from its
// events and stores the day's counts in one item, then carries the audiences' subscriber totals
// forward day by day and moves the watermark. Recounting a day whole (never adding to it) makes
// every step idempotent: a crashed or redelivered chunk recounts its days again to the same
// figures, and the watermark moves only once every day is counted.
import * as v from 'valibot';
import { decodeTime } from 'ulid';
import * as Jobs from '#core/jobs';
import { isConditionFailure } from '#core/db';
import * as Analytics from '#core/analytics';
import { DayRollupEntity } from './day-rollup-entity';
import { RollupWatermarkEntity } from './rollup-watermark-entity';

export { DayRollupEntity, RollupWatermarkEntity };

export const FUNNEL_STEPS = [
  'visit',
  'subscribe',
  'confirm',
  'invited',
  'funnel_started',
  'onboarded',
  'feed_first_visit',
] as const;
export type FunnelStep = (typeof FUNNEL_STEPS)[number];

/** The funnel step each event counts for. */
export const STEP_OF: Partial<Record<Analytics.AnalyticsEvent['name'], FunnelStep>> = {
  page_view: 'visit',
  subscribe: 'subscribe',
  subscription_confirmed: 'confirm',
  invited: 'invited',
  funnel_started: 'funnel_started',
  onboarded: 'onboarded',
  feed_first_visit: 'feed_first_visit',
};

/** Separates the parts of a count's key (utm and raud never hold it: they are `[\w.~-]*`). */
export const SEPARATOR = '\t';

/** Rare values beyond a day's caps are counted together under this name. */
export const OTHER = '(other)';

/**
 * How many distinct values a day keeps: visitors choose utm and raud, so a day's item stays
 * bounded (well under DynamoDB's 400 KB) whatever they send.
 */
export const DAY_CAPS = { utm: 50, raud: 50, suggestions: 50, clicks: 500 } as const;

export type ReaderCounts = { active: number; likes: number; dislikes: number; clueChanges: number };

export type DayCounts = {
  /** `{step}\t{utm}\t{vus}` -> events ('' for no campaign, the default landing). */
  campaigns: Record<string, number>;
  /** `{step}\t{raud}` -> events. */
  referrers: Record<string, number>;
  /** Audience id -> confirmed subscriptions that gained it, or lost it. */
  joined: Record<string, number>;
  left: Record<string, number>;
  /** Upcoming niche id -> votes given minus withdrawn. */
  votes: Record<string, number>;
  /** Suggested audience, lower-cased -> times suggested. */
  suggestions: Record<string, number>;
  /** `{issueId}\t{articleId}` -> clicks. */
  clicks: Record<string, number>;
  readers: ReaderCounts;
};

const add = (counts: Record<string, number>, key: string, by = 1) => {
  counts[key] = (counts[key] ?? 0) + by;
};

/** The counts of a day without events. */
export function emptyDayCounts(): DayCounts {
  return {
    campaigns: {},
    referrers: {},
    joined: {},
    left: {},
    votes: {},
    suggestions: {},
    clicks: {},
    readers: { active: 0, likes: 0, dislikes: 0, clueChanges: 0 },
  };
}

/** A day's counts from its events. */
export function countEvents(events: readonly Analytics.AnalyticsEvent[]): DayCounts {
  const counts = emptyDayCounts();
  const utms = capped(events, (event) => event.utm ?? '', DAY_CAPS.utm);
  const rauds = capped(events, (event) => event.raud ?? '', DAY_CAPS.raud);
  for (const event of events) {
    const step = STEP_OF[event.name];
    if (step) {
      add(counts.campaigns, [step, utms(event.utm ?? ''), event.vus ?? ''].join(SEPARATOR));
      add(counts.referrers, [step, rauds(event.raud ?? '')].join(SEPARATOR));
    }
    const audienceIds = event.audienceIds ?? [];
    switch (event.name) {
      case 'subscription_confirmed':
      case 'audience_added':
        for (const id of audienceIds) add(counts.joined, id);
        break;
      case 'unsubscribe':
      case 'address_changed':
      case 'audience_removed':
        for (const id of audienceIds) add(counts.left, id);
        break;
      case 'niche_voted':
        for (const id of audienceIds) add(counts.votes, id);
        break;
      case 'niche_unvoted':
        for (const id of audienceIds) add(counts.votes, id, -1);
        break;
      case 'audience_suggested':
        if (event.text) add(counts.suggestions, suggestionKey(event.text));
        break;
      case 'newsletter_click':
        if (event.issueId && event.articleId)
          add(counts.clicks, [event.issueId, event.articleId].join(SEPARATOR));
        break;
      case 'reader_active':
        counts.readers.active++;
        break;
      case 'story_liked':
        counts.readers.likes++;
        break;
      case 'story_disliked':
        counts.readers.dislikes++;
        break;
      case 'clues_changed':
        counts.readers.clueChanges++;
        break;
    }
  }
  counts.suggestions = foldRare(counts.suggestions, DAY_CAPS.suggestions);
  counts.clicks = foldRare(counts.clicks, DAY_CAPS.clicks);
  return counts;
}

const suggestionKey = (text: string) => text.trim().toLowerCase().slice(0, 100);

/**
 * Keeps `cap` values of `valueOf` (and ''), mapping the rest to OTHER: first those that brought
 * the most steps (subscriptions, confirmations, readers), then those seen most in page views. A
 * visitor can make up utm values for page views, but not the steps a real campaign brings, so
 * made-up values cannot push a real campaign into OTHER.
 */
function capped(
  events: readonly Analytics.AnalyticsEvent[],
  valueOf: (event: Analytics.AnalyticsEvent) => string,
  cap: number,
) {
  const steps: Record<string, number> = {};
  const views: Record<string, number> = {};
  for (const event of events) add(event.name === 'page_view' ? views : steps, valueOf(event));
  const kept = new Set(
    [...new Set([...Object.keys(steps), ...Object.keys(views)])]
      .filter((value) => value !== '')
      .sort(
        (a, b) =>
          (steps[b] ?? 0) - (steps[a] ?? 0) ||
          (views[b] ?? 0) - (views[a] ?? 0) ||
          (a < b ? -1 : 1),
      )
      .slice(0, cap),
  );
  return (value: string) => (value === '' || kept.has(value) ? value : OTHER);
}

/** The `cap` largest counts, the rest summed under OTHER. */
function foldRare(counts: Record<string, number>, cap: number): Record<string, number> {
  const entries = Object.entries(counts).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
  const folded = Object.fromEntries(entries.slice(0, cap));
  for (const [, count] of entries.slice(cap)) add(folded, OTHER, count);
  return folded;
}

/** Reads a day's events and counts them. */
export async function countDay(day: string): Promise<DayCounts> {
  return countEvents(await Analytics.forDay(day));
}

/** How far behind its stamp an event may commit and still be counted by the next rollup. */
export const COMMIT_LAG_MS = 5 * 60_000;
/** The first rollup counts this many days back, so a range of up to a year has its figures. */
export const FIRST_ROLLUP_DAYS = 366;
/**
 * A later rollup recounts at most this many days before today, however old the watermark: page
 * views expire PAGE_VIEW_RETENTION_DAYS after their page was served, and a recount must never
 * miss one. Two days apart: a day's first view is at most a day older than the day, and a run
 * gets a day's grace to finish. An older day keeps the counts it was last given.
 */
export const RECOUNT_DAYS = Analytics.PAGE_VIEW_RETENTION_DAYS - 2;
const DAYS_PER_CHUNK = 31;
/** Days of a chunk counted side by side. */
const DAYS_AT_ONCE = 8;
const DAY_MS = 86_400_000;

export const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);
export const addDays = (day: string, days: number) =>
  dayOf(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS);

/** Days from `from` to `to`, both included (by time: a day past year 9999 sorts before them). */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  const last = Date.parse(`${to}T00:00:00Z`);
  for (let time = Date.parse(`${from}T00:00:00Z`); time <= last; time += DAY_MS)
    days.push(dayOf(time));
  return days;
}

/** How many days `daysBetween(from, to)` holds, without listing them. */
export const dayCount = (from: string, to: string) =>
  Math.max(0, (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS + 1);

export async function watermark() {
  const { data } = await RollupWatermarkEntity.get({}).go({ consistent: true });
  return data ?? undefined;
}

/**
 * The days a rollup at `now` recounts: from the watermark's day (a year back at first), but never
 * more than RECOUNT_DAYS back, to today.
 */
export async function daysToCount(now: number): Promise<string[]> {
  const through = (await watermark())?.through;
  if (!through) return daysBetween(dayOf(now - FIRST_ROLLUP_DAYS * DAY_MS), dayOf(now));
  const oldest = dayOf(now - RECOUNT_DAYS * DAY_MS);
  const from = through.slice(0, 10);
  return daysBetween(from > oldest ? from : oldest, dayOf(now));
}

/**
 * Recounts a day and stores its counts when it had events (its subscriber totals are carried in
 * `succeeded`). A day without events keeps no item: the page carries the totals over it.
 */
export async function rollUpDay(day: string): Promise<DayCounts | undefined> {
  const counts = await countDay(day);
  if (isEmpty(counts)) return undefined;
  await DayRollupEntity.upsert({
    day,
    counts: JSON.stringify(counts),
    countedAt: new Date().toISOString(),
  }).go();
  await figuresChanged();
  return counts;
}

/**
 * After the days' figures were written: a kept report of an earlier revision is outdated. The
 * first revision is the time in ms, so a watermark deleted and made again starts above any
 * revision of before (a rollup adds far fewer than one a millisecond).
 */
async function figuresChanged(): Promise<void> {
  for (;;) {
    try {
      await RollupWatermarkEntity.update({})
        .add({ revision: 1 })
        .where((attr, op) => op.exists(attr.revision))
        .go();
      return;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    try {
      await RollupWatermarkEntity.update({})
        .set({ revision: Date.now() })
        .where((attr, op) => op.notExists(attr.revision))
        .go();
      return;
    } catch (error) {
      // Another write set the first revision meanwhile: add to it.
      if (!isConditionFailure(error)) throw error;
    }
  }
}

const isEmpty = (counts: DayCounts) =>
  Object.values(counts).every((part) => Object.values(part).every((n) => n === 0));

export type DayRollup = {
  day: string;
  counts?: DayCounts;
  subscribers?: Record<string, number>;
  countedAt?: string;
};

type StoredDay = { day: string; counts?: string; subscribers?: string; countedAt?: string };

const parsed = (item: StoredDay): DayRollup => ({
  day: item.day,
  counts: item.counts === undefined ? undefined : (JSON.parse(item.counts) as DayCounts),
  subscribers:
    item.subscribers === undefined
      ? undefined
      : (JSON.parse(item.subscribers) as Record<string, number>),
  countedAt: item.countedAt,
});

/**
 * The stored days from `from` to `to`, in order: one Query, paged to its end. The rollup reads
 * strongly consistent (it reads what its chunks just wrote); the page needs not.
 */
export async function daysStored(
  from: string,
  to: string,
  { consistent = false } = {},
): Promise<DayRollup[]> {
  const { data } = await DayRollupEntity.query
    .byDay({})
    .between({ day: from }, { day: to })
    .go({ pages: 'all', consistent });
  return data.map(parsed);
}

/** The last stored day before `day` (its totals are the ones `day` starts from). */
export async function dayBefore(
  day: string,
  { consistent = false } = {},
): Promise<DayRollup | undefined> {
  const { data } = await DayRollupEntity.query
    .byDay({})
    .lt({ day })
    .go({ order: 'desc', limit: 1, consistent });
  return data[0] && parsed(data[0]);
}

/**
 * Carries the audiences' confirmed subscribers from the last day before `from` through every
 * stored day since: a day's total is the day before's plus its joins minus its leaves.
 */
async function carrySubscribers(from: string, to: string): Promise<void> {
  const [before, days] = await Promise.all([
    dayBefore(from, { consistent: true }),
    daysStored(from, to, { consistent: true }),
  ]);
  let running: Record<string, number> = { ...before?.subscribers };
  for (const { day, counts } of days) {
    const next: Record<string, number> = { ...running };
    for (const [id, n] of Object.entries(counts?.joined ?? {})) add(next, id, n);
    for (const [id, n] of Object.entries(counts?.left ?? {})) add(next, id, -n);
    running = Object.fromEntries(Object.entries(next).filter(([, n]) => n !== 0));
    await DayRollupEntity.patch({ day })
      .set({ subscribers: JSON.stringify(running) })
      .go();
  }
  await figuresChanged();
}

/** Moves the watermark to `through`, unless a later rollup already moved it further. */
async function advanceWatermark(through: string, processId: string): Promise<void> {
  await RollupWatermarkEntity.upsert({ through, processId, rolledAt: new Date().toISOString() })
    .where((attr, op) => `${op.notExists(attr.through)} OR ${op.lt(attr.through, through)}`)
    .go()
    .catch((error: unknown) => {
      if (!isConditionFailure(error)) throw error;
    });
}

export const rollUpAnalytics = Jobs.defineChunkedJob({
  name: 'roll-up-analytics',
  title: 'Rolling up analytics',
  input: v.object({}),
  async plan(_input, context) {
    const days = await daysToCount(decodeTime(context.processId));
    const chunks: { days: string[] }[] = [];
    for (let start = 0; start < days.length; start += DAYS_PER_CHUNK)
      chunks.push({ days: days.slice(start, start + DAYS_PER_CHUNK) });
    return chunks;
  },
  async runChunk({ days }, _input, context) {
    let counted = 0;
    for (let start = 0; start < days.length; start += DAYS_AT_ONCE) {
      const batch = days.slice(start, start + DAYS_AT_ONCE);
      const counts = await Promise.all(batch.map((day) => rollUpDay(day)));
      counted += counts.filter(Boolean).length;
      await context.progress((start + batch.length) / days.length);
    }
    return { days: days.length, daysWithEvents: counted };
  },
  async succeeded(_input, context) {
    const started = decodeTime(context.processId);
    const days = await daysToCount(started);
    await carrySubscribers(days[0]!, days.at(-1)!);
    await advanceWatermark(new Date(started - COMMIT_LAG_MS).toISOString(), context.processId);
  },
});
