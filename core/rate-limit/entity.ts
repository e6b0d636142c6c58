// RateLimitWindow: a counter per (bucket, key, window start), expired by TTL.
import { defineEntity } from '#core/db';

export const RateLimitWindowEntity = defineEntity({
  model: { entity: 'rateLimitWindow', version: '1', service: 'cluefeed' },
  attributes: {
    bucket: { type: 'string', required: true },
    key: { type: 'string', required: true },
    windowStart: { type: 'number', required: true },
    count: { type: 'number', default: 0 },
    expiresAt: { type: 'number', required: true },
  },
  indexes: {
    // Requests of one caller in one window: pk rateLimit#{bucket}#{key}, sk window#{windowStart}
    byWindow: {
      pk: {
        field: 'pk',
        composite: ['bucket', 'key'],
        template: 'rateLimit#${bucket}#${key}',
        casing: 'none',
      },
      sk: {
        field: 'sk',
        composite: ['windowStart'],
        template: 'window#${windowStart}',
        casing: 'none',
      },
    },
  },
});
