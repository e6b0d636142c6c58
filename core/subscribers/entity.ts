// Subscriber: a newsletter reader without an account, and the claim that keeps e-mails unique.
import { defineEntity } from '#core/db';

export const SUBSCRIBER_STATUSES = ['pending', 'subscribed', 'unsubscribed', 'cleaned'] as const;

export const SubscriberEntity = defineEntity({
  model: { entity: 'subscriber', version: '1', service: 'cluefeed' },
  attributes: {
    id: { type: 'string', required: true },
    email: { type: 'string', required: true },
    status: { type: SUBSCRIBER_STATUSES, required: true },
    audienceIds: { type: 'set', items: 'string' },
    shadowAudienceIds: { type: 'set', items: 'string' },
    firstAudienceId: { type: 'string', required: true },
    utm: { type: 'string' },
    raud: { type: 'string' },
    vus: { type: 'string' },
    createdAt: { type: 'string', required: true },
    updatedAt: { type: 'string', required: true },
    confirmedAt: { type: 'string' },
    unsubscribedAt: { type: 'string' },
    /** Bumped when the address changes: links carry it, so older links stop working. */
    linkVersion: { type: 'number', default: 0 },
    /** The newsletter issue last sent to them, and when: an unsubscribe is counted against it. */
    lastIssueId: { type: 'string' },
    lastIssueSentAt: { type: 'string' },
  },
  indexes: {
    // One subscriber by id: pk subscriber#{id}
    byId: {
      pk: { field: 'pk', composite: ['id'], template: 'subscriber#${id}', casing: 'none' },
      sk: { field: 'sk', composite: [], template: 'subscriber', casing: 'none' },
    },
  },
});
