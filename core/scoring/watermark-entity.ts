// ScoringWatermark (ADR 0065): beside a target's scores, how far the planning of scheduled runs
// has gone for one clue set and scoring setup, so a run plans the articles imported since without
// looking up a score per article.
import { defineEntity } from '#core/db';
import { setupAttributes, targetPartition } from './store-keys';

/**
 * The import time of the newest article a run planned for the target (`importedUpTo`), when that
 * run planned (`plannedAt`), which run it was (`plannedBy`: its pairs count as planned once it
 * ended in Success) and from which import time it planned them (`since`; empty for a run that
 * planned the whole window), so a run after a failed one plans that range again.
 */
export const ScoringWatermarkEntity = defineEntity({
  model: { entity: 'scoringWatermark', version: '1', service: 'cluefeed' },
  attributes: {
    ...setupAttributes,
    importedUpTo: { type: 'string', required: true },
    plannedAt: { type: 'string', required: true },
    plannedBy: { type: 'string', required: true },
    since: { type: 'string', required: true },
  },
  indexes: {
    // pk scores#{matchingType}#{matchingId}, sk watermark#{cluesHash}#{promptId}#{modelId}
    byTarget: {
      pk: targetPartition,
      sk: {
        field: 'sk',
        composite: ['cluesHash', 'promptId', 'modelId'],
        template: 'watermark#${cluesHash}#${promptId}#${modelId}',
        casing: 'none',
      },
    },
  },
});
