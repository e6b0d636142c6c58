// The analytics rollup's watermark: every event stamped before `through` is in the daily rollups,
// so the next rollup recounts from that day on, and the page says when the figures were made.
import { defineEntity } from '#core/db';

export const RollupWatermarkEntity = defineEntity({
  model: { entity: 'analyticsWatermark', version: '1', service: 'cluefeed' },
  attributes: {
    /** Every event stamped before this time is in the rollups. */
    through: { type: 'string', required: true },
    /** The rollup that moved it here, and when that rollup ended. */
    processId: { type: 'string', required: true },
    rolledAt: { type: 'string', required: true },
    /**
     * Moves by one after every write of a day's figures (a rollup's or a single day's recount),
     * so a kept report of an older revision is never shown (kept-report.ts).
     */
    revision: { type: 'number' },
  },
  indexes: {
    // The one watermark: pk analyticsRollup, sk watermark
    only: {
      pk: { field: 'pk', composite: [], template: 'analyticsRollup', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'watermark', casing: 'none' },
    },
  },
});
