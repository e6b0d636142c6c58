// LogEntry: a server log line kept for the admin log viewer, partitioned by day, expired by TTL.
// A day is written across LOG_SHARDS partitions so one busy day does not throttle one partition.
import { defineEntity } from '#core/db';

/** Partitions per day; readers query each and merge them in time order. */
export const LOG_SHARDS = 4;

export const LogEntryEntity = defineEntity({
  model: { entity: 'logEntry', version: '1', service: 'cluefeed' },
  attributes: {
    day: { type: 'string', required: true },
    shard: { type: 'number', required: true },
    id: { type: 'string', required: true },
    timestamp: { type: 'string', required: true },
    level: { type: ['debug', 'info', 'error'] as const, required: true },
    message: { type: 'string', required: true },
    fields: { type: 'string' },
    expiresAt: { type: 'number', required: true },
  },
  indexes: {
    // One shard of a day's log lines in time order: pk logs#{day}#{shard}, sk {timestamp}#{id}
    byDay: {
      pk: {
        field: 'pk',
        composite: ['day', 'shard'],
        template: 'logs#${day}#${shard}',
        casing: 'none',
      },
      sk: {
        field: 'sk',
        composite: ['timestamp', 'id'],
        template: '${timestamp}#${id}',
        casing: 'none',
      },
    },
  },
});
