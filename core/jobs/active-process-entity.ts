// The running-process slots: one item per slot (a job's name, or a group of jobs that must not
// overlap), held while that job's process is Queued or Running. All slots share one small partition, so "everything that runs" is a single Query.
import { defineEntity } from '#core/db';

export const ActiveProcessEntity = defineEntity({
  model: { entity: 'activeProcess', version: '2', service: 'cluefeed' },
  attributes: {
    id: { type: 'string', required: true },
    name: { type: 'string', required: true },
    createdAt: { type: 'string', required: true },
  },
  indexes: {
    // The active process of each job name: pk activeProcesses, sk slot#{name}
    slot: {
      pk: { field: 'pk', composite: [], template: 'activeProcesses', casing: 'none' },
      sk: { field: 'sk', composite: ['name'], template: 'slot#${name}', casing: 'none' },
    },
  },
});
