// Story: one event told by many sources. Its members (newest first, the first STORY_SOURCES_KEPT)
// with the text its summary is written from, its centroid for matching new articles, and a
// revision every join conditions on.
import { defineEntity } from '#core/db';

export const StoryEntity = defineEntity({
  model: { entity: 'story', version: '1', service: 'cluefeed' },
  attributes: {
    id: { type: 'string', required: true },
    headline: { type: 'string', required: true },
    summary: { type: 'string', required: true },
    members: {
      type: 'list',
      required: true,
      items: {
        type: 'map',
        properties: {
          articleId: { type: 'string', required: true },
          source: { type: 'string', required: true },
          link: { type: 'string', required: true },
          title: { type: 'string', required: true },
          publishedAt: { type: 'string', required: true },
          /** The member's summary, clipped: what the story's summary is chosen from. */
          text: { type: 'string', required: true },
        },
      },
    },
    sourceCount: { type: 'number', required: true },
    firstAt: { type: 'string', required: true },
    latestAt: { type: 'string', required: true },
    revision: { type: 'number', required: true },
    /** The sum of every member's profile, its heaviest stems (JSON; see similarity.ts). */
    centroid: { type: 'string', required: true },
  },
  indexes: {
    // One story by id: pk story#{id}
    byId: {
      pk: { field: 'pk', composite: ['id'], template: 'story#${id}', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'story', casing: 'none' },
    },
    // Stories by their latest member, the builder's candidates: gsi1pk stories, gsi1sk {latestAt}#{id}
    recent: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: [], template: 'stories', casing: 'none' },
      sk: {
        field: 'gsi1sk',
        composite: ['latestAt', 'id'],
        template: '${latestAt}#${id}',
        casing: 'none',
      },
    },
  },
});
