// AudienceSuggestion: an audience a visitor wishes existed, kept for the editors.
import { defineEntity } from '#core/db';

export const AudienceSuggestionEntity = defineEntity({
  model: { entity: 'audienceSuggestion', version: '1', service: 'cluefeed' },
  attributes: {
    id: { type: 'string', required: true },
    text: { type: 'string', required: true },
    source: { type: ['pre-success', 'after-niches'] as const, required: true },
    subscriberId: { type: 'string' },
    createdAt: { type: 'string', required: true },
  },
  indexes: {
    // One suggestion: pk audienceSuggestion#{id}
    byId: {
      pk: {
        field: 'pk',
        composite: ['id'],
        template: 'audienceSuggestion#${id}',
        casing: 'none',
      },
      sk: { field: 'sk', composite: [], template: 'audienceSuggestion', casing: 'none' },
    },
    // Every suggestion, newest first (editors): gsi1pk audienceSuggestions, gsi1sk {createdAt}#{id}
    all: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: [], template: 'audienceSuggestions', casing: 'none' },
      sk: {
        field: 'gsi1sk',
        composite: ['createdAt', 'id'],
        template: '${createdAt}#${id}',
        casing: 'none',
      },
    },
  },
});
