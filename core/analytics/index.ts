// First-party analytics. Browsers report page views, each with its page's token (the proof it was
// served, and the path and utm, raud and vus it was served with); every other event is
// a business event the server records in the same transaction as the state change it stands for,
// with an id derived from that change's business key, so a retried, raced or repeated request
// records it once or not at all. A referrer is stored without the tokens its query may carry, and
// no event holds an IP address, an e-mail address or a name.
import type { EntityItem } from 'electrodb';
import * as v from 'valibot';
import { fn, freeText, referrerWithoutTokens, type Tracking } from '#core/common';
import { isConditionFailure } from '#core/db';
import { ANALYTICS_SHARDS, AnalyticsEventEntity } from './entity';
import { PAGE_VIEW_TOKEN_MESSAGES, servedPage } from './page-view-token';

export { AnalyticsEventEntity, ANALYTICS_SHARDS };
export {
  pageViewToken,
  PAGE_VIEW_TOKEN_MESSAGES,
  PAGE_VIEW_TOKEN_SECONDS,
  servedPage,
  type ServedPage,
} from './page-view-token';
export type AnalyticsEvent = EntityItem<typeof AnalyticsEventEntity>;

/**
 * What each event means; `audienceIds` is what the subscription's confirmed audiences gained or
 * lost, so the audience figures are sums of events.
 */
export const BUSINESS_EVENTS = {
  /** A subscription started (a new address, or one that had left): pending until confirmed. */
  subscribe: 'A subscription started',
  /** audienceIds: every audience of the subscription, now confirmed. */
  subscription_confirmed: 'A subscription was confirmed',
  preferences_updated: 'A subscriber changed their preferences',
  /** audienceIds: the audiences a confirmed subscription left (none for a pending one). */
  unsubscribe: 'A subscriber unsubscribed',
  /** audienceIds: the audiences a confirmed subscription left until the new address is confirmed. */
  address_changed: 'A subscriber changed their address',
  /** audienceIds: [the audience] a confirmed subscription added. */
  audience_added: 'A subscriber added an audience',
  /** audienceIds: [the audience] a confirmed subscription removed. */
  audience_removed: 'A subscriber removed an audience',
  /** audienceIds: [the upcoming niche]. */
  niche_voted: 'A subscriber identified with an upcoming niche',
  niche_unvoted: 'A subscriber withdrew from an upcoming niche',
  /** text: one suggested audience. */
  audience_suggested: 'A visitor suggested an audience',
  /** issueId, articleId: a recipient followed a story's link (every click, not only the first). */
  newsletter_click: 'A recipient clicked a story in an issue',
  invited: 'A reader was invited',
  funnel_started: 'An invited reader opened the get-started funnel',
  onboarded: 'A reader completed their profile',
  feed_first_visit: 'A reader opened their feed for the first time',
  /** Once per reader per day: the first time that day they read their feed. */
  reader_active: 'A reader read their feed that day',
  /** articleId */
  story_liked: 'A reader liked a story',
  story_disliked: 'A reader disliked a story',
  clues_changed: 'A reader changed their clues',
} as const;

export type BusinessEventName = keyof typeof BUSINESS_EVENTS;
export const EVENT_NAMES = ['page_view', ...Object.keys(BUSINESS_EVENTS)] as [
  'page_view',
  ...BusinessEventName[],
];
export type EventName = 'page_view' | BusinessEventName;

export const PageViewInput = v.object({
  name: v.literal('page_view', 'Unknown event'),
  // A missing token is refused by servedPage with the same words as a forged one.
  token: v.optional(
    v.pipe(
      v.string(PAGE_VIEW_TOKEN_MESSAGES.invalid),
      v.maxLength(2000, PAGE_VIEW_TOKEN_MESSAGES.invalid),
    ),
    '',
  ),
  referrer: v.optional(freeText({ max: 500, tooLong: 'A referrer has at most 500 characters' })),
});

/**
 * How long a page view is kept: past every day a rollup may still recount (RECOUNT_DAYS in
 * core/campaign-analytics is two days fewer), so a recount never misses an expired view.
 */
export const PAGE_VIEW_RETENTION_DAYS = 16;

/**
 * A page view, as a browser reports it with its page's token: stamped when the page was served,
 * with the path and tracking values it was served at. `counted` is false for a token already
 * used (a conditional put of its id), so each served page counts once.
 */
export const recordPageView = fn(
  PageViewInput,
  async ({ token, referrer }): Promise<{ counted: boolean; event: AnalyticsEvent }> => {
    const { id, at, ...page } = servedPage(token);
    const event: AnalyticsEvent = {
      ...page,
      ...(referrer !== undefined && { referrer: referrerWithoutTokens(referrer) }),
      name: 'page_view',
      id,
      at,
      day: at.slice(0, 10),
      shard: shardOf(id),
      expiresAt: Math.floor(Date.parse(at) / 1000) + PAGE_VIEW_RETENTION_DAYS * 86_400,
    };
    try {
      await AnalyticsEventEntity.create(event).go();
      return { counted: true, event };
    } catch (error) {
      if (isConditionFailure(error)) return { counted: false, event };
      throw error;
    }
  },
);

export type BusinessEvent = Tracking & {
  name: BusinessEventName;
  /**
   * What makes this event this one and no other, e.g. `{subscriberId}:{confirmedAt}`: the
   * transaction that writes it is conditioned on the state change, so the key is never reused.
   */
  key: string;
  /** The page or link it happened on. */
  path: string;
  audienceIds?: string[];
  issueId?: string;
  articleId?: string;
  text?: string;
};

/**
 * The item of a business event, to create in the same transaction as the write it records:
 * `event.create(Analytics.eventItem({ ... })).commit()` beside the business write, with
 * `{ event: Analytics.AnalyticsEventEntity }` among the transaction's entities.
 */
export function eventItem(event: BusinessEvent, at = new Date().toISOString()): AnalyticsEvent {
  const { key, audienceIds, ...rest } = event;
  const id = `${event.name}:${key}`;
  return {
    ...rest,
    ...(audienceIds && audienceIds.length > 0 && { audienceIds: [...audienceIds].sort() }),
    vus: event.vus,
    id,
    at,
    day: at.slice(0, 10),
    shard: shardOf(id),
  };
}

/** A stable shard for an id (FNV-1a), so one business event always lands in one partition. */
export function shardOf(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    hash ^= id.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % ANALYTICS_SHARDS;
}

/** A day's events, oldest first: every shard of the day, merged in time order (jobs and tests). */
export async function forDay(day: string): Promise<AnalyticsEvent[]> {
  const shards = await Promise.all(
    Array.from({ length: ANALYTICS_SHARDS }, (_, shard) =>
      AnalyticsEventEntity.query
        .byDay({ day, shard })
        .go({ pages: 'all' })
        .then(({ data }) => data),
    ),
  );
  const order = (event: AnalyticsEvent) => `${event.at}#${event.id}`;
  return shards.flat().sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
}
