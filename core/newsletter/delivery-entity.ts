// Delivery: what one issue did for one subscriber. Created with `attribute_not_exists` in the
// same transaction as its OutboundEmail (or alone, when skipped), so a subscriber gets at most one
// copy of an issue however often its chunk runs. The outbox settles it with its e-mail, in one
// transaction: sent (with the SMTP Message-ID) only once the SMTP server accepted the message.
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
    /** The Message-ID the SMTP server accepted, and when. */
    smtpMessageId: { type: 'string' },
    sentAt: { type: 'string' },
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
