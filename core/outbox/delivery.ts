// Delivers one outbound e-mail. A worker takes a slot of the send rate, claims the e-mail with a
// conditional update (queued -> sending, with a lease), sends it through SMTP with a Message-ID
// fixed by its id, and marks it sent with the server's answer; only the worker holding the claim
// (same attempt number) may settle it. What its kind needs besides (is it still wanted, what to
// write with its end, another way to send it) comes from the hooks its owner registered. An
// e-mail its maker writes already claimed (a newsletter's) skips the message and the claim: the
// maker sends it at once with the others it wrote (`deliverClaimed`), and they settle together.
//
// What is guaranteed: two workers never send it at once (the claim), a worker that dies before
// the SMTP server accepts the message leaves it to be sent once when its lease ends, and a sent
// e-mail is never claimed again. What is not: SMTP has no idempotency, so a worker that dies
// after the server accepted the message and before `sent` is written (one DynamoDB write, a few
// milliseconds; for e-mails sent together, until the slowest of them is answered) leaves it to be
// sent again when the lease ends. That second copy carries the same Message-ID, which most
// mailbox providers use to drop duplicates.
import {
  createWriteTransaction,
  type Entity,
  type EntityItem,
  type Item,
  type WhereCallback,
} from 'electrodb';
import { committedOnce, committedTogether, isConditionFailure, KeptColliding } from '#core/db';
import { logger } from '#core/logs';
import { isPermanentFailure, type Mailer, senderDomain, SMTP_TIMEOUTS } from '#core/mail';
import { keyOf, OutboundEmailEntity } from './entity';
import { ENVELOPE, hooksOf, type Ending, type Envelope, type KindHooks } from './kinds';
import { takeSendSlots } from './send-rate';
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
    /** Why it was cancelled, as its kind's `unwanted` said. */
    reason?: string;
  };

/** How an attempt that ended the e-mail ended it, for its kind's hooks; none while it is queued. */
function endingOf({ status, reason, lastError, smtpMessageId, sentAt }: Settlement) {
  return status === 'queued'
    ? undefined
    : ({ status, reason, lastError, smtpMessageId, sentAt } satisfies Ending);
}

type Condition =
  typeof OutboundEmailEntity extends Entity<infer A, infer F, infer C, infer S>
    ? WhereCallback<A, F, C, S, Item<A, F, C, S, S['attributes']>>
    : never;

/** The condition that this attempt still holds the e-mail's claim. */
const heldBy =
  (email: OutboundEmail): Condition =>
  (attr, op) =>
    `${op.eq(attr.status, 'sending')} AND ${op.eq(attr.attempts, email.attempts ?? 0)}`;

/**
 * Ends this attempt, looking at the e-mail again at `at` if it is queued; false when its lease
 * ended and another attempt took the e-mail over. The last attempt makes its kind's `settling`
 * writes in the same transaction, so each happens once, then runs its kind's `settled`.
 */
async function settle(
  email: OutboundEmail,
  at: number,
  hooks: KindHooks,
  { reason, ...change }: Settlement,
): Promise<boolean> {
  const ending = endingOf({ reason, ...change });
  const writes = ending
    ? [
        ...(hooks.settling?.(email, ending) ?? []),
        ...(hooks.counting?.([{ message: email, ending }]) ?? []),
      ]
    : [];
  const set = { nextAttemptAt: iso(at), ...change };
  try {
    if (writes.length === 0) {
      await OutboundEmailEntity.patch(keyOf(email.id)).set(set).where(heldBy(email)).go();
    } else {
      // Writes that add to counts (an issue's) collide with others: one that collided is tried
      // again, not taken for a takeover (which would leave it to be sent a second time).
      const settled = await committedOnce(
        createWriteTransaction({ outbox: OutboundEmailEntity }, ({ outbox }) => [
          outbox.patch(keyOf(email.id)).set(set).where(heldBy(email)).commit(),
          ...writes,
        ]),
      );
      if (!settled) return takenOver(email, change);
    }
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return takenOver(email, change);
  }
  if (ending) await hooks.settled?.([{ message: email, ending }]);
  return true;
}

