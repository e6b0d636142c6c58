// Subscribers without accounts: subscribe (double opt-in), confirm, pick audiences and upcoming
// niches, change the e-mail address, unsubscribe. Our table is the source of truth; the mailing
// list mirrors confirmed members.
import { createWriteTransaction, type EntityItem } from 'electrodb';
import * as v from 'valibot';
import { ulid } from 'ulid';
import * as Analytics from '#core/analytics';
import * as Audiences from '#core/audiences';
import { fn, parse, TrackingSchema, VisibleError } from '#core/common';
import { isConditionFailure } from '#core/db';
import { EmailSchema, emailKey } from '#core/mail';
import * as Outbox from '#core/outbox';
import * as RateLimit from '#core/rate-limit';
import * as Tokens from '#core/tokens';
import { SubscriberEntity } from './entity';
import { SubscriberEmailEntity } from './subscriber-email-entity';
import { AudienceMemberEntity } from './audience-member-entity';
import { confirmationDraft } from './emails';
import { mirror } from './mirror';
// The entity file, not the concept: core/newsletter reads subscribers, and an unsubscribe counts
// against the issue that came last.
import { NewsletterIssueEntity } from '../newsletter/issue-entity';

export { SubscriberEntity, SubscriberEmailEntity, AudienceMemberEntity };
export { subscriberLinks, unsubscribeHeaders, manageToken } from './links';
import { linkToken, parseLinkSubject } from './links';
export type Subscriber = EntityItem<typeof SubscriberEntity>;
export type SubscriberStatus = Subscriber['status'];

export const ALREADY_SUBSCRIBED_CODE = 'MAILCHIMP_USER_ALREADY_SUBSCRIBER';
export const BROKEN_LINK_MESSAGE = 'Could not verify subscription. Invalid or broken link';

/** A subscriber's step in the funnel, with the tracking values of their signup. */
function track(name: Analytics.EventName, path: string, subscriber: Subscriber) {
  return Analytics.record({
    name,
    path,
    utm: subscriber.utm,
    raud: subscriber.raud,
    vus: subscriber.vus as '' | 'sp' | 'ip' | undefined,
  });
}

const brokenLink = () => new VisibleError('subscriber.invalid_link', BROKEN_LINK_MESSAGE, 400);
const changedMeanwhile = () =>
  new VisibleError('subscriber.changed', 'Your subscription just changed. Please try again.', 409);
const now = () => new Date().toISOString();

