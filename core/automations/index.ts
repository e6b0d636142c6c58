// Content automations: the jobs operators trigger from the admin panel and the schedules that
// trigger them, in one registry the worker and the cron handler share.
import * as v from 'valibot';
import * as Articles from '#core/articles';
import { isVisibleError } from '#core/common';
import { logger } from '#core/logs';
import * as Jobs from '#core/jobs';
import * as Streams from '#core/streams';

import { SCHEDULES } from './schedules';

export { SCHEDULES, toEventBridgeCron, type Schedule } from './schedules';

/** Imports and Clear Table write the same articles and streams: they never run at once. */
const ARTICLES_SLOT = 'articles';

export const addStreamAndImport = Jobs.defineJob({
  name: 'add-stream-and-import-articles',
  slot: ARTICLES_SLOT,
  priority: 1,
  input: v.object({
    streamName: v.pipe(
      v.string(),
      v.trim(),
      v.nonEmpty('Please add a stream name'),
      v.maxLength(100),
    ),
    streamUrl: v.pipe(
      v.string(),
      v.trim(),
      v.url('Please add a valid feed URL'),
      v.regex(/^https?:\/\//i, 'Please add a valid feed URL'),
    ),
  }),
  async run({ streamName, streamUrl }, context) {
    const stream = await Streams.create({ name: streamName, url: streamUrl });
    await context.progress(0.1, `Importing ${stream.name}`);
    return Streams.importStream(stream, context);
  },
});

export const importArticles = Jobs.defineJob({
  name: 'import-articles',
  slot: ARTICLES_SLOT,
  input: v.object({}),
  run: (_input, context) => Streams.importAll(context),
});

export const COLLECTIONS = {
  articles: { name: 'Articles', clear: () => Articles.clearAll() },
  streams: { name: 'Streams', clear: () => Streams.clearAll() },
} as const;
export type CollectionId = keyof typeof COLLECTIONS;

export const clearTable = Jobs.defineJob({
  name: 'clear-table',
  slot: ARTICLES_SLOT,
  priority: 2,
  input: v.object({
    collection: v.picklist(Object.keys(COLLECTIONS) as CollectionId[], 'Please choose a table'),
  }),
  async run({ collection }, context) {
    const deleted = await COLLECTIONS[collection].clear();
    context.log.info(`Cleared ${COLLECTIONS[collection].name}`, { deleted });
    return { deleted };
  },
});

/** Every job the worker can run. */
export const jobs = Jobs.registry([
  addStreamAndImport,
  importArticles,
  clearTable,
] as Jobs.JobDefinition[]);

/** Runs one schedule: enqueue its job as the scheduler, or recover stuck jobs. */
export async function runSchedule(id: string): Promise<void> {
  const schedule = SCHEDULES.find((candidate) => candidate.id === id);
  if (!schedule) throw new Error(`Unknown schedule "${id}"`);
  if (schedule.id === 'recover-jobs') return void (await Jobs.recover());
  try {
    await Jobs.enqueue(importArticles, {}, 'scheduler');
  } catch (error) {
    // Another job holds the slot: this hour's import is skipped; the next one runs as usual.
    if (!isVisibleError(error) || error.code !== 'jobs.busy') throw error;
    logger.info('Scheduled import skipped: another process is running');
  }
}
