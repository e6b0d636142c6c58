// ExperimentRun: an implementation run as stored (runs.ts reads and writes it; the job reads the
// execution it was queued for).
import type { EntityItem } from 'electrodb';
import { defineEntity } from '#core/db';

export const ExperimentRunEntity = defineEntity({
  model: { entity: 'experimentRun', version: '1', service: 'cluefeed' },
  attributes: {
    id: { type: 'string', required: true },
    expImplementationId: { type: 'string', required: true },
    name: { type: 'string', required: true },
    comments: { type: 'string', required: true, default: '' },
    /** The run input as JSON (RunInput). */
    input: { type: 'string', required: true },
    createdAt: { type: 'string', required: true },
    systemUserId: { type: 'string', required: true },
    /** Bumped by every edit and execution: each is conditioned on the one it read. */
    revision: { type: 'number', required: true },
    /** Its latest execution's process. */
    processId: { type: 'string' },
    executedAt: { type: 'string' },
  },
  indexes: {
    // One run: pk experimentRun#{id}
    byId: {
      pk: { field: 'pk', composite: ['id'], template: 'experimentRun#${id}', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'run', casing: 'none' },
    },
    // An implementation's runs, newest first: gsi1pk experimentRuns#{expImplementationId}, gsi1sk {createdAt}#{id}
    byImplementation: {
      index: 'gsi1',
      pk: {
        field: 'gsi1pk',
        composite: ['expImplementationId'],
        template: 'experimentRuns#${expImplementationId}',
        casing: 'none',
      },
      sk: {
        field: 'gsi1sk',
        composite: ['createdAt', 'id'],
        template: '${createdAt}#${id}',
        casing: 'none',
      },
    },
  },
});

export type RunItem = EntityItem<typeof ExperimentRunEntity>;