/** Runs a write transaction; false when one of its conditions failed (nothing was written). */
async function committed(transaction: { go(): Promise<{ canceled: boolean }> }): Promise<boolean> {
  try {
    return !(await transaction.go()).canceled;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

export async function byId(id: string): Promise<Subscriber | undefined> {
  const { data } = await SubscriberEntity.get({ id }).go({ consistent: true });
  return data ?? undefined;
}

export async function byEmail(email: string): Promise<Subscriber | undefined> {
  const { data } = await SubscriberEmailEntity.get({ email: emailKey(email) }).go({
    consistent: true,
  });
  return data ? byId(data.subscriberId) : undefined;
}

/** The subscriber a `subscriberHash` token names, if the token is valid for one of `purposes`. */
export async function fromToken(
  token: string | null | undefined,
  purposes: Tokens.TokenPurpose[],
): Promise<Subscriber> {
  for (const purpose of purposes) {
    const verified = Tokens.verify(purpose, token);
    const owner = verified.ok && verified.subject ? parseLinkSubject(verified.subject) : undefined;
    if (!owner) continue;
    const subscriber = await byId(owner.id);
    if (subscriber && (subscriber.linkVersion ?? 0) === owner.linkVersion) return subscriber;
  }
  throw brokenLink();
}

export const SubscribeInput = v.object({
  email: EmailSchema,
  audienceId: v.pipe(v.string(), v.nonEmpty(), v.maxLength(64)),
  ...TrackingSchema.entries,
});

/**
 * Subscribes an address to an audience and queues a confirmation e-mail in the same write, for
 * the outbox worker to send: the request never waits for the mail server. A subscribed address is
 * refused; a pending one gets the audience added and a fresh e-mail; an unsubscribed or cleaned
 * one starts over as pending. Never stores an address twice.
 */
export const subscribe = fn(SubscribeInput, async (input) => {
  const [audience, existing] = await Promise.all([
    Audiences.byId(input.audienceId),
    byEmail(input.email),
  ]);
  if (!audience || audience.state !== 'active') {
    throw new VisibleError('audience.not_found', 'This audience does not exist', 404);
  }
  if (existing?.status === 'subscribed') {
    throw new VisibleError(ALREADY_SUBSCRIBED_CODE, 'You are already a subscriber!', 409);
  }
  await RateLimit.hit(RateLimit.LIMITS.confirmationsPerAddress, input.email);
  const created = existing ? undefined : await createPending(input, audience);
  const { subscriber, email } =
    created ?? (await reopen(existing ?? (await racedWinner(input.email)), audience.id));
  await Promise.all([
    Outbox.dispatch([email]),
    track('subscribe', `/a/${audience.slug}`, { ...subscriber, ...input }),
  ]);
  // Only a subscription this request created may be assembled with the token.
  return {
    subscriber,
    assembleToken: created && linkToken('assemble', subscriber),
  };
});

/** Another request created the same address a moment ago: continue with that subscriber. */
async function racedWinner(email: string): Promise<Subscriber> {
  const raced = await byEmail(email);
  if (raced) return raced;
  throw changedMeanwhile();
}

type Written = { subscriber: Subscriber; email: Outbox.OutboundEmail };

/**
 * A new pending subscriber, its e-mail claim and its confirmation e-mail; undefined when the
 * address was claimed first.
 */
async function createPending(
  input: v.InferOutput<typeof SubscribeInput>,
  audience: Audiences.Audience,
): Promise<Written | undefined> {
  const subscriber = {
    id: ulid(),
    email: input.email,
    status: 'pending' as const,
    audienceIds: [input.audienceId],
    firstAudienceId: input.audienceId,
    utm: input.utm,
    raud: input.raud,
    vus: input.vus,
    createdAt: now(),
    updatedAt: now(),
    linkVersion: 0,
  };
  const email = await confirmationDraft(subscriber, [audience]);
  const created = await committed(
    createWriteTransaction(
      {
        entity: SubscriberEntity,
        claim: SubscriberEmailEntity,
        member: AudienceMemberEntity,
        outbox: Outbox.OutboundEmailEntity,
      },
      ({ entity, claim, member, outbox }) => [
        entity.create(subscriber).commit(),
        outbox.create(email).commit(),
        claim.create({ email: subscriber.email, subscriberId: subscriber.id }).commit(),
        member
          .put({ audienceId: input.audienceId, subscriberId: subscriber.id, addedAt: now() })
          .commit(),
      ],
    ),
  );
  return created ? { subscriber, email } : undefined;
}

/**
 * Adds the audience to a pending subscriber, or starts an unsubscribed one over as pending with
 * every audience chosen before plus this one, with a fresh confirmation e-mail. Fails if the
 * status or the address changed meanwhile (the e-mail names the address and its links).
 */
async function reopen(subscriber: Subscriber, audienceId: string): Promise<Written> {
  if (subscriber.status === 'subscribed') {
    throw new VisibleError(ALREADY_SUBSCRIBED_CODE, 'You are already a subscriber!', 409);
  }
  const email = await confirmationDraft({
    ...subscriber,
    audienceIds: new Set([...(subscriber.audienceIds ?? []), audienceId]),
  });
  const reopened = await committed(
    createWriteTransaction(
      {
        entity: SubscriberEntity,
        member: AudienceMemberEntity,
        outbox: Outbox.OutboundEmailEntity,
      },
      ({ entity, member, outbox }) => [
        entity
          .patch({ id: subscriber.id })
          .add({ audienceIds: [audienceId] })
          .set({ status: 'pending', updatedAt: now() })
          .remove(['unsubscribedAt'])
          .where(
            (attr, op) =>
              `${op.eq(attr.status, subscriber.status)} AND ${sameLinks(subscriber, attr, op)}`,
          )
          .commit(),
        member.put({ audienceId, subscriberId: subscriber.id, addedAt: now() }).commit(),
        outbox.create(email).commit(),
      ],
    ),
  );
  if (!reopened) throw changedMeanwhile();
  return { subscriber: (await byId(subscriber.id))!, email };
}

type Where = Parameters<
  Parameters<ReturnType<ReturnType<typeof SubscriberEntity.patch>['set']>['where']>[0]
>;

/** The condition that the address and link version are still those an e-mail was drafted for. */
function sameLinks(subscriber: Subscriber, attr: Where[0], op: Where[1]): string {
  const version =
    subscriber.linkVersion === undefined
      ? op.notExists(attr.linkVersion)
      : op.eq(attr.linkVersion, subscriber.linkVersion);
  return `${op.eq(attr.email, subscriber.email)} AND ${version}`;
}

/** Confirms a pending subscription from the e-mail link; confirming twice is fine. */
export async function confirm(token: string | null | undefined) {
  const subscriber = await fromToken(token, ['confirm']);
  if (subscriber.status === 'unsubscribed' || subscriber.status === 'cleaned') throw brokenLink();
  if (subscriber.status === 'pending') {
    await SubscriberEntity.update({ id: subscriber.id })
      .set({ status: 'subscribed', confirmedAt: now(), updatedAt: now() })
      .where((attr, op) => op.eq(attr.status, 'pending'))
      .go()
      .catch((error: unknown) => {
        if (!isConditionFailure(error)) throw error;
      });
    const confirmed = (await byId(subscriber.id))!;
    await mirror.member(confirmed);
    await track('subscription_confirmed', '/confirm-subscription', confirmed);
    return confirmed;
  }
  return subscriber;
}

/** Ids are ULIDs; anything longer than a key may be is refused before it reaches the table. */
const AudienceId = v.pipe(v.string(), v.nonEmpty('Please choose an audience'), v.maxLength(64));

export const ToggleInput = v.object({
  audienceId: AudienceId,
  subscribed: v.boolean(),
});

/** Subscribes to or unsubscribes from one audience at once (SelectMoreAudiences, preferences). */
export async function setAudience(subscriber: Subscriber, input: v.InferInput<typeof ToggleInput>) {
  const { audienceId, subscribed } = parse(ToggleInput, input);
  const audience = await Audiences.byId(audienceId);
  if (!audience || audience.state !== 'active') {
    throw new VisibleError('audience.not_found', 'This audience does not exist', 404);
  }
  // The audience set and its membership item change together, so concurrent toggles leave the
  // lookup equal to the set, whichever toggle lands last.
  const saved = await committed(
    createWriteTransaction(
      { entity: SubscriberEntity, member: AudienceMemberEntity },
      ({ entity, member }) => {
        const patch = entity.patch({ id: subscriber.id });
        const membership = { audienceId, subscriberId: subscriber.id };
        return subscribed
          ? [
              patch
                .add({ audienceIds: [audienceId] })
                .set({ updatedAt: now() })
                .commit(),
              member.put({ ...membership, addedAt: now() }).commit(),
            ]
          : [
              patch
                .delete({ audienceIds: [audienceId] })
                .set({ updatedAt: now() })
                .commit(),
              member.delete(membership).commit(),
            ];
      },
    ),
  );
  if (!saved) throw changedMeanwhile();
  if (subscriber.status === 'subscribed') {
    await mirror.tags(subscriber.email, [
      { name: audience.tag, status: subscribed ? 'active' : 'inactive' },
    ]);
  }
  await track('preferences_updated', '/subscription', subscriber);
}

/** Records or withdraws one upcoming niche the subscriber identifies with (a mailing-list tag). */
export async function setShadowAudience(
  subscriber: Subscriber,
  input: v.InferInput<typeof ToggleInput>,
) {
  const { audienceId, subscribed } = parse(ToggleInput, input);
  const audience = await Audiences.byId(audienceId);
  if (!audience || audience.state !== 'upcoming') {
    throw new VisibleError('audience.not_upcoming', 'Please choose among the upcoming niches', 400);
  }
  const update = SubscriberEntity.patch({ id: subscriber.id });
  await (
    subscribed
      ? update.add({ shadowAudienceIds: [audienceId] })
      : update.delete({ shadowAudienceIds: [audienceId] })
  )
    .set({ updatedAt: now() })
    .go();
  if (subscriber.status === 'subscribed') {
    await mirror.tags(subscriber.email, [
      { name: audience.tag, status: subscribed ? 'active' : 'inactive' },
    ]);
  }
}

/**
 * Moves the subscription to another address, which must be confirmed like a first subscription:
 * until then the subscriber is pending and gets no newsletter. An address another subscriber uses
 * is refused.
 */
export async function changeEmail(subscriber: Subscriber, newEmail: string): Promise<Subscriber> {
  const email = parse(EmailSchema, newEmail);
  if (email === subscriber.email) return subscriber;
  const taken = () =>
    new VisibleError(
      'subscriber.email_taken',
      'This email address is already used by another subscription',
      409,
    );
  // The new address gets a confirmation e-mail: the same per-address limit as a subscription.
  await RateLimit.hit(RateLimit.LIMITS.confirmationsPerAddress, email);
  const confirmation = await confirmationDraft({
    ...subscriber,
    email,
    linkVersion: (subscriber.linkVersion ?? 0) + 1,
  });
  await createWriteTransaction(
    { entity: SubscriberEntity, claim: SubscriberEmailEntity, outbox: Outbox.OutboundEmailEntity },
    ({ entity, claim, outbox }) => [
      claim.create({ email, subscriberId: subscriber.id }).commit(),
      claim
        .delete({ email: subscriber.email })
        .where((attr, op) => op.eq(attr.subscriberId, subscriber.id))
        .commit(),
      entity
        .patch({ id: subscriber.id })
        .set({
          email,
          updatedAt: now(),
          ...(subscriber.status === 'subscribed' && { status: 'pending' }),
        })
        // Every link sent to the old address names the old version and stops working, and an
        // e-mail to it still in the outbox is cancelled.
        .add({ linkVersion: 1 })
        .where((attr, op) => sameLinks(subscriber, attr, op))
        .commit(),
      outbox.create(confirmation).commit(),
    ],
  )
    .go()
    .then((result) => {
      if (result.canceled) throw taken();
    })
    .catch((error: unknown) => {
      if (error instanceof VisibleError) throw error;
      if (isConditionFailure(error)) throw taken();
      throw error;
    });
  if (subscriber.status === 'subscribed') await mirror.status(subscriber.email, 'unsubscribed');
  const moved = (await byId(subscriber.id))!;
  await Outbox.dispatch([confirmation]);
  await track('preferences_updated', '/subscription', subscriber);
  return moved;
}

/** How long after an issue an unsubscribe still counts against it. */
export const UNSUBSCRIBE_ATTRIBUTION_MS = 30 * 86_400_000;

/**
 * Stops all mail to the subscriber; unsubscribing twice is fine. The last issue they were sent
 * (within 30 days) counts the unsubscribe, in the same transaction, so it is counted once, and
 * forgets it, so leaving again after coming back counts only against an issue sent since.
 */
export async function unsubscribe(subscriber: Subscriber): Promise<void> {
  if (subscriber.status === 'unsubscribed' || subscriber.status === 'cleaned') return;
  const at = now();
  const lastIssueId =
    subscriber.lastIssueId &&
    Date.parse(at) - Date.parse(subscriber.lastIssueSentAt ?? '') < UNSUBSCRIBE_ATTRIBUTION_MS
      ? subscriber.lastIssueId
      : undefined;
  try {
    const result = await createWriteTransaction(
      { subscriber: SubscriberEntity, issue: NewsletterIssueEntity },
      (entities) => [
        entities.subscriber
          .patch({ id: subscriber.id })
          .set({ status: 'unsubscribed', unsubscribedAt: at, updatedAt: at })
          // Counted now: someone who comes back and leaves before another issue reaches them
          // counts against nothing more. (lastIssueSentAt stays: only a later issue sets it.)
          .remove(['lastIssueId'])
          .where(
            (attr, op) =>
              `(${op.eq(attr.status, 'pending')} OR ${op.eq(attr.status, 'subscribed')})`,
          )
          .commit(),
        ...(lastIssueId
          ? [entities.issue.patch({ id: lastIssueId }).add({ unsubscribes: 1 }).commit()]
          : []),
      ],
    ).go();
    // Cancelled: they left meanwhile (or the issue was deleted); nothing more to do.
    if (result.canceled) return;
  } catch (error) {
    if (isConditionFailure(error)) return;
    throw error;
  }
  await mirror.status(subscriber.email, 'unsubscribed');
  await track('unsubscribe', '/unsubscribe', subscriber);
}

export const ByAudienceInput = v.object({
  audienceId: AudienceId,
  cursor: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(2048)))),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1000)), 500),
});

