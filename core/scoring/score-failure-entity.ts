// ScoreFailure (ADR 0033): beside a target's scores, a pair a model could not score.
import { defineEntity } from '#core/db';
import { setupAttributes, targetPartition } from './store-keys';

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
