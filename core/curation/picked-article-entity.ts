// PickedArticle: the claim that an article has been picked for an audience. Written with the Pick,
// conditionally, so an article is picked once per audience however often runs repeat.
import { defineEntity } from '#core/db';

export const PickedArticleEntity = defineEntity({
  model: { entity: 'pickedArticle', version: '1', service: 'cluefeed' },
  attributes: {
    audienceId: { type: 'string', required: true },
    articleId: { type: 'string', required: true },
    /** The run that holds the claim: a retry of that run may finish what it started. */
    processId: { type: 'string', required: true },
    pickedAt: { type: 'string', required: true },
  },
  indexes: {
    // Whether an article was picked for an audience: pk picked#{audienceId}#{articleId}
    byArticle: {
      pk: {
        field: 'pk',
        composite: ['audienceId', 'articleId'],
        template: 'picked#${audienceId}#${articleId}',
        casing: 'none',
      },
      sk: { field: 'sk', composite: [], template: 'pickedArticle', casing: 'none' },
    },
  },
});
