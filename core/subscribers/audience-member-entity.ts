// The audience -> subscribers lookup: one item per (audience, subscriber), written in the same
// transaction as every change of the subscriber's audienceIds, so a newsletter send pages an
// audience's members with a Query instead of scanning every subscriber.
import { defineEntity } from '#core/db';

export const AudienceMemberEntity = defineEntity({
  model: { entity: 'audienceMember', version: '1', service: 'cluefeed' },
  attributes: {
    audienceId: { type: 'string', required: true },
    subscriberId: { type: 'string', required: true },
    addedAt: { type: 'string', required: true },
  },
  indexes: {
    // The members of an audience, in subscriber id order: pk audienceMembers#{audienceId}
    byAudience: {
      pk: {
        field: 'pk',
        composite: ['audienceId'],
        template: 'audienceMembers#${audienceId}',
        casing: 'none',
      },
      sk: { field: 'sk', composite: ['subscriberId'], template: '${subscriberId}', casing: 'none' },
    },
  },
});
