// ProcessChunk: one piece of a chunked job's run, with its own claim (attempts, lease) and the
// checkpoint of its work (done + totals). A process's chunks share one partition, read only up to
// the process's chunksTotal, so a run's chunks are one bounded Query.
import { defineEntity } from '#core/db';

export const CHUNK_STATUSES = ['pending', 'running', 'done', 'failed'] as const;

/** Chunk indexes are zero-padded in the sort key so the partition sorts (and ranges) by index. */
export const CHUNK_INDEX_DIGITS = 6;

export const ProcessChunkEntity = defineEntity({
  model: { entity: 'processChunk', version: '1', service: 'cluefeed' },
  attributes: {
    processId: { type: 'string', required: true },
    index: { type: 'number', required: true, padding: { length: CHUNK_INDEX_DIGITS, char: '0' } },
    status: { type: CHUNK_STATUSES, required: true },
    /** The chunk as the job's plan returned it, JSON. */
    payload: { type: 'string', required: true },
    /** The process attempt that planned it: a stale planner never overwrites a newer plan. */
    plannedBy: { type: 'number', required: true },
    attempts: { type: 'number', default: 0 },
    /** While running: the claim holds until then unless its worker renews it. */
    leaseUntil: { type: 'string' },
    /** The worker that holds the claim, when it has a name (as the process's `worker`). */
    worker: { type: 'string' },
    /** The numbers the done chunk reported, JSON; summed into the process's output. */
    totals: { type: 'string' },
    error: { type: 'string' },
    createdAt: { type: 'string', required: true },
    /** Last change of status (planned, claimed, released, checkpointed). */
    updatedAt: { type: 'string', required: true },
  },
  indexes: {
    // The chunks of one run, by index: pk processChunks#{processId}, sk chunk#{index, 6 digits}
    byProcess: {
      pk: {
        field: 'pk',
        composite: ['processId'],
        template: 'processChunks#${processId}',
        casing: 'none',
      },
      sk: { field: 'sk', composite: ['index'], template: 'chunk#${index}', casing: 'none' },
    },
  },
});
