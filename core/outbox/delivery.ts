// Delivers one outbound e-mail. A worker takes a slot of the send rate, claims the e-mail with a
// conditional update (queued -> sending, with a lease), sends it through SMTP with a Message-ID
// fixed by its id, and marks it sent with the server's answer; only the worker holding the claim
// (same attempt number) may settle it.
//
// What is guaranteed: two workers never send it at once (the claim), a worker that dies before
// the SMTP server accepts the message leaves it to be sent once when its lease ends, and a sent
// e-mail is never claimed again. What is not: SMTP has no idempotency, so a worker that dies
// after the server accepted the message and before `sent` is written (one DynamoDB write, a few
// milliseconds) leaves it to be sent again when the lease ends. That second copy carries the same
// Message-ID, which most mailbox providers use to drop duplicates.
import { createWriteTransaction, type EntityItem } from 'electrodb';
import { committedOnce, isConditionFailure } from '#core/db';
import { logger } from '#core/logs';
import { isPermanentFailure, type Mailer, senderDomain, SMTP_TIMEOUTS } from '#core/mail';
// The entity files, not the concepts: core/subscribers and core/newsletter write their e-mails
// through this outbox, and a newsletter e-mail settles its Delivery with it.
import { DeliveryEntity } from '../newsletter/delivery-entity';
import { closeIfSettled } from '../newsletter/issue-close';
import { NewsletterIssueEntity, SKIP_COUNTS, type SkipReason } from '../newsletter/issue-entity';
import { SubscriberEntity } from '../subscribers/entity';
import { keyOf, OutboundEmailEntity } from './entity';
import { takeSendSlot } from './send-rate';
import { render } from './templates';

export type OutboundEmail = EntityItem<typeof OutboundEmailEntity>;

/** Longer than the slowest send SMTP_TIMEOUTS allow, so a live claim is never taken over. */
export const LEASE_MS =
  2 *
  (SMTP_TIMEOUTS.connectionTimeout + SMTP_TIMEOUTS.greetingTimeout + SMTP_TIMEOUTS.socketTimeout);
/** Temporary failures are retried this often (about an hour and a half in all), then it fails. */
export const MAX_ATTEMPTS = 8;
const FIRST_RETRY_MS = 30_000;
const LONGEST_RETRY_MS = 60 * 60_000;

/** 30 s, 1 min, 2 min, ... doubling after each failed attempt, at most an hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));
}

/** The Message-ID every copy of this e-mail carries. */
export function messageIdOf(id: string): string {
  return `<${id.toLowerCase()}@${senderDomain()}>`;
}

export type Outcome =
  { result: 'sent' | 'failed' | 'cancelled' | 'not-due' } | { result: 'retry'; delayMs: number };

const iso = (at: number) => new Date(at).toISOString();

