// Stream: a feed we import articles from, with what the last fetch taught us (validators for a
// conditional GET, failures and backoff) and whether an operator paused it.
import { defineEntity } from '#core/db';

export const StreamEntity = defineEntity({
  model: { entity: 'stream', version: '1', service: 'cluefeed' },
  attributes: {
    id: { type: 'string', required: true },
    name: { type: 'string', required: true },
    url: { type: 'string', required: true },
    etag: { type: 'string' },
    lastModified: { type: 'string' },
    consecutiveFailures: { type: 'number', default: 0 },
    backoffUntil: { type: 'string' },
    lastImportAt: { type: 'string' },
    lastError: { type: 'string' },
    /** JSON of the last import's { found, new, duplicates, notModified }. */
    lastResult: { type: 'string' },
    /** When an operator paused it: imports skip it until it is resumed. */
    pausedAt: { type: 'string' },
    /** The first-scoring flag: true once the stream was matched against the audiences. */
    firstScoring: { type: 'boolean', default: false },
    createdAt: { type: 'string', required: true },
  },
  indexes: {
    // One stream by id: pk stream#{id}
    byId: {
      pk: { field: 'pk', composite: ['id'], template: 'stream#${id}', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'stream', casing: 'none' },
    },
    // Every stream by name (admin list, scheduled import): gsi1pk streams, gsi1sk {name}#{id}
    all: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: [], template: 'streams', casing: 'none' },
      sk: {
        field: 'gsi1sk',
        composite: ['name', 'id'],
        template: '${name}#${id}',
        casing: 'none',
      },
    },
  },
});
