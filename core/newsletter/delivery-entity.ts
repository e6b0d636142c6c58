// Delivery: what one issue did for one subscriber. Created with `attribute_not_exists` in the
// same transaction as its OutboundEmail (or alone, when skipped), so a subscriber gets at most one
// copy of an issue however often its chunk runs. Its e-mail's state (sent, failed, with the SMTP
// Message-ID) is the OutboundEmail's.
import { defineEntity } from '#core/db';

export const DELIVERY_STATUSES = ['queued', 'sent', 'failed', 'skipped'] as const;

export const DeliveryEntity = defineEntity({
  model: { entity: 'delivery', version: '1', service: 'cluefeed' },
  attributes: {
    issueId: { type: 'string', required: true },
    subscriberId: { type: 'string', required: true },
    status: { type: DELIVERY_STATUSES, required: true },
    /** Why it was skipped or failed, e.g. 'unsubscribed', 'no picks'. */
    reason: { type: 'string' },
    /** The outbox e-mail that carries the issue (queued deliveries). */
    outboundEmailId: { type: 'string' },
    createdAt: { type: 'string', required: true },
  },
  indexes: {
    // An issue's deliveries by subscriber: pk newsletterIssue#{issueId}, sk delivery#{subscriberId}
    byIssue: {
      pk: {
        field: 'pk',
        composite: ['issueId'],
        template: 'newsletterIssue#${issueId}',
        casing: 'none',
      },
      sk: {
        field: 'sk',
        composite: ['subscriberId'],
        template: 'delivery#${subscriberId}',
        casing: 'none',
      },
    },
  },
});
