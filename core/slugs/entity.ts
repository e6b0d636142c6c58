// SlugClaim: one item per (kind, slug) so a slug can belong to one owner only, written in the
// same transaction as its owner. Past slugs stay claimed and point to their owner for redirects.
import { defineEntity } from '#core/db';

export const SlugClaimEntity = defineEntity({
  model: { entity: 'slugClaim', version: '1', service: 'cluefeed' },
  attributes: {
    kind: { type: ['audience', 'post'] as const, required: true },
    slug: { type: 'string', required: true },
    ownerId: { type: 'string', required: true },
  },
  indexes: {
    // Owner of a slug: pk slug#{kind}#{slug}
    bySlug: {
      pk: {
        field: 'pk',
        composite: ['kind', 'slug'],
        template: 'slug#${kind}#${slug}',
        casing: 'none',
      },
      sk: { field: 'sk', composite: [], template: 'slug', casing: 'none' },
    },
  },
});