function takenOver(email: OutboundEmail, change: Omit<Settlement, 'reason'>): false {
  logger.info('An e-mail was taken over by another attempt before this one ended', {
    outboundEmailId: email.id,
    status: change.status,
  });
  return false;
}

/**
 * Hands an e-mail of a kind nobody registered back as it was, untouched by this attempt, so a
 * worker that can deliver it sends it later (the error that follows says which import is missing).
 */
async function handBack(email: OutboundEmail, at: number): Promise<void> {
  await OutboundEmailEntity.patch(keyOf(email.id))
    .set({ status: 'queued', nextAttemptAt: iso(at) })
    .add({ attempts: -1 })
    .where(heldBy(email))
    .go()
    .catch((error: unknown) => {
      if (!isConditionFailure(error)) throw error;
    });
}

/**
 * A message for an e-mail already ended: the worker that ended it may have died, or its kind's
 * `settled` failed (an issue's close), before it finished; its kind makes up for that here.
 */
async function settledAgain(id: string): Promise<void> {
  const { data } = await OutboundEmailEntity.get(keyOf(id)).go({
    consistent: true,
    attributes: [...ENVELOPE],
  });
  if (data && data.status !== 'queued' && data.status !== 'sending')
    await hooksOf(data.kind).settled?.([{ message: data as Envelope }]);
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
  await takeSendSlots();
  const at = Date.now() + aheadMs;
  const email = await claim(id, at);
  if (!email) {
    await settledAgain(id);
    return { result: 'not-due' };
  }
  let hooks: KindHooks;
  try {
    hooks = hooksOf(email.kind);
  } catch (error) {
    await handBack(email, at);
    throw error;
  }
  const attempts = email.attempts ?? 0;
  if (attempts > MAX_ATTEMPTS) {
    const lastError = `Gave up after ${MAX_ATTEMPTS} attempts: ${email.lastError ?? 'no answer'}`;
    await settle(email, at, hooks, { status: 'failed', lastError });
    return { result: 'failed' };
  }
  // Rendering needs nothing from the table: it overlaps the owner's read.
  const [unwanted, mail] = await Promise.all([
    hooks.unwanted?.(email),
    hooks.send ? undefined : render(email.kind, email.props),
  ]);
  if (unwanted) {
    await settle(email, at, hooks, { status: 'cancelled', ...unwanted });
    return { result: 'cancelled' };
  }
  const attempt = await sendOnce(email, hooks, mail, mailer);
  if (attempt.status === 'queued') {
    await settle(email, at + attempt.delayMs, hooks, {
      status: 'queued',
      lastError: attempt.lastError,
    });
    return { result: 'retry', delayMs: attempt.delayMs };
  }
  const settled = await settle(email, Date.now(), hooks, attempt);
  if (settled && attempt.status === 'sent') logSent(email);
  return { result: attempt.status };
}

type Rendered = Awaited<ReturnType<typeof render>>;

/** What one attempt came to: sent, failed for good, or to be tried again after `delayMs`. */
type Attempted =
  | (Settlement & { status: 'sent' | 'failed' })
  | (Settlement & { status: 'queued'; delayMs: number });

/** Hands the e-mail to the SMTP server (or its kind's `send`) once; never throws for its answer. */
async function sendOnce(
  email: OutboundEmail,
  hooks: KindHooks,
  mail: Rendered | undefined,
  mailer: Mailer,
): Promise<Attempted> {
  const attempts = email.attempts ?? 0;
  try {
    const answer = hooks.send
      ? await hooks.send(email)
      : await mailer.send({
          ...mail!,
          subject: email.subject,
          to: email.to,
          headers: email.headers
            ? (JSON.parse(email.headers) as Record<string, string>)
            : undefined,
          messageId: messageIdOf(email.id),
        });
    return {
      status: 'sent',
      sentAt: iso(Date.now()),
      smtpMessageId: answer.messageId,
      smtpResponse: answer.response,
    };
  } catch (error) {
    const reason = reasonOf(error);
    const log = { outboundEmailId: email.id, kind: email.kind, attempts, reason };
    const permanent = hooks.send ? (hooks.permanent?.(error) ?? false) : isPermanentFailure(error);
    if (permanent || attempts >= MAX_ATTEMPTS) {
      logger.error('An e-mail could not be delivered', log);
      return {
        status: 'failed',
        lastError: permanent ? reason : `Gave up after ${attempts} attempts: ${reason}`,
      };
    }
    const delayMs = retryDelayMs(attempts);
    logger.info('An e-mail will be retried', { ...log, delayMs });
    return { status: 'queued', lastError: reason, delayMs };
  }
}

