// ScoreFailure: a pair the model could not score (a malformed answer, a refusal, a provider that
// kept failing). It is kept beside the article's scores so the admin sees it, and the pair stays
// unscored, so the next run tries it again; a later success deletes it.
import { defineEntity } from '#core/db';
import { MATCHING_TYPES } from './entity';

export const ScoreFailureEntity = defineEntity({
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
