// ContentCard: an editor's bundle of stories for one audience on one day.
import { defineEntity } from '#core/db';

export const ContentCardEntity = defineEntity({
  model: { entity: 'contentCard', version: '1', service: 'cluefeed' },
  attributes: {
    id: { type: 'string', required: true },
    slug: { type: 'string', required: true },
    date: { type: 'string', required: true },
    audienceId: { type: 'string', required: true },
    primaryStoryId: { type: 'string', required: true },
    secondaryStoryIds: { type: 'list', items: { type: 'string' }, default: () => [] },
    /** The article each picked post links to: the page finds the post's story from it. */
    postArticles: {
      type: 'list',
      items: {
        type: 'map',
        properties: {
          postId: { type: 'string', required: true },
          articleId: { type: 'string', required: true },
        },
      },
      default: () => [],
    },
    primaryStoriesHeader: { type: 'string', required: true },
    secondaryStoriesHeader: { type: 'string', required: true },
    verbalDescriptor: { type: 'string', required: true },
    createdAt: { type: 'string', required: true },
  },
  indexes: {
    // One card by id: pk contentCard#{id}
    byId: {
      pk: { field: 'pk', composite: ['id'], template: 'contentCard#${id}', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'contentCard', casing: 'none' },
    },
    // An audience's cards, newest first: gsi1pk audienceCards#{audienceId}, gsi1sk {date}#{id}
    byAudience: {
      index: 'gsi1',
      pk: {
        field: 'gsi1pk',
        composite: ['audienceId'],
        template: 'audienceCards#${audienceId}',
        casing: 'none',
      },
      sk: {
        field: 'gsi1sk',
        composite: ['date', 'id'],
        template: '${date}#${id}',
        casing: 'none',
      },
    },
  },
});
