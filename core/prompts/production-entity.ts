// ProductionScoring: the scoring setup production reads (a prompt version and a model), one item,
// written only by an operator's promote. Absent until the first promote: production then scores
// with the built-in default prompt and the configured gpt model. `revision` counts the promotes,
// so each one is conditioned on the setup it replaced.
import { defineEntity } from '#core/db';

export const ProductionScoringEntity = defineEntity({
  model: { entity: 'productionScoring', version: '1', service: 'cluefeed' },
  attributes: {
    promptId: { type: 'string', required: true },
    modelId: { type: 'string', required: true },
    revision: { type: 'number', required: true },
    promotedAt: { type: 'string', required: true },
    /** The admin (system user) who promoted it. */
    promotedBy: { type: 'string', required: true },
  },
  indexes: {
    // The one setup: pk productionScoring, sk setup
    setup: {
      pk: { field: 'pk', composite: [], template: 'productionScoring', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'setup', casing: 'none' },
    },
  },
});
