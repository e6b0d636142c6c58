// ExperimentResult: what one execution of a run kept: each chunk's unit results (`chunk#{step}#{chunk}`)
// and its output (`output`), JSON in `data` (results.ts).
import { defineEntity } from '#core/db';

export const ExperimentResultEntity = defineEntity({
  model: { entity: 'experimentResult', version: '1', service: 'cluefeed' },
  attributes: {
    processId: { type: 'string', required: true },
    key: { type: 'string', required: true },
    data: { type: 'string', required: true },
  },
  indexes: {
    // An execution's results: pk experimentResults#{processId}, sk chunk#{step}#{chunk} or output
    byProcess: {
      pk: {
        field: 'pk',
        composite: ['processId'],
        template: 'experimentResults#${processId}',
        casing: 'none',
      },
      sk: { field: 'sk', composite: ['key'], template: '${key}', casing: 'none' },
    },
  },
});
