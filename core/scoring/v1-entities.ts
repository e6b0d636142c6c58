// The score store before ADR 0033, kept only so the 'move-scores' job can read and delete what it
// left: scores and failures in the article's partition, keyed without the clues they were made
// from. Nothing else reads or writes these.
import { RELEVANCE_LABELS } from '#core/ai';
import { defineEntity } from '#core/db';

const MATCHING_TYPES = ['audience', 'user'] as const;

export const V1ScoreEntity = defineEntity({
  model: { entity: 'articleScore', version: '1', service: 'cluefeed' },
  attributes: {
    articleId: { type: 'string', required: true },
    /** What the article was matched against: an audience, or a user's clues. */
    matchingType: { type: MATCHING_TYPES, required: true },
    matchingId: { type: 'string', required: true },
    promptId: { type: 'string', required: true },
    modelId: { type: 'string', required: true },
    label: { type: RELEVANCE_LABELS, required: true },
    score: { type: 'number', required: true },
    reason: { type: 'string', required: true },
    /** The audience's or user's phrases the article matched, as they were written. */
    relevantClues: { type: 'list', items: { type: 'string' }, default: () => [] },
    /** The article's publication time, so the best recent stories of an audience are one Query. */
    publishedAt: { type: 'string', required: true },
    /** The run that scored it (a process id). */
    processId: { type: 'string', required: true },
    inputTokens: { type: 'number', default: 0 },
    outputTokens: { type: 'number', default: 0 },
    costUsd: { type: 'number' },
    createdAt: { type: 'string', required: true },
  },
  indexes: {
    // An article's scores: pk articleScores#{articleId}, sk {promptId}#{modelId}#{matchingType}#{matchingId}
    byArticle: {
      pk: {
        field: 'pk',
        composite: ['articleId'],
        template: 'articleScores#${articleId}',
        casing: 'none',
      },
      sk: {
        field: 'sk',
        composite: ['promptId', 'modelId', 'matchingType', 'matchingId'],
        template: 'score#${promptId}#${modelId}#${matchingType}#${matchingId}',
        casing: 'none',
      },
    },
    // An audience's (or user's) articles scored by one prompt and model, newest published first
    // (experiments and prompt tests never crowd the current scores out of a bounded read):
    // gsi1pk scores#{matchingType}#{matchingId}, gsi1sk {promptId}#{modelId}#{publishedAt}#{articleId}
    byMatching: {
      index: 'gsi1',
      pk: {
        field: 'gsi1pk',
        composite: ['matchingType', 'matchingId'],
        template: 'scores#${matchingType}#${matchingId}',
        casing: 'none',
      },
      sk: {
        field: 'gsi1sk',
        composite: ['promptId', 'modelId', 'publishedAt', 'articleId'],
        template: '${promptId}#${modelId}#${publishedAt}#${articleId}',
        casing: 'none',
      },
    },
  },
});

export const V1ScoreFailureEntity = defineEntity({
  model: { entity: 'scoreFailure', version: '1', service: 'cluefeed' },
  attributes: {
    articleId: { type: 'string', required: true },
    matchingType: { type: MATCHING_TYPES, required: true },
    matchingId: { type: 'string', required: true },
    promptId: { type: 'string', required: true },
    modelId: { type: 'string', required: true },
    error: { type: 'string', required: true },
    attempts: { type: 'number', default: 0 },
    processId: { type: 'string', required: true },
    lastTriedAt: { type: 'string', required: true },
  },
  indexes: {
    // Beside the article's scores: pk articleScores#{articleId}, sk failed#{promptId}#{modelId}#{matchingType}#{matchingId}
    byArticle: {
      pk: {
        field: 'pk',
        composite: ['articleId'],
        template: 'articleScores#${articleId}',
        casing: 'none',
      },
      sk: {
        field: 'sk',
        composite: ['promptId', 'modelId', 'matchingType', 'matchingId'],
        template: 'failed#${promptId}#${modelId}#${matchingType}#${matchingId}',
        casing: 'none',
      },
    },
  },
});
