// OutboundEmail: one e-mail the product means to send, written in the same transaction as the
// change that causes it, then delivered by the worker (delivery.ts). Kept after sending: it is
// the record of what went out, when, and with which Message-ID.
import { decodeTime } from 'ulid';
import { defineEntity } from '#core/db';

export const OUTBOUND_EMAIL_STATUSES = [
  'queued',
  'sending',
  'sent',
  'failed',
  'cancelled',
] as const;

export const OutboundEmailEntity = defineEntity({
  model: { entity: 'outboundEmail', version: '1', service: 'cluefeed' },
  attributes: {
    id: { type: 'string', required: true },
    /** The UTC day of `id` (a ULID): the Outbox page reads a day's e-mails, newest first. */
    day: { type: 'string', required: true },
    /** Its kind (kinds.ts): the template that renders it (templates.ts), or 'mailing-list'. */
    kind: { type: 'string', required: true },
    to: { type: 'string', required: true },
    subject: { type: 'string', required: true },
    /** The template's props, as JSON; rendered when sent, so every attempt sends the same mail. */
    props: { type: 'string', required: true },
    /** Extra headers (List-Unsubscribe), as JSON. */
    headers: { type: 'string' },
    /** Set when the mail is for a subscriber: its kind's hooks (ADR 0059) read them by it. */
    subscriberId: { type: 'string' },
    linkVersion: { type: 'number' },
    /** The newsletter issue it carries: the digest kind settles its Delivery and counts with it. */
    issueId: { type: 'string' },
    status: { type: OUTBOUND_EMAIL_STATUSES, required: true },
    attempts: { type: 'number', default: 0 },
    /** Queued: not before this. Sending: the claim's lease ends here. Otherwise: when it ended. */
    nextAttemptAt: { type: 'string', required: true },
    lastError: { type: 'string' },
    /** The Message-ID header sent (deterministic per id) and the server's answer to it. */
    smtpMessageId: { type: 'string' },
    smtpResponse: { type: 'string' },
    createdAt: { type: 'string', required: true },
    sentAt: { type: 'string' },
  },
  indexes: {
    // One e-mail; a day's e-mails newest first (Outbox page): pk outbox#{day}, sk outboundEmail#{id}
    byDay: {
      pk: { field: 'pk', composite: ['day'], template: 'outbox#${day}', casing: 'none' },
      sk: { field: 'sk', composite: ['id'], template: 'outboundEmail#${id}', casing: 'none' },
    },
    // E-mails in one status by next attempt (the due queued ones, the expired leases):
    // gsi1pk outbox#{status}, gsi1sk {nextAttemptAt}#{id}
    byStatus: {
      index: 'gsi1',
      pk: { field: 'gsi1pk', composite: ['status'], template: 'outbox#${status}', casing: 'none' },
      sk: {
        field: 'gsi1sk',
        composite: ['nextAttemptAt', 'id'],
        template: '${nextAttemptAt}#${id}',
        casing: 'none',
      },
    },
  },
});

/** The UTC day an e-mail id was made on. */
export function dayOf(id: string): string {
  return new Date(decodeTime(id)).toISOString().slice(0, 10);
}

/** An e-mail's primary key from its id alone. */
export function keyOf(id: string): { day: string; id: string } {
  return { day: dayOf(id), id };
}
