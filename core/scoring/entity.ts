// The score store (ADR 0033). A score is a cache entry keyed by everything that made it: the
// article, the target (an audience or a reader), a hash of the target's clues, the prompt version
// and the model. Each target's entries live in the target's own partition, so no read grows with
// the number of readers; a changed clue set hashes differently, so its pairs are simply unscored
// and the old entries are never read as current (they expire). The same write keeps two read
// models current: the target's entries ranked (gsi1, label band then newest) and its counts per
// label, so a feed or a pick reads one bounded Query.
import { RELEVANCE_LABELS } from '#core/ai';
import { defineEntity } from '#core/db';

export const MATCHING_TYPES = ['audience', 'user'] as const;

/** The keys a score, a failure and a count share: target, its clues' hash, prompt and model. */
const setupAttributes = {
  matchingType: { type: MATCHING_TYPES, required: true },
  matchingId: { type: 'string', required: true },
  cluesHash: { type: 'string', required: true },
  promptId: { type: 'string', required: true },
  modelId: { type: 'string', required: true },
} as const;

const targetPartition = {
  field: 'pk',
  composite: ['matchingType', 'matchingId'],
  template: 'scores#${matchingType}#${matchingId}',
  casing: 'none',
} as const;

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
    createdAt: { type: 'string', required: true },
    /** DynamoDB TTL (seconds): entries nobody rescores go by themselves. */
    expiresAt: { type: 'number', required: true },
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

/**
 * A pair the model could not score (a malformed answer, a refusal, an outage). The pair stays
 * unscored, so the next run tries it again; a later success deletes it.
 */
export const ScoreFailureEntity = defineEntity({
  model: { entity: 'scoreFailure', version: '2', service: 'cluefeed' },
  attributes: {
    articleId: { type: 'string', required: true },
    ...setupAttributes,
    error: { type: 'string', required: true },
    attempts: { type: 'number', default: 0 },
    processId: { type: 'string', required: true },
    lastTriedAt: { type: 'string', required: true },
    expiresAt: { type: 'number', required: true },
  },
  indexes: {
    // pk scores#{matchingType}#{matchingId}, sk failure#{cluesHash}#{promptId}#{modelId}#{articleId}
    byTarget: {
      pk: targetPartition,
      sk: {
        field: 'sk',
        composite: ['cluesHash', 'promptId', 'modelId', 'articleId'],
        template: 'failure#${cluesHash}#${promptId}#${modelId}#${articleId}',
        casing: 'none',
      },
    },
  },
});

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

/**
 * A score made by an experiment (a scoring experiment, a prompt test): kept with its run, never
 * in the production store and never reused by another run.
 */
export const ExperimentScoreEntity = defineEntity({
  model: { entity: 'experimentScore', version: '1', service: 'cluefeed' },
  attributes: {
    processId: { type: 'string', required: true },
    articleId: { type: 'string', required: true },
    matchingType: { type: MATCHING_TYPES, required: true },
    matchingId: { type: 'string', required: true },
    promptId: { type: 'string', required: true },
    modelId: { type: 'string', required: true },
    label: { type: RELEVANCE_LABELS, required: true },
    score: { type: 'number', required: true },
    reason: { type: 'string', required: true },
    relevantClues: { type: 'list', items: { type: 'string' }, default: () => [] },
    createdAt: { type: 'string', required: true },
    expiresAt: { type: 'number', required: true },
  },
  indexes: {
    // pk experimentScores#{processId}, sk {promptId}#{modelId}#{matchingType}#{matchingId}#{articleId}
    byRun: {
      pk: {
        field: 'pk',
        composite: ['processId'],
        template: 'experimentScores#${processId}',
        casing: 'none',
      },
      sk: {
        field: 'sk',
        composite: ['promptId', 'modelId', 'matchingType', 'matchingId', 'articleId'],
        template: '${promptId}#${modelId}#${matchingType}#${matchingId}#${articleId}',
        casing: 'none',
      },
    },
  },
});

export const COUNT_SHARDS = 4;

/** The counts attribute of each label. */
export const COUNT_OF = {
  'Not Relevant': 'notRelevant',
  'Slightly Relevant': 'slightlyRelevant',
  'Moderately Relevant': 'moderatelyRelevant',
  'Quite Relevant': 'quiteRelevant',
  'Very Relevant': 'veryRelevant',
} as const;
