// A reader's private feed URL (ADR 0061): one item per reader, so "one feed URL per reader" is the
// key space itself, and a rotation or a turn-off is one write conditioned on the URL as read.
import { defineEntity } from '#core/db';

export const ReaderFeedEntity = defineEntity({
  model: { entity: 'readerFeed', version: '1', service: 'cluefeed' },
  attributes: {
    userId: { type: 'string', required: true },
    /** This URL's id (a ULID): a rotation writes a new one; vote links are bound to it. */
    id: { type: 'string', required: true },
    /** SHA-256 (hex) of the URL's secret, never the secret itself. */
    secretHash: { type: 'string', required: true },
    createdAt: { type: 'string', required: true },
  },
  indexes: {
    // A reader's private feed URL: pk readerFeed#{userId}, sk url
    byReader: {
      pk: {
        field: 'pk',
        composite: ['userId'],
        template: 'readerFeed#${userId}',
        casing: 'none',
      },
      sk: { field: 'sk', composite: [], template: 'url', casing: 'none' },
    },
  },
});
