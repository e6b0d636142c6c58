// Post: a picked story (with a link to its source) or an original one (with Markdown content).
import { defineEntity } from '#core/db';

export const PostEntity = defineEntity({
  model: { entity: 'post', version: '1', service: 'cluefeed' },
  attributes: {
    id: { type: 'string', required: true },
    slug: { type: 'string', required: true },
    title: { type: 'string', required: true },
    date: { type: 'string', required: true },
    teaser: { type: 'string', required: true },
    cover: { type: 'string' },
    minutes: { type: 'number', required: true },
    type: { type: ['article', 'audio', 'video'] as const, required: true },
    audienceId: { type: 'string', required: true },
    author: {
      type: 'map',
      required: true,
      properties: {
        name: { type: 'string', required: true },
        handle: { type: 'string', required: true },
        avatar: { type: 'string', required: true },
        tagLine: { type: 'string', required: true },
        bio: { type: 'string', required: true },
      },
    },
    content: { type: 'string' },
    /** A picked post's reason: why its story suits the audience, one sentence (ADR 0015). */
    reason: { type: 'string' },
    link: {
      type: 'map',
      properties: {
        url: { type: 'string', required: true },
        domain: { type: 'string', required: true },
        comments: { type: 'string' },
      },
    },
    createdAt: { type: 'string', required: true },
  },
  indexes: {
    // One post by id: pk post#{id}
    byId: {
      pk: { field: 'pk', composite: ['id'], template: 'post#${id}', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'post', casing: 'none' },
    },
    // An audience's posts, newest first: gsi1pk audiencePosts#{audienceId}, gsi1sk {date}#{id}
    byAudience: {
      index: 'gsi1',
      pk: {
        field: 'gsi1pk',
        composite: ['audienceId'],
        template: 'audiencePosts#${audienceId}',
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
