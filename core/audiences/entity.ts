// Audience: a phrase people identify with; its subscribers get its stories daily or weekly.
import { defineEntity } from '#core/db';

export const AudienceEntity = defineEntity({
  model: { entity: 'audience', version: '1', service: 'cluefeed' },
  attributes: {
    id: { type: 'string', required: true },
    title: { type: 'string', required: true },
    slug: { type: 'string', required: true },
    pastSlugs: { type: 'list', items: { type: 'string' }, default: () => [] },
    tag: { type: 'string', required: true },
    frequency: { type: ['daily', 'weekly'] as const, required: true },
    state: { type: ['active', 'upcoming'] as const, required: true },
    featured: { type: 'boolean', default: false },
    relatedAudienceIds: { type: 'list', items: { type: 'string' }, default: () => [] },
    /** An upcoming niche's subscribers who identify with it, counted with each vote. */
    votes: { type: 'number', default: 0 },
    createdAt: { type: 'string', required: true },
  },
  indexes: {
    // One audience by id: pk audience#{id}
    byId: {
      pk: { field: 'pk', composite: ['id'], template: 'audience#${id}', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'audience', casing: 'none' },
    },
    // Every audience, ordered by title (menu cloud, pickers): gsi1pk audiences
    all: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: [], template: 'audiences', casing: 'none' },
      sk: {
        field: 'gsi1sk',
        composite: ['title', 'id'],
        template: '${title}#${id}',
        casing: 'none',
      },
    },
  },
});
