// The e-mail outbox: every e-mail the product sends is first an OutboundEmail, written in the
// same transaction as the change that causes it (`draft`), then sent by the worker from a queue
// message (`dispatch`, `handleBatch`). A message lost on the way is made up for by `recoverDue`,
// which the 5-minute recover-jobs schedule and `npm start` run: it queues the e-mails again, and
// every worker sends them at the send's own pace. See delivery.ts for the claim.
import * as v from 'valibot';
import { fn } from '#core/common';
import { ulid } from '#core/ids';
// E-mails go to a queue of their own (its worker, dead letters and alarm; ADR 0058).
import { emailMessage, send as sendMessage, sendAll } from '../jobs/queue';
import { flush, logger } from '#core/logs';
import { mailer, type Mailer } from '#core/mail';
import { dayOf, keyOf, OutboundEmailEntity } from './entity';
import { deliverClaimed, deliverOne, LEASE_MS, type OutboundEmail, type Outcome } from './delivery';
import { render, subjectOf, type EmailKind, type PropsOf } from './templates';

export { OutboundEmailEntity, OUTBOUND_EMAIL_STATUSES } from './entity';
export {
  LEASE_MS,
  MAX_ATTEMPTS,
  messageIdOf,
  retryDelayMs,
  type OutboundEmail,
  type Outcome,
} from './delivery';
export type { EmailKind } from './templates';
export { takeSendSlots } from './send-rate';
export {
  registerKind,
  registeredKinds,
  UnregisteredKind,
  type Ended,
  type Ending,
  type Envelope,
  type KindHooks,
  type Unwanted,
  type Write,
  writesWith,
} from './kinds';
export type OutboundEmailStatus = OutboundEmail['status'];

/**
 * A new queued e-mail, to be written with `OutboundEmailEntity.create(...)` inside the caller's
 * transaction. `subscriber` ties it to the address and link version it was made for: it is
 * cancelled rather than sent if either changed (old links stay retired) or they unsubscribed.
 */
export function draft<K extends EmailKind>(
  kind: K,
  mail: {
    to: string;
    props: PropsOf<K>;
    headers?: Record<string, string>;
    subscriber?: { id: string; linkVersion?: number };
    /** The newsletter issue it carries (with `subscriber`): settled with its Delivery. */
    issueId?: string;
    /**
     * Written already claimed by its maker, who sends it at once (`sendClaimed`): no message, no
     * claim, and no look at whether it is still wanted (the write that makes it decides that).
     */
    claimed?: boolean;
  },
): OutboundEmail {
  const email: OutboundEmail = {
    ...draftMessage(kind, {
      to: mail.to,
      subject: subjectOf(kind, mail.props),
      props: mail.props,
      subscriber: mail.subscriber,
    }),
    headers: mail.headers && JSON.stringify(mail.headers),
    issueId: mail.subscriber && mail.issueId,
  };
  return mail.claimed ? leasedFromNow({ ...email, status: 'sending', attempts: 1 }) : email;
}

/**
 * A claimed e-mail leased from now on: a maker that dies before it settles it leaves it to the
 * recovery schedule once the lease ends. Its maker leases it again once its send slot is taken.
 */
export function leasedFromNow(email: OutboundEmail): OutboundEmail {
  return { ...email, nextAttemptAt: new Date(Date.now() + LEASE_MS).toISOString() };
}

/**
 * A new queued message of a kind delivered another way than an e-mail template (its registered
 * `send`, e.g. the mailing-list mirror), to write inside the caller's transaction like `draft`'s.
 * `subject` says on the Outbox page what it does.
 */
export function draftMessage(
  kind: string,
  message: {
    to: string;
    subject: string;
    props: unknown;
    subscriber?: { id: string; linkVersion?: number };
  },
): OutboundEmail {
  const id = ulid();
  const createdAt = new Date().toISOString();
  return {
    id,
    day: dayOf(id),
    kind,
    to: message.to,
    subject: message.subject,
    props: JSON.stringify(message.props),
    subscriberId: message.subscriber?.id,
    linkVersion: message.subscriber && (message.subscriber.linkVersion ?? 0),
    status: 'queued',
    attempts: 0,
    nextAttemptAt: createdAt,
    createdAt,
  };
}

/** An e-mail exactly as it would be sent (subject, HTML, text), neither stored nor sent. */
export async function preview<K extends EmailKind>(kind: K, props: PropsOf<K>) {
  const mail = await render(kind, JSON.stringify(props));
  return { ...mail, subject: subjectOf(kind, props) };
}

