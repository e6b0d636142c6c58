// A reader's analytics events (core/analytics): each is created in the transaction that makes the
// change it stands for, with the tracking values the reader started the funnel with.
import * as v from 'valibot';
import * as Analytics from '#core/analytics';
import { TrackingSchema, type Tracking } from '#core/common';
import type { User } from './read';

/** The reader's stored tracking values (any the schema no longer accepts are left out). */
export function trackingOf(user: Pick<User, 'utm' | 'raud' | 'vus'>): Tracking {
  const tracking: Tracking = {};
  for (const name of ['utm', 'raud', 'vus'] as const) {
    const value = user[name];
    if (value !== undefined && v.is(TrackingSchema.entries[name], value)) {
      Object.assign(tracking, { [name]: value });
    }
  }
  return tracking;
}

/** The item of one of the reader's business events, carrying the reader's tracking values. */
export function readerEvent(
  user: Pick<User, 'utm' | 'raud' | 'vus'>,
  event: Omit<Analytics.BusinessEvent, keyof Tracking>,
  at?: string,
): Analytics.AnalyticsEvent {
  return Analytics.eventItem({ ...event, ...trackingOf(user) }, at);
}
