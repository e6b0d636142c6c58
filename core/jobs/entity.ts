// Process: one run of a job (Queued, Running, Success, Failed). While it is Queued or Running it
// holds its job name's slot (active-process-entity.ts): one running instance per job name. A
// chunked job's run also counts its chunks (chunk-entity.ts) once it has planned them.
import { defineEntity } from '#core/db';

export const PROCESS_STATUSES = ['Queued', 'Running', 'Success', 'Failed'] as const;

export const ProcessEntity = defineEntity({
  model: { entity: 'process', version: '1', service: 'cluefeed' },
  attributes: {
    id: { type: 'string', required: true },
    name: { type: 'string', required: true },
    /** The ActiveProcess slot it holds: its job's slot, shared by jobs that must not overlap. */
    slot: { type: 'string' },
    priority: { type: 'number', default: 0 },
    status: { type: PROCESS_STATUSES, required: true },
    input: { type: 'string', required: true },
    output: { type: 'string' },
    error: { type: 'string' },
    systemUserId: { type: 'string', required: true },
    progress: { type: 'number', default: 0 },
    progressNote: { type: 'string' },
    attempts: { type: 'number', default: 0 },
    createdAt: { type: 'string', required: true },
    startTime: { type: 'string' },
    endTime: { type: 'string' },
    heartbeatAt: { type: 'string' },
    /**
     * The worker that claimed it, when that worker has a name (a local run's: `npm start` names
     * its worker), so the next start knows the run's worker is gone without waiting it out.
     */
    worker: { type: 'string' },
    /** A chunked job's run, once planned: its chunks (chunk-entity.ts) and how many ended. */
    chunksTotal: { type: 'number' },
    chunksDone: { type: 'number' },
    chunksFailed: { type: 'number' },
  },
  indexes: {
    // One process: pk process#{id}
    byId: {
      pk: { field: 'pk', composite: ['id'], template: 'process#${id}', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'process', casing: 'none' },
    },
    // Runs of one job, newest first (last import run): gsi1pk processes#{name}, gsi1sk {createdAt}#{id}
    byName: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: ['name'], template: 'processes#${name}', casing: 'none' },
      sk: {
        field: 'gsi1sk',
        composite: ['createdAt', 'id'],
        template: '${createdAt}#${id}',
        casing: 'none',
      },
    },
  },
});
