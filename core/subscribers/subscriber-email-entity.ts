// The claim that keeps e-mail addresses unique among subscribers.
import { defineEntity } from '#core/db';

export const SubscriberEmailEntity = defineEntity({
  model: { entity: 'subscriberEmail', version: '1', service: 'cluefeed' },
  attributes: {
    email: { type: 'string', required: true },
    subscriberId: { type: 'string', required: true },
  },
  indexes: {
    // The subscriber of an e-mail address: pk subscriberEmail#{email}
    byEmail: {
      pk: {
        field: 'pk',
        composite: ['email'],
        template: 'subscriberEmail#${email}',
        casing: 'none',
      },
      sk: { field: 'sk', composite: [], template: 'subscriberEmail', casing: 'none' },
    },
  },
});
