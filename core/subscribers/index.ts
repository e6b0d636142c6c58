// Subscribers without accounts: subscribe (double opt-in), confirm, pick audiences and upcoming
// niches, change the e-mail address, unsubscribe. Our table is the source of truth; the mailing
// list mirrors confirmed members.
import { createWriteTransaction, type EntityItem } from 'electrodb';
import * as v from 'valibot';
import { ulid } from 'ulid';
import * as Analytics from '#core/analytics';
import * as Audiences from '#core/audiences';
import { fn, parse, TrackingSchema, VisibleError } from '#core/common';
import { committed } from '#core/db';
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
function track(name: Analytics.BusinessEventName, path: string, subscriber: Subscriber) {
  return Analytics.AnalyticsEventEntity.create(
    Analytics.eventItem({
      name,
      key: `${subscriber.id}:${subscriber.updatedAt}`,
      path,
      utm: subscriber.utm,
      raud: subscriber.raud,
      vus: subscriber.vus as '' | 'sp' | 'ip' | undefined,
    }),
  ).go();
}

const brokenLink = () => new VisibleError('subscriber.invalid_link', BROKEN_LINK_MESSAGE, 400);
const changedMeanwhile = () =>
  new VisibleError('subscriber.changed', 'Your subscription just changed. Please try again.', 409);
const now = () => new Date().toISOString();

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

/**
 * Whether a link for `purpose` still works for the subscriber as stored. Every link dies with the
 * link version it names. An `assemble` link is handed to whoever typed the address, so it only
 * works on a subscription nobody has confirmed: confirming kills it for good (ADR 0008).
 */
function linkWorks(purpose: Tokens.TokenPurpose, subscriber: Subscriber, linkVersion: number) {
  if ((subscriber.linkVersion ?? 0) !== linkVersion) return false;
  return (
    purpose !== 'assemble' ||
    (subscriber.status === 'pending' && subscriber.confirmedAt === undefined)
  );
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
    if (subscriber && linkWorks(purpose, subscriber, owner.linkVersion)) return subscriber;
  }
  throw brokenLink();
}

export const SubscribeInput = v.object({
  email: EmailSchema,
  audienceId: v.pipe(v.string(), v.nonEmpty(), v.maxLength(64)),
  ...TrackingSchema.entries,
  /** The visitor's address, when a request subscribes: counted against its rate limit. */
  ip: v.optional(v.pipe(v.string(), v.maxLength(64))),
});

/**
 * Subscribes an address to an audience and queues a confirmation e-mail in the same write, for
 * the outbox worker to send: the request never waits for the mail server. A subscribed address is
 * refused; a pending one gets the audience added and a fresh e-mail; an unsubscribed or cleaned
 * one starts over as pending. Never stores an address twice.
 *
 * What the decision rests on is read and counted at once (the audience, the address and the
 * visitor's rate limit); the address's limit is counted only for a visitor within theirs, so
 * nobody past their own limit can hold another address's count full, and it is given back when
 * no e-mail goes out. Then the write, then queueing the e-mail with the page view.
 */
export const subscribe = fn(SubscribeInput, async ({ ip, ...input }) => {
  const [audience, existing, perIp] = await Promise.all([
    Audiences.byId(input.audienceId),
    byEmail(input.email),
    ip === undefined
      ? RateLimit.NOT_LIMITED
      : RateLimit.attempt(RateLimit.LIMITS.subscribePerIp, ip),
  ]);
  if (!perIp.allowed) throw RateLimit.refusal();
  if (!audience || audience.state !== 'active') {
    throw new VisibleError('audience.not_found', 'This audience does not exist', 404);
  }
  if (existing?.status === 'subscribed') throw alreadySubscribed();
  const perAddress = await RateLimit.attempt(RateLimit.LIMITS.confirmationsPerAddress, input.email);
  if (!perAddress.allowed) throw RateLimit.refusal();
  let written: Written | undefined;
  try {
    written = existing ? undefined : await createPending(input, audience);
    const created = written !== undefined;
    written ??= await reopen(existing ?? (await racedWinner(input.email)), audience.id);
    const { subscriber, email } = written;
    await Promise.all([
      Outbox.dispatch([email]),
      track('subscribe', `/a/${audience.slug}`, { ...subscriber, ...input }),
    ]);
    // Only a subscription this request created may be assembled with the token.
    return {
      subscriber,
      assembleToken: created ? linkToken('assemble', subscriber) : undefined,
    };
  } catch (error) {
    // No e-mail went out: the address's place is given back (a failed give-back keeps the error).
    if (!written) await perAddress.release().catch(() => undefined);
    throw error;
  }
});

