// The running-process slot: while it exists, its process holds the job runtime.
import { defineEntity } from '#core/db';

export const ActiveProcessEntity = defineEntity({
  model: { entity: 'activeProcess', version: '1', service: 'cluefeed' },
  attributes: {
    id: { type: 'string', required: true },
    name: { type: 'string', required: true },
    createdAt: { type: 'string', required: true },
  },
  indexes: {
    // The active process, if any: pk activeProcess, sk slot
    slot: {
      pk: { field: 'pk', composite: [], template: 'activeProcess', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'slot', casing: 'none' },
    },
  },
});
