// PickRun: what one run decided for one audience, written before anything it decided. A retried
// or redelivered run finds it and finishes the same card instead of asking the model again; an
// unusable answer is kept here with the model's raw text.
import { RELEVANCE_LABELS } from '#core/ai';
import { defineEntity } from '#core/db';

export const PICK_OUTCOMES = ['picked', 'failed'] as const;

export const PickRunEntity = defineEntity({
  model: { entity: 'pickRun', version: '1', service: 'cluefeed' },
  attributes: {
    audienceId: { type: 'string', required: true },
    processId: { type: 'string', required: true },
    outcome: { type: PICK_OUTCOMES, required: true },
    /** Why the run failed for this audience (the model's answer could not be used). */
    error: { type: 'string' },
    /** The model's text as received. */
    raw: { type: 'string' },
    promptId: { type: 'string', required: true },
    modelId: { type: 'string', required: true },
    /** The card this run writes (an id derived from the run and the audience). */
    contentCardId: { type: 'string', required: true },
    /** The articles picked, primary first, with the score that earned each (what the Picks keep). */
    stories: {
      type: 'list',
      default: () => [],
      items: {
        type: 'map',
        properties: {
          articleId: { type: 'string', required: true },
          score: { type: 'number', required: true },
          label: { type: RELEVANCE_LABELS, required: true },
          reason: { type: 'string', required: true },
          relevantClues: { type: 'list', items: { type: 'string' }, default: () => [] },
          publishedAt: { type: 'string', required: true },
        },
      },
    },
    primaryStoriesHeader: { type: 'string' },
    secondaryStoriesHeader: { type: 'string' },
    verbalDescriptor: { type: 'string' },
    inputTokens: { type: 'number', default: 0 },
    outputTokens: { type: 'number', default: 0 },
    costUsd: { type: 'number' },
    pickedAt: { type: 'string', required: true },
  },
  indexes: {
    // An audience's pick runs, oldest first (process ids are ULIDs): pk pickRuns#{audienceId}, sk run#{processId}
    byAudience: {
      pk: {
        field: 'pk',
        composite: ['audienceId'],
        template: 'pickRuns#${audienceId}',
        casing: 'none',
      },
      sk: { field: 'sk', composite: ['processId'], template: 'run#${processId}', casing: 'none' },
    },
  },
});
