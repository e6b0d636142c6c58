// AnalyticsEvent: first-party events, partitioned by day and spread over ANALYTICS_SHARDS
// partitions, so a busy day does not throttle one partition; a day is one query per shard.
// A business event (a confirmation, a click) is written in the same transaction as the state
// change it records, with an id derived from its business key, so it happens exactly once. A page
// view's id is its page's token id, and it expires once every rollup that may recount it has run.
import { defineEntity } from '#core/db';

/** Partitions per day; readers query each and merge them in time order. */
export const ANALYTICS_SHARDS = 4;

export const AnalyticsEventEntity = defineEntity({
  model: { entity: 'analyticsEvent', version: '1', service: 'cluefeed' },
  attributes: {
    /** A page view's is its page's token id (a ULID); a business event's is `{name}:{business key}`. */
    id: { type: 'string', required: true },
    day: { type: 'string', required: true },
    shard: { type: 'number', required: true },
    at: { type: 'string', required: true },
    name: { type: 'string', required: true },
    path: { type: 'string', required: true },
    utm: { type: 'string' },
    raud: { type: 'string' },
    vus: { type: 'string' },
    referrer: { type: 'string' },
    /** Audiences a subscription joined or left, or the niche voted for (by event name). */
    audienceIds: { type: 'list', items: { type: 'string' } },
    issueId: { type: 'string' },
    articleId: { type: 'string' },
    /** A suggested audience, as the visitor typed it. */
    text: { type: 'string' },
    /** A page view's TTL (epoch seconds): PAGE_VIEW_RETENTION_DAYS after its page was served. */
    expiresAt: { type: 'number' },
  },
  indexes: {
    // One shard of a day's events in time order: pk analytics#{day}#{shard}, sk {at}#{id}
    byDay: {
      pk: {
        field: 'pk',
        composite: ['day', 'shard'],
        template: 'analytics#${day}#${shard}',
        casing: 'none',
      },
      sk: { field: 'sk', composite: ['at', 'id'], template: '${at}#${id}', casing: 'none' },
    },
  },
});
