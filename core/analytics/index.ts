// First-party analytics: page views (and later funnel events) with utm, raud and vus.
import type { EntityItem } from 'electrodb';
import * as v from 'valibot';
import { ulid } from 'ulid';
import { fn, TrackingSchema } from '#core/common';
import { AnalyticsEventEntity } from './entity';

export { AnalyticsEventEntity };
export type AnalyticsEvent = EntityItem<typeof AnalyticsEventEntity>;

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
  path: v.pipe(v.string(), v.startsWith('/', 'A path starts with /'), v.maxLength(500)),
  referrer: v.optional(v.pipe(v.string(), v.maxLength(500))),
  ...TrackingSchema.entries,
});

export const record = fn(EventInput, async (input): Promise<AnalyticsEvent> => {
  const at = new Date().toISOString();
  const { data } = await AnalyticsEventEntity.create({
    ...input,
    id: ulid(),
    at,
    day: at.slice(0, 10),
  }).go();
  return data;
});

/** A day's events, oldest first. */
export async function forDay(day: string): Promise<AnalyticsEvent[]> {
  const { data } = await AnalyticsEventEntity.query.byDay({ day }).go({ pages: 'all' });
  return data;
}