const alreadySubscribed = () =>
  new VisibleError(ALREADY_SUBSCRIBED_CODE, 'You are already a subscriber!', 409);

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
 * subscriber changed meanwhile (the e-mail names the address and its links); one confirmed
 * meanwhile is already a subscriber.
 */
async function reopen(subscriber: Subscriber, audienceId: string): Promise<Written> {
  if (subscriber.status === 'subscribed') throw alreadySubscribed();
  const updatedAt = now();
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
          .set({ status: 'pending', updatedAt })
          .remove(['unsubscribedAt'])
          .where((attr, op) => unchanged(subscriber, attr, op))
          .commit(),
        member.put({ audienceId, subscriberId: subscriber.id, addedAt: now() }).commit(),
        outbox.create(email).commit(),
      ],
    ),
  );
  if (!reopened) {
    if ((await byId(subscriber.id))?.status === 'subscribed') throw alreadySubscribed();
    throw changedMeanwhile();
  }
  // What the write stored, without reading it back (the condition held, so the state it decided
  // from is as read; only an audience another request added meanwhile may be missing here).
  const { unsubscribedAt: _left, ...kept } = subscriber;
  return {
    subscriber: {
      ...kept,
      audienceIds: [...new Set([...(subscriber.audienceIds ?? []), audienceId])],
      status: 'pending',
      updatedAt,
    },
    email,
  };
}

type Where = Parameters<
  Parameters<ReturnType<ReturnType<typeof SubscriberEntity.patch>['set']>['where']>[0]
>;

/**
 * What every decision about a subscriber rests on: whether a link still works, what the mailing
 * list hears, whether an e-mail goes out. (The audience sets are not among them: toggles of
 * different audiences from one page both land.)
 */
const DECIDED_FROM = ['status', 'email', 'linkVersion', 'confirmedAt'] as const;

/** Whether two reads of a subscriber agree on everything a request decides from. */
const sameState = (a: Subscriber, b: Subscriber) =>
  DECIDED_FROM.every((name) => a[name] === b[name]);

/**
 * The condition that the subscriber is still in the state a request decided from. Every write to
 * a subscriber carries it, so of two requests that decided from one state, the one that writes
 * second is refused and told so.
 */
function unchanged(subscriber: Subscriber, attr: Where[0], op: Where[1]): string {
  return DECIDED_FROM.map((name) => {
    const value = subscriber[name];
    return value === undefined ? op.notExists(attr[name]) : op.eq(attr[name], value);
  }).join(' AND ');
}

/**
 * After a refused write: the subscriber as they are now if they already are what the request
 * asked for (the same click twice, or two tabs), or else the 'just changed' error, since the
 * request decided from a state that is gone.
 */
async function settled(id: string, wanted: (current: Subscriber) => boolean): Promise<Subscriber> {
  const current = await byId(id);
  if (current && wanted(current)) return current;
  throw changedMeanwhile();
}

/**
 * Confirms a pending subscription from the e-mail link; confirming twice is fine. Only the address
 * and link version the link was sent for are confirmed: an address change landing first retires
 * the link, and one landing second is refused.
 */
