// A reader's personal access token as the API finds it: by the SHA-256 of the token a request
// presents, one GetItem. It names the reader and the slot its ReaderToken holds.
import { defineEntity } from '#core/db';

export const ReaderTokenKeyEntity = defineEntity({
  model: { entity: 'readerTokenKey', version: '1', service: 'cluefeed' },
  attributes: {
    tokenHash: { type: 'string', required: true },
    userId: { type: 'string', required: true },
    slot: { type: 'number', required: true },
    id: { type: 'string', required: true },
    /** As on the ReaderToken; the API reads it here to write it at most once an hour. */
    lastUsedAt: { type: 'string' },
    /** Epoch seconds, as the ReaderToken's. */
    expiresAt: { type: 'number', required: true },
  },
  indexes: {
    // A token by the SHA-256 of its text: pk readerToken#{tokenHash}
    byHash: {
      pk: {
        field: 'pk',
        composite: ['tokenHash'],
        template: 'readerToken#${tokenHash}',
        casing: 'none',
      },
      sk: { field: 'sk', composite: [], template: 'readerToken', casing: 'none' },
    },
  },
});
