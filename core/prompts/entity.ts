// Prompt: an editor's prompt text for one automation or experiment implementation, soft-deleted.
import { defineEntity } from '#core/db';

export const PromptEntity = defineEntity({
  model: { entity: 'prompt', version: '1', service: 'cluefeed' },
  attributes: {
    id: { type: 'string', required: true },
    expImplementationId: { type: 'string', required: true },
    title: { type: 'string', required: true },
    prompt: { type: 'string', required: true },
    createdAt: { type: 'string', required: true },
    systemUserId: { type: 'string', required: true },
    isDeleted: { type: 'boolean', required: true, default: false },
  },
  indexes: {
    // One prompt: pk prompt#{id}
    byId: {
      pk: { field: 'pk', composite: ['id'], template: 'prompt#${id}', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'prompt', casing: 'none' },
    },
    // An implementation's prompts, newest first: gsi1pk prompts#{expImplementationId}, gsi1sk {createdAt}#{id}
    byImplementation: {
      index: 'gsi1',
      pk: {
        field: 'gsi1pk',
        composite: ['expImplementationId'],
        template: 'prompts#${expImplementationId}',
        casing: 'none',
      },
      sk: {
        field: 'gsi1sk',
        composite: ['createdAt', 'id'],
        template: '${createdAt}#${id}',
        casing: 'none',
      },
    },
  },
});
