// The claim that keeps one URL stored once: a canonical article URL names its article.
import { defineEntity } from '#core/db';

export const ArticleUrlEntity = defineEntity({
  model: { entity: 'articleUrl', version: '1', service: 'cluefeed' },
  attributes: {
    canonicalUrl: { type: 'string', required: true },
    articleId: { type: 'string', required: true },
  },
  indexes: {
    // The article stored under a canonical URL: pk articleUrl#{canonicalUrl}
    byUrl: {
      pk: {
        field: 'pk',
        composite: ['canonicalUrl'],
        template: 'articleUrl#${canonicalUrl}',
        casing: 'none',
      },
      sk: { field: 'sk', composite: [], template: 'articleUrl', casing: 'none' },
    },
  },
});
