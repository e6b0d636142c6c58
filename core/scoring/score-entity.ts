// The score store (ADR 0033). A score is a cache entry keyed by everything that made it: the
// article, the target (an audience or a reader), a hash of the target's clues, the prompt version
// and the model. Each target's entries live in the target's own partition, so no read grows with
// the number of readers; a changed clue set hashes differently, so its pairs are simply unscored
// and the old entries are never read as current (a reader's are swept once the new set is scored). The same write keeps two read
// models current: the target's entries ranked (gsi1, label band then newest) and its counts per
// label, so a feed or a pick reads one bounded Query.
import { RELEVANCE_LABELS } from '#core/ai';
import { defineEntity } from '#core/db';
import { setupAttributes, targetPartition } from './store-keys';

export const ScoreEntity = defineEntity({
  model: { entity: 'score', version: '2', service: 'cluefeed' },
  attributes: {
    articleId: { type: 'string', required: true },
    ...setupAttributes,
    label: { type: RELEVANCE_LABELS, required: true },
    /** The label's place in RELEVANCE_LABELS (0 Not … 4 Very), so the ranked index sorts by it. */
    rank: { type: 'string', required: true },
    score: { type: 'number', required: true },
    reason: { type: 'string', required: true },
    /** The target's clues the article matched, as they were written. */
    relevantClues: { type: 'list', items: { type: 'string' }, default: () => [] },
    publishedAt: { type: 'string', required: true },
    /** The run that scored it (a process id). */
    processId: { type: 'string', required: true },
    inputTokens: { type: 'number', default: 0 },
    outputTokens: { type: 'number', default: 0 },
    costUsd: { type: 'number' },
    // No TTL: an entry that expired would be scored and counted again while its article is still
    // among the newest. A reader's superseded clue sets are swept instead (forgetOtherClues).
    createdAt: { type: 'string', required: true },
  },
  indexes: {
    // One pair's entry, in the target's partition:
    // pk scores#{matchingType}#{matchingId}, sk score#{cluesHash}#{promptId}#{modelId}#{articleId}
    byTarget: {
      pk: targetPartition,
      sk: {
        field: 'sk',
        composite: ['cluesHash', 'promptId', 'modelId', 'articleId'],
        template: 'score#${cluesHash}#${promptId}#${modelId}#${articleId}',
        casing: 'none',
      },
    },
    // The target's entries for one clue set and setup, best label first, then newest published:
    // gsi1pk ranked#{matchingType}#{matchingId}#{cluesHash}#{promptId}#{modelId}, gsi1sk {rank}#{publishedAt}#{articleId}
    ranked: {
      index: 'gsi1',
      pk: {
        field: 'gsi1pk',
        composite: ['matchingType', 'matchingId', 'cluesHash', 'promptId', 'modelId'],
        template: 'ranked#${matchingType}#${matchingId}#${cluesHash}#${promptId}#${modelId}',
        casing: 'none',
      },
      sk: {
        field: 'gsi1sk',
        composite: ['rank', 'publishedAt', 'articleId'],
        template: '${rank}#${publishedAt}#${articleId}',
        casing: 'none',
      },
    },
  },
});
