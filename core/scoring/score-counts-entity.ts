// ScoreCounts (ADR 0033): a target's counts per label, written with its scores.
import { defineEntity } from '#core/db';
import { setupAttributes, targetPartition } from './store-keys';

/**
 * How many of a target's entries, for one clue set and setup, carry each label: in COUNT_SHARDS
 * items (the shard is the article's), so parallel chunks scoring one audience rarely write the
 * same item in their transactions at once.
 */
export const ScoreCountsEntity = defineEntity({
  model: { entity: 'scoreCounts', version: '1', service: 'cluefeed' },
  attributes: {
    ...setupAttributes,
    shard: { type: 'number', required: true },
    // No defaults: an upsert would write them, resetting the other labels' counts.
    notRelevant: { type: 'number' },
    slightlyRelevant: { type: 'number' },
    moderatelyRelevant: { type: 'number' },
    quiteRelevant: { type: 'number' },
    veryRelevant: { type: 'number' },
  },
  indexes: {
    // pk scores#{matchingType}#{matchingId}, sk counts#{cluesHash}#{promptId}#{modelId}#{shard}
    byTarget: {
      pk: targetPartition,
      sk: {
        field: 'sk',
        composite: ['cluesHash', 'promptId', 'modelId', 'shard'],
        template: 'counts#${cluesHash}#${promptId}#${modelId}#${shard}',
        casing: 'none',
      },
    },
  },
});
