// ExperimentScore (ADR 0033): a score kept with the experiment run that made it.
import { RELEVANCE_LABELS } from '#core/ai';
import { defineEntity } from '#core/db';
import { MATCHING_TYPES } from './store-keys';

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
