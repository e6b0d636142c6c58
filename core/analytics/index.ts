// First-party analytics: page views (and later funnel events) with utm, raud and vus. A referrer
// is stored without the tokens its query may carry.
import type { EntityItem } from 'electrodb';
import * as v from 'valibot';
import { monotonicFactory } from 'ulid';
import { fn, freeText, referrerWithoutTokens, TrackingSchema } from '#core/common';
import { ANALYTICS_SHARDS, AnalyticsEventEntity } from './entity';

export { AnalyticsEventEntity, ANALYTICS_SHARDS };
export type AnalyticsEvent = EntityItem<typeof AnalyticsEventEntity>;

/** Monotonic, so events recorded in the same millisecond keep their order across shards. */
const nextId = monotonicFactory();

export const EVENT_NAMES = [
  'page_view',
  'subscribe',
  'subscription_confirmed',
  'preferences_updated',
  'unsubscribe',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

export const EventInput = v.object({
  name: v.picklist(EVENT_NAMES, 'Unknown event'),
  path: v.pipe(
    freeText({ max: 500, tooLong: 'A path has at most 500 characters' }),
    v.startsWith('/', 'A path starts with /'),
  ),
  referrer: v.optional(freeText({ max: 500, tooLong: 'A referrer has at most 500 characters' })),
  ...TrackingSchema.entries,
});

export const record = fn(EventInput, async (input): Promise<AnalyticsEvent> => {
  const at = new Date().toISOString();
  const { referrer, ...event } = input;
  const { data } = await AnalyticsEventEntity.create({
    ...event,
    referrer: referrer === undefined ? undefined : referrerWithoutTokens(referrer),
    id: nextId(),
    at,
    day: at.slice(0, 10),
    shard: Math.floor(Math.random() * ANALYTICS_SHARDS),
  }).go();
  return data;
});

/** A day's events, oldest first: every shard of the day, merged in time order. */
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
