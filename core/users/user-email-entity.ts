// The claim that keeps e-mail addresses unique among users.
import { defineEntity } from '#core/db';

export const UserEmailEntity = defineEntity({
  model: { entity: 'userEmail', version: '1', service: 'cluefeed' },
  attributes: {
    email: { type: 'string', required: true },
    userId: { type: 'string', required: true },
  },
  indexes: {
    // The user of an e-mail address: pk userEmail#{email}
    byEmail: {
      pk: { field: 'pk', composite: ['email'], template: 'userEmail#${email}', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'userEmail', casing: 'none' },
    },
  },
});
