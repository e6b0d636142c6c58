// A reader's sign-in session, stored by the SHA-256 of its cookie token (never the token itself).
import { defineEntity } from '#core/db';

export const UserSessionEntity = defineEntity({
  model: { entity: 'userSession', version: '1', service: 'cluefeed' },
  attributes: {
    tokenHash: { type: 'string', required: true },
    userId: { type: 'string', required: true },
    /** When the reader typed their password; carried over by every renewal (absolute lifetime). */
    signedInAt: { type: 'string', required: true },
    /** When this token was issued: at sign-in or at the last renewal. */
    createdAt: { type: 'string', required: true },
    /** Epoch seconds; the table's TTL removes the item some time after. */
    expiresAt: { type: 'number', required: true },
    /** Set when a renewal replaced this token; it then lasts only a short grace (see sessions.ts). */
    replacedAt: { type: 'string' },
    /** The token hash this one replaced, so signing out ends both. */
    replaces: { type: 'string' },
    /** The token hash that replaced this one, so signing out with either ends both. */
    replacedBy: { type: 'string' },
  },
  indexes: {
    // A reader's session by the SHA-256 of its cookie token: pk userSession#{tokenHash}
    byToken: {
      pk: {
        field: 'pk',
        composite: ['tokenHash'],
        template: 'userSession#${tokenHash}',
        casing: 'none',
      },
      sk: { field: 'sk', composite: [], template: 'userSession', casing: 'none' },
    },
  },
});