export async function confirm(token: string | null | undefined) {
  const subscriber = await fromToken(token, ['confirm']);
  if (!canReceiveMail(subscriber)) throw brokenLink();
  if (subscriber.status === 'subscribed') return subscriber;
  const at = now();
  const confirmed = await committed(
    SubscriberEntity.patch({ id: subscriber.id })
      .set({ status: 'subscribed', confirmedAt: at, updatedAt: at })
      .where((attr, op) => unchanged(subscriber, attr, op)),
  );
  if (!confirmed) {
    return settled(
      subscriber.id,
      (current) =>
        current.status === 'subscribed' && current.linkVersion === subscriber.linkVersion,
    );
  }
  const current = (await byId(subscriber.id))!;
  await mirror.member(current);
  await track('subscription_confirmed', '/confirm-subscription', current);
  return current;
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
  // lookup equal to the set, whichever toggle lands last. The subscriber must still be as read:
  // whether the mailing list hears of it, and whether the link may change it at all, were decided
  // from that.
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
                .where((attr, op) => unchanged(subscriber, attr, op))
                .commit(),
              member.put({ ...membership, addedAt: now() }).commit(),
            ]
          : [
              patch
                .delete({ audienceIds: [audienceId] })
                .set({ updatedAt: now() })
                .where((attr, op) => unchanged(subscriber, attr, op))
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
  const saved = await committed(
    (subscribed
      ? update.add({ shadowAudienceIds: [audienceId] })
      : update.delete({ shadowAudienceIds: [audienceId] })
    )
      .set({ updatedAt: now() })
      .where((attr, op) => unchanged(subscriber, attr, op)),
  );
  if (!saved) throw changedMeanwhile();
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
  // The new address gets a confirmation e-mail: the same per-address limit as a subscription.
  await RateLimit.hit(RateLimit.LIMITS.confirmationsPerAddress, email);
  const linkVersion = (subscriber.linkVersion ?? 0) + 1;
  const confirmation = await confirmationDraft({ ...subscriber, email, linkVersion });
  const moved = await committed(
    createWriteTransaction(
      {
        entity: SubscriberEntity,
        claim: SubscriberEmailEntity,
        outbox: Outbox.OutboundEmailEntity,
      },
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
          // e-mail to it still in the outbox is cancelled. The new address is not confirmed.
          .add({ linkVersion: 1 })
          .remove(['confirmedAt'])
          .where((attr, op) => unchanged(subscriber, attr, op))
          .commit(),
        outbox.create(confirmation).commit(),
      ],
    ),
  );
  if (!moved) return refusedMove(subscriber, email, linkVersion);
  if (subscriber.status === 'subscribed') await mirror.status(subscriber.email, 'unsubscribed');
  const current = (await byId(subscriber.id))!;
  await Outbox.dispatch([confirmation]);
  await track('preferences_updated', '/subscription', subscriber);
  return current;
}

/**
 * Why an address change was refused: the same change landed first (a second click: fine), the
 * subscriber changed meanwhile, or else the address is another subscriber's.
 */
async function refusedMove(
  subscriber: Subscriber,
  email: string,
  linkVersion: number,
): Promise<Subscriber> {
  const current = await byId(subscriber.id);
  if (current?.email === email && current.linkVersion === linkVersion) return current;
  if (current && sameState(current, subscriber)) {
    throw new VisibleError(
      'subscriber.email_taken',
      'This email address is already used by another subscription',
      409,
    );
  }
  throw changedMeanwhile();
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
  const left = await committed(
    createWriteTransaction(
      { subscriber: SubscriberEntity, issue: NewsletterIssueEntity },
      (entities) => [
        entities.subscriber
          .patch({ id: subscriber.id })
          .set({ status: 'unsubscribed', unsubscribedAt: at, updatedAt: at })
          // Counted now: someone who comes back and leaves before another issue reaches them
          // counts against nothing more. (lastIssueSentAt stays: only a later issue sets it.)
          .remove(['lastIssueId'])
          .where((attr, op) => unchanged(subscriber, attr, op))
          .commit(),
        ...(lastIssueId
          ? [entities.issue.patch({ id: lastIssueId }).add({ unsubscribes: 1 }).commit()]
          : []),
      ],
    ),
  );
  // Refused: fine if they left meanwhile (a second click); not if they moved or confirmed since.
  if (!left) {
    await settled(subscriber.id, (current) => !canReceiveMail(current));
    return;
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
