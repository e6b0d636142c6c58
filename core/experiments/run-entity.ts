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

export async function readRun(id: string): Promise<RunItem | undefined> {
  if (!id) return undefined;
  const { data } = await ExperimentRunEntity.get({ id }).go({ consistent: true });
  return data ?? undefined;
}

/**
 * The run a job executes, while it still names that execution and is as it was when executed (its
 * revision: an edit that landed between naming the execution and queueing it is not run), or
 * undefined.
 */
export async function runForJob(
  runId: string,
  processId: string,
  revision?: number,
): Promise<RunItem | undefined> {
  const item = await readRun(runId);
  if (item?.processId !== processId) return undefined;
  return revision === undefined || item.revision === revision ? item : undefined;
}