/** queued (and due) or sending with an ended lease -> sending, leased to this attempt. */
async function claim(id: string, at: number): Promise<OutboundEmail | undefined> {
  try {
    const { data } = await OutboundEmailEntity.update(keyOf(id))
      .set({ status: 'sending', nextAttemptAt: iso(at + LEASE_MS) })
      .add({ attempts: 1 })
      .where(
        (attr, op) =>
          `(${op.eq(attr.status, 'queued')} OR ${op.eq(attr.status, 'sending')}) AND ${op.lte(attr.nextAttemptAt, iso(at))}`,
      )
      .go({ response: 'all_new' });
    return data as OutboundEmail;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

type Settlement = { status: 'queued' | 'sent' | 'failed' | 'cancelled' } & Partial<
  Pick<OutboundEmail, 'lastError' | 'smtpMessageId' | 'smtpResponse' | 'sentAt'>
> & {
    /** Why a newsletter e-mail was cancelled, as its issue counts the skip. */
    skipped?: SkipReason;
  };

const DELIVERY_OF = { sent: 'sent', failed: 'failed', cancelled: 'skipped' } as const;

/**
 * Ends this attempt, looking at the e-mail again at `at` if it is queued; false when its lease
 * ended and another attempt took the e-mail over. A newsletter e-mail's last attempt settles its
 * Delivery and the issue's counts in the same transaction, so each is counted once, then closes
 * the issue if it was its last e-mail on the way.
 */
async function settle(
  email: OutboundEmail,
  at: number,
  { skipped, ...change }: Settlement,
): Promise<boolean> {
  const final = change.status === 'queued' ? undefined : DELIVERY_OF[change.status];
  try {
    if (!email.issueId || !email.subscriberId || !final) {
      await OutboundEmailEntity.patch(keyOf(email.id))
        .set({ nextAttemptAt: iso(at), ...change })
        .where(
          (attr, op) =>
            `${op.eq(attr.status, 'sending')} AND ${op.eq(attr.attempts, email.attempts ?? 0)}`,
        )
        .go();
      return true;
    }
    const delivery = { issueId: email.issueId, subscriberId: email.subscriberId };
    // Every settle of an issue's e-mail updates the issue: one that collided with another is
    // tried again, not taken for a takeover (which would leave it to be sent a second time).
    const settled = await committedOnce(
      createWriteTransaction(
        { outbox: OutboundEmailEntity, delivery: DeliveryEntity, issue: NewsletterIssueEntity },
        (entities) => [
          entities.outbox
            .patch(keyOf(email.id))
            .set({ nextAttemptAt: iso(at), ...change })
            .where(
              (attr, op) =>
                `${op.eq(attr.status, 'sending')} AND ${op.eq(attr.attempts, email.attempts ?? 0)}`,
            )
            .commit(),
          entities.delivery
            .patch(delivery)
            .set({
              status: final,
              ...(final === 'sent'
                ? { smtpMessageId: change.smtpMessageId, sentAt: change.sentAt }
                : { reason: change.lastError }),
            })
            .commit(),
          entities.issue
            .patch({ id: delivery.issueId })
            .add({ queued: -1, [final]: 1, ...(skipped && { [SKIP_COUNTS[skipped]]: 1 }) })
            .commit(),
        ],
      ),
    );
    if (!settled) return takenOver(email, change);
    if (final === 'sent') await lastIssueSent(email.subscriberId, email.issueId, change.sentAt!);
    await closeIfSettled(email.issueId);
    return true;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return takenOver(email, change);
  }
}

function takenOver(email: OutboundEmail, change: Settlement): false {
  logger.info('An e-mail was taken over by another attempt before this one ended', {
    outboundEmailId: email.id,
    status: change.status,
  });
  return false;
}

/** Marks the issue the subscriber was last sent, so their unsubscribe counts against it. */
async function lastIssueSent(subscriberId: string, issueId: string, sentAt: string) {
  await SubscriberEntity.patch({ id: subscriberId })
    .set({ lastIssueId: issueId, lastIssueSentAt: sentAt })
    .where(
      (attr, op) =>
        `${op.notExists(attr.lastIssueSentAt)} OR ${op.lt(attr.lastIssueSentAt, sentAt)}`,
    )
    .go()
    .catch((error: unknown) => {
      // Gone, or a later issue is already marked: nothing to do.
      if (!isConditionFailure(error)) throw error;
    });
}

type Unwanted = { skipped: SkipReason; lastError: string };

/** Why a subscriber's e-mail must not go out any more, if it must not. */
async function noLongerWanted(email: OutboundEmail): Promise<Unwanted | undefined> {
  if (!email.subscriberId) return undefined;
  const { data: subscriber } = await SubscriberEntity.get({ id: email.subscriberId }).go({
    consistent: true,
  });
  if (!subscriber) return { skipped: 'gone', lastError: 'The subscriber no longer exists' };
  if (subscriber.email !== email.to || (subscriber.linkVersion ?? 0) !== (email.linkVersion ?? 0))
    return {
      skipped: 'changed address',
      lastError: 'The subscriber changed address before it was sent',
    };
  if (subscriber.status === 'unsubscribed' || subscriber.status === 'cleaned')
    return {
      skipped: subscriber.status,
      lastError: 'The subscriber unsubscribed before it was sent',
    };
  return undefined;
}

/**
 * A message for a newsletter e-mail already settled: the worker that settled it may have died, or
 * its close failed, before it closed the issue, and the message came again for that. Only the
 * outbox closes an issue after its chunks ran, so this is where a missed close is made up for.
 */
async function closeIssueOfSettled(id: string): Promise<void> {
  const { data } = await OutboundEmailEntity.get(keyOf(id)).go({
    consistent: true,
    attributes: ['status', 'issueId'],
  });
  if (data?.issueId && data.status !== 'queued' && data.status !== 'sending')
    await closeIfSettled(data.issueId);
}

/** What an SMTP server said, or why it could not be reached. */
function reasonOf(error: unknown): string {
  const { response, message } = (error ?? {}) as { response?: unknown; message?: unknown };
  if (typeof response === 'string' && response) return response;
  return typeof message === 'string' ? message : String(error);
}

/**
 * Claims, sends and settles one e-mail; `not-due` when it is not this worker's to send now.
 * `aheadMs` is how far the caller's clock runs ahead of the real one (recovery looks past leases).
 */
export async function deliverOne(id: string, mailer: Mailer, aheadMs = 0): Promise<Outcome> {
  // The slot before the claim, and the claim's time read after it: however long a busy second
  // makes this worker wait, the lease starts after the wait, so it cannot end while the e-mail
  // waits and let a second worker send it too. (A slot taken for an e-mail that is not due or no
  // longer wanted is left unused.)
  await takeSendSlot();
  const at = Date.now() + aheadMs;
  const email = await claim(id, at);
  if (!email) {
    await closeIssueOfSettled(id);
    return { result: 'not-due' };
  }
  const attempts = email.attempts ?? 0;
  if (attempts > MAX_ATTEMPTS) {
    const lastError = `Gave up after ${MAX_ATTEMPTS} attempts: ${email.lastError ?? 'no answer'}`;
    await settle(email, at, { status: 'failed', lastError });
    return { result: 'failed' };
  }
  // Rendering needs nothing from the table: it overlaps the subscriber's read.
  const [unwanted, mail] = await Promise.all([
    noLongerWanted(email),
    render(email.kind, email.props),
  ]);
  if (unwanted) {
    await settle(email, at, { status: 'cancelled', ...unwanted });
    return { result: 'cancelled' };
  }
  try {
    const info = await mailer.send({
      ...mail,
      subject: email.subject,
      to: email.to,
      headers: email.headers ? (JSON.parse(email.headers) as Record<string, string>) : undefined,
      messageId: messageIdOf(email.id),
    });
    const sentAt = iso(Date.now());
    const settled = await settle(email, Date.now(), {
      status: 'sent',
      sentAt,
      smtpMessageId: info.messageId,
      smtpResponse: info.response,
    });
    if (settled)
      logger.info('E-mail sent', { outboundEmailId: email.id, kind: email.kind, attempts });
    return { result: 'sent' };
  } catch (error) {
    const reason = reasonOf(error);
    const log = { outboundEmailId: email.id, kind: email.kind, attempts, reason };
    if (isPermanentFailure(error) || attempts >= MAX_ATTEMPTS) {
      const lastError = isPermanentFailure(error)
        ? reason
        : `Gave up after ${attempts} attempts: ${reason}`;
      logger.error('An e-mail could not be delivered', log);
      await settle(email, at, { status: 'failed', lastError });
      return { result: 'failed' };
    }
    const delayMs = retryDelayMs(attempts);
    logger.info('An e-mail will be retried', { ...log, delayMs });
    await settle(email, at + delayMs, { status: 'queued', lastError: reason });
    return { result: 'retry', delayMs };
  }
}
