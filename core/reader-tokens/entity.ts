// A reader's personal access token as their token page lists it: one of at most
// MAX_TOKENS_PER_READER slots in the reader's own partition, so the list is one bounded Query and
// the limit is the key space itself (two creates that chose the same free slot cannot both land).
import { defineEntity } from '#core/db';

export const ReaderTokenEntity = defineEntity({
  model: { entity: 'readerToken', version: '1', service: 'cluefeed' },
  attributes: {
    userId: { type: 'string', required: true },
    /** 0 to MAX_TOKENS_PER_READER - 1. */
    slot: { type: 'number', required: true },
    /** The token's public id (a ULID): what the token page shows and revokes by. */
    id: { type: 'string', required: true },
    name: { type: 'string', required: true },
    /** SHA-256 (hex) of the token: the key of its ReaderTokenKey, never the token itself. */
    tokenHash: { type: 'string', required: true },
    createdAt: { type: 'string', required: true },
    /** When the token last opened the API (written at most once an hour). */
    lastUsedAt: { type: 'string' },
    /** Epoch seconds; past it the token no longer works and the table's TTL removes the item. */
    expiresAt: { type: 'number', required: true },
  },
  indexes: {
    // A reader's tokens, by slot: pk readerTokens#{userId}, sk slot#{slot}
    bySlot: {
      pk: {
        field: 'pk',
        composite: ['userId'],
        template: 'readerTokens#${userId}',
        casing: 'none',
      },
      sk: { field: 'sk', composite: ['slot'], template: 'slot#${slot}', casing: 'none' },
    },
  },
});
