// A range's figures kept between rollups: computed by the first view after the rollups changed
// and read whole by every later view, on any instance, until the next rollup writes a day.
import { defineEntity } from '#core/db';

export const KeptReportEntity = defineEntity({
  model: { entity: 'analyticsKeptReport', version: '1', service: 'cluefeed' },
  attributes: {
    from: { type: 'string', required: true },
    to: { type: 'string', required: true },
    /** `{utm}|{vus}`, `*` for no filter (neither value can hold `*` or `|`). */
    filters: { type: 'string', required: true },
    /** The rollups' revision the figures were computed at (RollupWatermark.revision). */
    revision: { type: 'number' },
    /** The range's figures (RangeFigures in range-figures.ts) as JSON; absent when too large. */
    figures: { type: 'string' },
    computedAt: { type: 'string' },
    /** The view computing the figures of `claimedRevision`, until `claimedUntil` (ISO time). */
    claimedRevision: { type: 'number' },
    claimedUntil: { type: 'string' },
    /** TTL (epoch seconds): a day after it was last written; a rollup every 10 minutes outdates it. */
    expiresAt: { type: 'number' },
  },
  indexes: {
    // One range and filter: pk keptReport#{from}#{to}#{filters}, sk report
    byRange: {
      pk: {
        field: 'pk',
        composite: ['from', 'to', 'filters'],
        template: 'keptReport#${from}#${to}#${filters}',
        casing: 'none',
      },
      sk: { field: 'sk', composite: [], template: 'report', casing: 'none' },
    },
  },
});
