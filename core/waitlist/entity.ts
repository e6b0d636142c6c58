// WaitlistEntry: one per e-mail address, keyed by the normalised address itself.
import { defineEntity } from '#core/db';

export const WaitlistEntryEntity = defineEntity({
  model: { entity: 'waitlistEntry', version: '1', service: 'cluefeed' },
  attributes: {
    email: { type: 'string', required: true },
    utm: { type: 'string' },
    raud: { type: 'string' },
    vus: { type: 'string' },
    createdAt: { type: 'string', required: true },
  },
  indexes: {
    // The entry of an address: pk waitlist#{email}
    byEmail: {
      pk: { field: 'pk', composite: ['email'], template: 'waitlist#${email}', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'waitlist', casing: 'none' },
    },
  },
});