/**
 * One page of an audience's members (subscriber ids, in id order) and the cursor of the next page.
 * Members are every subscriber whose audienceIds hold the audience, whatever their status: a send
 * reads each member and keeps those `canReceiveMail` allows.
 */
export const byAudience = fn(ByAudienceInput, async ({ audienceId, cursor, limit }) => {
  const page = await AudienceMemberEntity.query
    .byAudience({ audienceId })
    .go({ cursor: cursor ?? null, limit })
    .catch((error: unknown) => {
      // ElectroDB refuses a cursor it did not make; that is bad input, not a bug.
      if ((error as { name?: string }).name === 'ElectroError' && cursor) {
        throw new VisibleError('subscriber.bad_cursor', 'This page cursor is not valid', 400);
      }
      throw error;
    });
  return { subscriberIds: page.data.map((member) => member.subscriberId), cursor: page.cursor };
});

/**
 * RFC 8058 one-click unsubscribe. Mail providers post from a few shared addresses, so the signed
 * token is the authority and the limit counts per subscriber: a forged token is refused before
 * anything is read or counted.
 */
export async function unsubscribeOneClick(token: string | null | undefined): Promise<void> {
  const verified = Tokens.verify('manage', token);
  const subject = verified.ok ? verified.subject : undefined;
  if (!subject || !parseLinkSubject(subject)) throw brokenLink();
  // Keyed by id and link version: a stale link (sent before an address change) cannot use up
  // the current link's allowance.
  await RateLimit.hit(RateLimit.LIMITS.oneClickPerSubscriber, subject);
  await unsubscribe(await fromToken(token, ['manage']));
}

/** A subscriber with its audiences, for the pages that show them. */
export async function withAudiences(subscriber: Subscriber) {
  return { ...subscriber, audiences: await Audiences.byIds([...(subscriber.audienceIds ?? [])]) };
}

/** Whether mail may go to this subscriber at all. */
export function canReceiveMail(subscriber: Pick<Subscriber, 'status'>): boolean {
  return subscriber.status === 'pending' || subscriber.status === 'subscribed';
}
