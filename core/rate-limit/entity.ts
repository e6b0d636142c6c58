// RateLimitWindow: one item per (bucket, key) holding the current fixed window's count and the
// count its previous window ended with, expired by TTL once neither matters.
import { defineEntity } from '#core/db';

export const RateLimitWindowEntity = defineEntity({
  model: { entity: 'rateLimitWindow', version: '2', service: 'cluefeed' },
  attributes: {
    bucket: { type: 'string', required: true },
    key: { type: 'string', required: true },
    /** The start (ms) of the window `count` counts. */
    windowStart: { type: 'number', required: true },
    count: { type: 'number', default: 0 },
    /** What the window before `windowStart` counted (0 when it counted nothing). */
    previousCount: { type: 'number', default: 0 },
    expiresAt: { type: 'number', required: true },
  },
  indexes: {
    // Requests of one caller: pk rateLimit#{bucket}#{key}, sk windows
    byKey: {
      pk: {
        field: 'pk',
        composite: ['bucket', 'key'],
        template: 'rateLimit#${bucket}#${key}',
        casing: 'none',
      },
      sk: { field: 'sk', composite: [], template: 'windows', casing: 'none' },
    },
  },
});
