// A system user's sign-in session, stored by the SHA-256 of its cookie token.
import { defineEntity } from '#core/db';

export const SessionEntity = defineEntity({
  model: { entity: 'session', version: '1', service: 'cluefeed' },
  attributes: {
    tokenHash: { type: 'string', required: true },
    systemUserId: { type: 'string', required: true },
    createdAt: { type: 'string', required: true },
    expiresAt: { type: 'number', required: true },
  },
  indexes: {
    // A session by the SHA-256 of its cookie token: pk session#{tokenHash}
    byToken: {
      pk: {
        field: 'pk',
        composite: ['tokenHash'],
        template: 'session#${tokenHash}',
        casing: 'none',
      },
      sk: { field: 'sk', composite: [], template: 'session', casing: 'none' },
    },
  },
});
