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
    /** The article's import time: a run retries the failures of recent imports (ADR 0065). */
    importedAt: { type: 'string', required: true },
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
    // A setup's failures by their article's import time, so a run finds those to retry in one
    // Query (an index key need not be unique): gsi1pk failures#{promptId}#{modelId}, gsi1sk {importedAt}
    recent: {
      index: 'gsi1',
      pk: {
        field: 'gsi1pk',
        composite: ['promptId', 'modelId'],
        template: 'failures#${promptId}#${modelId}',
        casing: 'none',
      },
      sk: { field: 'gsi1sk', composite: ['importedAt'], template: '${importedAt}', casing: 'none' },
    },
  },
});
