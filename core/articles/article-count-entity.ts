// How many articles are stored, kept beside them: a few counter shards in one small partition,
// each moved in the same transaction as the article it counts. Shards keep concurrent imports
// from contending for one item; the count is their sum.
import { defineEntity } from '#core/db';

export const ARTICLE_COUNT_SHARDS = 8;

export const ArticleCountEntity = defineEntity({
  model: { entity: 'articleCount', version: '1', service: 'cluefeed' },
  attributes: {
    shard: { type: 'number', required: true },
    count: { type: 'number', default: 0 },
  },
  indexes: {
    // The article counter's shards: pk articleCount, sk shard#{shard}
    shards: {
      pk: { field: 'pk', composite: [], template: 'articleCount', casing: 'none' },
      sk: { field: 'sk', composite: ['shard'], template: 'shard#${shard}', casing: 'none' },
    },
  },
});
