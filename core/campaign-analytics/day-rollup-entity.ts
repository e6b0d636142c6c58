// Daily rollups of the analytics events: one item per day that had events, with the day's counts
// and the audiences' subscribers at its end. The campaign analytics page reads one Query of the days it shows (at most one item
// a day), however many events stand behind them.
import { defineEntity } from '#core/db';

export const DayRollupEntity = defineEntity({
  model: { entity: 'analyticsDay', version: '1', service: 'cluefeed' },
  attributes: {
    day: { type: 'string', required: true },
    /**
     * The day's counts (DayCounts in rollup.ts) as JSON, recounted whole from the day's events:
     * one string reads far faster than a map of hundreds of counters.
     */
    counts: { type: 'string' },
    /** Confirmed subscribers per audience id at the day's end (JSON): the day before's plus the day's. */
    subscribers: { type: 'string' },
    /** When the counts were last recounted. */
    countedAt: { type: 'string' },
  },
  indexes: {
    // Days in order: pk analyticsDays, sk {day} (a range of days is one Query; the day before a
    // range that had figures is one more, newest first, limit 1)
    byDay: {
      pk: { field: 'pk', composite: [], template: 'analyticsDays', casing: 'none' },
      sk: { field: 'sk', composite: ['day'], template: '${day}', casing: 'none' },
    },
  },
});
