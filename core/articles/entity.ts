// Article: a story imported from a stream, and the two claims that keep it stored once: one on its
// canonical URL, one on its content fingerprint (the same story syndicated under another URL).
import { defineEntity } from '#core/db';

export const ArticleEntity = defineEntity({
  model: { entity: 'article', version: '1', service: 'cluefeed' },
  attributes: {
    id: { type: 'string', required: true },
    canonicalUrl: { type: 'string', required: true },
    title: { type: 'string', required: true },
    summary: { type: 'string' },
    content: { type: 'string' },
    image: { type: 'string' },
    author: { type: 'string' },
    /** A podcast episode or a video (absent for text), and its running time when the feed gave it. */
    mediaType: { type: ['audio', 'video'] as const },
    durationSeconds: { type: 'number' },
    publishedAt: { type: 'string', required: true },
    importedAt: { type: 'string', required: true },
    source: { type: 'string', required: true },
    streamId: { type: 'string', required: true },
    fingerprint: { type: 'string', required: true },
    /** The story it belongs to, set once by the story builder (core/stories). */
    storyId: { type: 'string' },
  },
  indexes: {
    // One article by id: pk article#{id}
    byId: {
      pk: { field: 'pk', composite: ['id'], template: 'article#${id}', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'article', casing: 'none' },
    },
    // Every article, newest first: gsi1pk articles, gsi1sk {publishedAt}#{id}
    latest: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: [], template: 'articles', casing: 'none' },
      sk: {
        field: 'gsi1sk',
        composite: ['publishedAt', 'id'],
        template: '${publishedAt}#${id}',
        casing: 'none',
      },
    },
  },
});
