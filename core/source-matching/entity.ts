// SourceMatch: how well a source (a stream) suits an audience, rated from its recent headlines by
// a prompt and a model. One per (audience, stream): matching again replaces it.
import { defineEntity } from '#core/db';
import { RELEVANCE_LABELS } from '#core/ai';

export const SourceMatchEntity = defineEntity({
  model: { entity: 'sourceMatch', version: '1', service: 'cluefeed' },
  attributes: {
    audienceId: { type: 'string', required: true },
    streamId: { type: 'string', required: true },
    streamName: { type: 'string', required: true },
    label: { type: RELEVANCE_LABELS, required: true },
    score: { type: 'number', required: true },
    reason: { type: 'string', required: true },
    /** How many of the stream's headlines the rating read. */
    headlines: { type: 'number', required: true },
    promptId: { type: 'string', required: true },
    modelId: { type: 'string', required: true },
    processId: { type: 'string', required: true },
    matchedAt: { type: 'string', required: true },
  },
  indexes: {
    // An audience's sources: pk sourceMatches#{audienceId}, sk stream#{streamId}
    byAudience: {
      pk: {
        field: 'pk',
        composite: ['audienceId'],
        template: 'sourceMatches#${audienceId}',
        casing: 'none',
      },
      sk: { field: 'sk', composite: ['streamId'], template: 'stream#${streamId}', casing: 'none' },
    },
  },
});
