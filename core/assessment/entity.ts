// AssessmentAnswer: a model's assessment of one clue, cached so an identical clue (same sentence
// starter, pointer and words, by the same prompt and model) never calls the model twice. Its key
// is a hash of the normalised input, and it expires by TTL so a cache never outlives its use.
import { defineEntity } from '#core/db';
import { RANKS } from '#core/ai';

export const AssessmentAnswerEntity = defineEntity({
  model: { entity: 'assessmentAnswer', version: '1', service: 'cluefeed' },
  attributes: {
    /** sha256 (hex) of the normalised prefix, pointer and clue. */
    inputHash: { type: 'string', required: true },
    promptId: { type: 'string', required: true },
    modelId: { type: 'string', required: true },
    /** The input as the first asker sent it (whitespace collapsed), for the admin and debugging. */
    prefix: { type: 'string', required: true },
    pointer: { type: 'string' },
    audienceName: { type: 'string', required: true },
    score: { type: 'string', required: true },
    rank: { type: RANKS, required: true },
    reasoning: { type: 'string', required: true },
    suggestions: { type: 'list', items: { type: 'string' }, default: () => [] },
    raw: { type: 'string', required: true },
    inputTokens: { type: 'number', default: 0 },
    outputTokens: { type: 'number', default: 0 },
    costUsd: { type: 'number' },
    createdAt: { type: 'string', required: true },
    /** Epoch seconds; DynamoDB's TTL deletes the item some time after, reads ignore it at once. */
    expiresAt: { type: 'number', required: true },
  },
  indexes: {
    // One clue's answer by one prompt and model: pk assessment#{inputHash}, sk {promptId}#{modelId}
    byInput: {
      pk: {
        field: 'pk',
        composite: ['inputHash'],
        template: 'assessment#${inputHash}',
        casing: 'none',
      },
      sk: {
        field: 'sk',
        composite: ['promptId', 'modelId'],
        template: 'answer#${promptId}#${modelId}',
        casing: 'none',
      },
    },
  },
});