export type OutboxMessage = { outboundEmailId: string };

/** SQS delays a message at most 15 minutes; a later retry is queued again by `recoverDue`. */
const MAX_DELAY_SECONDS = 900;

/** On the e-mail queue, which no long job holds up (ADR 0058). */
async function send(id: string, delayMs = 0): Promise<void> {
  await sendMessage(
    emailMessage(id),
    'email',
    Math.min(MAX_DELAY_SECONDS, Math.ceil(delayMs / 1000)),
  );
}

/**
 * Asks the worker to send e-mails already stored. Never throws: the e-mails are safe in the
 * table, and `recoverDue` queues them again if the queue is unreachable now.
 */
export async function dispatch(emails: Pick<OutboundEmail, 'id'>[]): Promise<void> {
  for (const { id } of emails) {
    await send(id).catch((error: unknown) => {
      logger.info('Could not queue an e-mail; the recovery schedule will queue it again', {
        outboundEmailId: id,
        error,
      });
    });
  }
}

/**
 * Sends e-mails of one kind that their maker wrote claimed (`draft`'s `claimed`), after it took
 * their send slots, settling those that ended in one transaction; a retry's message is queued as
 * `deliver` queues it.
 */
export async function sendClaimed(
  emails: readonly OutboundEmail[],
  through: Mailer = mailer(),
): Promise<Outcome[]> {
  const outcomes = await deliverClaimed(emails, through);
  await Promise.all(outcomes.map((outcome, index) => retryLater(emails[index]!.id, outcome)));
  return outcomes;
}

/** Queues the next attempt of an e-mail whose attempt failed for now; the schedule makes up for a lost one. */
async function retryLater(id: string, outcome: Outcome): Promise<void> {
  if (outcome.result !== 'retry') return;
  await send(id, outcome.delayMs).catch((error: unknown) => {
    logger.info('Could not queue a retry; the recovery schedule will queue it again', {
      outboundEmailId: id,
      error,
    });
  });
}

/** Sends one e-mail if it is due, and queues the next attempt after a temporary failure. */
export async function deliver(id: string, through: Mailer = mailer()): Promise<Outcome> {
  const outcome = await deliverOne(id, through);
  await retryLater(id, outcome);
  return outcome;
}

/** E-mails looked at per `deliverDue` run, per status. */
export const DUE_PAGE = 100;

/**
 * Sends what is due here and now, one at a time: queued e-mails whose time has come and e-mails
 * whose sender's lease ended (at most DUE_PAGE of each). Tests play the worker with it; the
 * recovery schedule queues what is due instead (`recoverDue`), for every worker to send. Two
 * bounded Queries of `outbox#queued` and `outbox#sending`, oldest first; never a scan. Answers
 * how many it looked at and what became of them.
 */
export async function deliverDue(options: { at?: number; mailer?: Mailer } = {}) {
  const at = options.at ?? Date.now();
  // gsi1sk is `{nextAttemptAt}#{id}`: every key due at `at` sorts before the next millisecond.
  const due = await Promise.all(
    (['queued', 'sending'] as const).map((status) =>
      OutboundEmailEntity.query
        .byStatus({ status })
        .lt({ nextAttemptAt: new Date(at + 1).toISOString() })
        .go({ limit: DUE_PAGE, attributes: ['id'] })
        .then(({ data }) => data),
    ),
  );
  const counts: Record<Outcome['result'], number> = {
    sent: 0,
    failed: 0,
    cancelled: 0,
    retry: 0,
    'not-due': 0,
  };
  // Each e-mail is claimed at the time it is reached, not when the run began: a lease taken with
  // the run's start would end early, after a few slow sends, and let another worker in.
  const aheadMs = at - Date.now();
  for (const { id } of due.flat()) {
    const outcome = await deliverOne(id, options.mailer ?? mailer(), aheadMs);
    counts[outcome.result] += 1;
  }
  if (counts.sent + counts.failed + counts.retry > 0) logger.info('Delivered due e-mails', counts);
  return counts;
}

/** E-mails queued again per `recoverDue` run at most, per status. */
export const RECOVER_LIMIT = 20_000;
/**
 * A queued e-mail's message is taken as lost once the e-mail has been due this long: a message
 * waits in a backlog of up to this much sending, and SQS delays a retry's message at most this
 * long, so e-mails due more recently may still have theirs coming (an extra message would take a
 * send-rate slot for nothing).
 */