function logSent(email: OutboundEmail) {
  logger.info('E-mail sent', {
    outboundEmailId: email.id,
    kind: email.kind,
    attempts: email.attempts ?? 0,
  });
}

/**
 * Sends e-mails of one kind that their maker wrote already claimed (`draft`'s `claimed`), after
 * taking their send slots, and having decided in that write that they are wanted. They go out at
 * once, and those that ended are settled together in one transaction, with their kind's counts
 * written once for all. One taken over meanwhile is left to the attempt that took it; one to be
 * tried again is queued as any failed attempt is. Answers each e-mail's outcome, in order.
 */
export async function deliverClaimed(
  emails: readonly OutboundEmail[],
  mailer: Mailer,
): Promise<Outcome[]> {
  if (emails.length === 0) return [];
  const kind = emails[0]!.kind;
  if (emails.some((email) => email.kind !== kind))
    throw new Error('E-mails sent together must be of one kind');
  const hooks = hooksOf(kind);
  // Every one rendered before any is sent: a render that throws leaves none of them sent.
  const mails = await Promise.all(
    emails.map((email) => (hooks.send ? undefined : render(email.kind, email.props))),
  );
  const attempts = await Promise.all(
    emails.map((email, index) => sendOnce(email, hooks, mails[index], mailer)),
  );
  const at = Date.now();
  const ended = emails.flatMap((email, index) => {
    const attempt = attempts[index]!;
    return attempt.status === 'queued' ? [] : [{ email, attempt }];
  });
  const endedBy = ({ attempt }: (typeof ended)[number]) => endingOf(attempt)!;
  const together = await committedTogether(
    { outbox: OutboundEmailEntity },
    ended,
    (member, { outbox }) => [
      outbox
        .patch(keyOf(member.email.id))
        .set({ nextAttemptAt: iso(at), ...member.attempt })
        .where(heldBy(member.email))
        .commit(),
      ...(hooks.settling?.(member.email, endedBy(member)) ?? []),
    ],
    (members) =>
      hooks.counting?.(
        members.map((member) => ({ message: member.email, ending: endedBy(member) })),
      ) ?? [],
  ).catch(async (error: unknown) => {
    // Settled together, they kept colliding with other writers: each is settled alone instead,
    // so none that was sent is left to be sent again.
    if (!(error instanceof KeptColliding)) throw error;
    for (const { email, attempt } of ended)
      if ((await settle(email, at, hooks, attempt)) && attempt.status === 'sent') logSent(email);
    return undefined;
  });
  const { committed, refused } = together ?? { committed: [], refused: [] };
  for (const { email, attempt } of refused) takenOver(email, attempt);
  // One line for the group: no line, and no stored log item, per e-mail.
  const sent = committed.filter(({ attempt }) => attempt.status === 'sent');
  if (sent.length > 0)
    logger.info('E-mails sent', { kind, outboundEmailIds: sent.map(({ email }) => email.id) });
  if (committed.length > 0)
    await hooks.settled?.(
      committed.map((member) => ({ message: member.email, ending: endedBy(member) })),
    );
  return Promise.all(
    emails.map(async (email, index): Promise<Outcome> => {
      const attempt = attempts[index]!;
      if (attempt.status !== 'queued') return { result: attempt.status };
      await settle(email, at + attempt.delayMs, hooks, {
        status: 'queued',
        lastError: attempt.lastError,
      });
      return { result: 'retry', delayMs: attempt.delayMs };
    }),
  );
}
