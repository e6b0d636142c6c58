// AiModel: a model the product may call (the spec's AI model), with the server it lives on.
// Its id is derived from provider and model, so the same model is recorded once. API keys are
// never stored here: they come from configuration by provider.
import { defineEntity } from '#core/db';
import { AI_MODEL_TYPES, AI_PROVIDERS } from './types';

export const AiModelEntity = defineEntity({
  model: { entity: 'aiModel', version: '1', service: 'cluefeed' },
  attributes: {
    id: { type: 'string', required: true },
    provider: { type: AI_PROVIDERS, required: true },
    model: { type: 'string', required: true },
    modelType: { type: AI_MODEL_TYPES, required: true },
    baseUrl: { type: 'string' },
    createdAt: { type: 'string', required: true },
  },
  indexes: {
    // One model: pk aiModel#{id}
    byId: {
      pk: { field: 'pk', composite: ['id'], template: 'aiModel#${id}', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'aiModel', casing: 'none' },
    },
    // Every model by provider then model (pickers): gsi1pk aiModels, gsi1sk {provider}#{model}
    all: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: [], template: 'aiModels', casing: 'none' },
      sk: {
        field: 'gsi1sk',
        composite: ['provider', 'model'],
        template: '${provider}#${model}',
        casing: 'none',
      },
    },
  },
});