export const LOST_AFTER_MS = MAX_DELAY_SECONDS * 1000;

/** The ids of e-mails of `status` whose `nextAttemptAt` is before `before`, oldest first. */
async function dueIds(status: 'queued' | 'sending', before: number): Promise<string[]> {
  // gsi1sk is `{nextAttemptAt}#{id}`: every key due before `before` sorts before that moment.
  const { data } = await OutboundEmailEntity.query
    .byStatus({ status })
    .lt({ nextAttemptAt: new Date(before).toISOString() })
    .go({ attributes: ['id'], count: RECOVER_LIMIT, pages: 'all' });
  return data.map(({ id }) => id);
}

/**
 * Queues again what no message is coming for, as the send itself queued it, so every worker
 * sends it at the send's pace: e-mails queued and due for longer than LOST_AFTER_MS (their
 * message was lost with a worker that died between the write and the message, or a retry was due
 * beyond SQS's 15-minute delay) and e-mails whose sender's lease ended (it died while sending).
 * E-mails due more recently are left to the message still on its way. A message for an e-mail
 * already taken or sent sends nothing (the claim decides), though it takes a send-rate slot.
 * Bounded Queries of `outbox#queued` and `outbox#sending`, oldest first; never a scan.
 */
export async function recoverDue(
  options: {
    at?: number;
    /** The queue lost every message (a local queue restarted): every due e-mail needs one. */
    queueEmptied?: boolean;
  } = {},
) {
  const at = options.at ?? Date.now();
  const [queued, sending] = await Promise.all([
    dueIds('queued', options.queueEmptied ? at + 1 : at - LOST_AFTER_MS),
    dueIds('sending', at + 1),
  ]);
  const messages = [...queued, ...sending].map(emailMessage);
  await sendAll(messages, 'email');
  if (messages.length > 0)
    logger.info('Queued due e-mails again', { queued: queued.length, sending: sending.length });
  return { queued: queued.length, sending: sending.length };
}

/** Whether any e-mail is still queued or being sent (two Queries of one item each). */
export async function onTheirWay(): Promise<boolean> {
  const found = await Promise.all(
    (['queued', 'sending'] as const).map((status) =>
      OutboundEmailEntity.query.byStatus({ status }).go({ limit: 1, attributes: ['id'] }),
    ),
  );
  return found.some(({ data }) => data.length > 0);
}

export const RecentInput = v.object({
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(200)), 50),
  days: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(31)), 7),
});

/**
 * The newest e-mails of the last `days` days (Outbox page): one Query per day partition, newest
 * first, stopping as soon as `limit` are found.
 */
export const recent = fn(RecentInput, async ({ limit, days }) => {
  const emails: OutboundEmail[] = [];
  for (let back = 0; back < days && emails.length < limit; back += 1) {
    const day = new Date(Date.now() - back * 86_400_000).toISOString().slice(0, 10);
    const { data } = await OutboundEmailEntity.query
      .byDay({ day })
      .go({ order: 'desc', limit: limit - emails.length });
    emails.push(...data);
  }
  return emails;
});

export async function byId(id: string): Promise<OutboundEmail | undefined> {
  const { data } = await OutboundEmailEntity.get(keyOf(id)).go({ consistent: true });
  return data ?? undefined;
}

/** The e-mail id a queue message names, if it is an outbox message. */
export function messageOf(body: string): string | undefined {
  try {
    const { outboundEmailId } = JSON.parse(body) as Partial<OutboxMessage>;
    return typeof outboundEmailId === 'string' && /^[0-9A-Z]{26}$/.test(outboundEmailId)
      ? outboundEmailId
      : undefined;
  } catch {
    return undefined;
  }
}

/** The worker's outbox messages: each e-mail is delivered; infrastructure failures are retried. */
export async function handleBatch(records: { messageId: string; body: string }[]) {
  const batchItemFailures: { itemIdentifier: string }[] = [];
  for (const record of records) {
    const id = messageOf(record.body);
    if (!id) continue;
    try {
      await deliver(id);
    } catch (error) {
      logger.error('Outbox message failed; it will be redelivered', {
        messageId: record.messageId,
        outboundEmailId: id,
        error,
      });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  await flush();
  return { batchItemFailures };
}
