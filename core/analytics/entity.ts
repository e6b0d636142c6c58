// AnalyticsEvent: first-party events, partitioned by day so a day's events are one query.
import { defineEntity } from '#core/db';

export const AnalyticsEventEntity = defineEntity({
  model: { entity: 'analyticsEvent', version: '1', service: 'cluefeed' },
  attributes: {
    id: { type: 'string', required: true },
    day: { type: 'string', required: true },
    at: { type: 'string', required: true },
    name: { type: 'string', required: true },
    path: { type: 'string', required: true },
    utm: { type: 'string' },
    raud: { type: 'string' },
    vus: { type: 'string' },
    referrer: { type: 'string' },
  },
  indexes: {
    // A day's events in time order: pk analytics#{day}, sk {at}#{id}
    byDay: {
      pk: { field: 'pk', composite: ['day'], template: 'analytics#${day}', casing: 'none' },
      sk: { field: 'sk', composite: ['at', 'id'], template: '${at}#${id}', casing: 'none' },
    },
  },
});
