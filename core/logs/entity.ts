// LogEntry: a server log line kept for the admin log viewer, partitioned by day, expired by TTL.
import { defineEntity } from '#core/db';

export const LogEntryEntity = defineEntity({
  model: { entity: 'logEntry', version: '1', service: 'cluefeed' },
  attributes: {
    day: { type: 'string', required: true },
    id: { type: 'string', required: true },
    timestamp: { type: 'string', required: true },
    level: { type: ['debug', 'info', 'error'] as const, required: true },
    message: { type: 'string', required: true },
    fields: { type: 'string' },
    expiresAt: { type: 'number', required: true },
  },
  indexes: {
    // A day's log lines in time order: pk logs#{day}, sk {timestamp}#{id}
    byDay: {
      pk: { field: 'pk', composite: ['day'], template: 'logs#${day}', casing: 'none' },
      sk: {
        field: 'sk',
        composite: ['timestamp', 'id'],
        template: '${timestamp}#${id}',
        casing: 'none',
      },
    },
  },
});
