// Subscribers without accounts: subscribe (double opt-in), confirm, pick audiences and upcoming
// niches, change the e-mail address, unsubscribe. Our table is the source of truth; the mailing
// list mirrors confirmed members through the outbox (mirror.ts).
import { createWriteTransaction, type EntityItem } from 'electrodb';
import * as v from 'valibot';
import * as Analytics from '#core/analytics';
import * as Audiences from '#core/audiences';
import { fn, parse, TrackingSchema, VisibleError, type Tracking } from '#core/common';
import { ulid } from '#core/ids';
import { committed, getTogether, type ItemRead } from '#core/db';
import { EmailSchema, emailKey } from '#core/mail';
import * as Outbox from '#core/outbox';
import * as RateLimit from '#core/rate-limit';
import * as Tokens from '#core/tokens';
import { SubscriberEntity } from './entity';
import { SubscriberEmailEntity } from './subscriber-email-entity';
import { AudienceMemberEntity } from './audience-member-entity';
import { confirmationDraft } from './emails';
export { noLongerWanted, type NotWanted } from './emails';
import { mirrorMessage } from './mirror';
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

/** The tracking values a subscriber stored when their subscription started. */
function signup(subscriber: Subscriber): Tracking {
  return { utm: subscriber.utm, raud: subscriber.raud, vus: subscriber.vus as Tracking['vus'] };
}

/** The audiences a subscription counts as confirmed: none while it is pending or has left. */
function confirmedAudiences(subscriber: Subscriber): string[] {
  return subscriber.status === 'subscribed' ? [...(subscriber.audienceIds ?? [])] : [];
}

/**
 * A business event of a subscriber's state change, to create in the transaction that makes it
 * (at the change's time), so it is recorded exactly when the change commits.
 */
function eventOf(
  subscriber: Subscriber,
  event: Omit<Analytics.BusinessEvent, keyof Tracking>,
  at: string,
  tracking: Tracking = signup(subscriber),
): Analytics.AnalyticsEvent {
  return Analytics.eventItem({ ...tracking, ...event }, at);
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
 * What the decision rests on is read in one call: the audience, the address's claim, and both
 * rate limits' windows. The visitor's limit is counted first, on its own, for every request. The
 * address's limit is counted only for a visitor within theirs, so nobody past their own limit can
 * hold another address's count full, and only in the write that queues its e-mail, so a refused or
 * failed subscription counts nothing there. That write holds the subscriber, its claim, the
 * membership, the e-mail and the `subscribe` event when a subscription starts (a new address, or
 * one that had left); then the e-mail is queued.
 */
/** Tries of a subscription whose write found the address or its count changed meanwhile. */
const SUBSCRIBE_TRIES = 3;

export const subscribe = fn(SubscribeInput, async ({ ip, ...input }) => {
  for (let tries = 0; ; tries++) {
    // The visitor is counted once, on the first try.
    const outcome = await trySubscribe(input, tries === 0 ? ip : undefined);
    if (outcome) return outcome;
    // Another request wrote the address (or its count) a moment ago: decide again from what it
    // wrote. A read made while that write landed may have seen part of it, so more than once.
    if (tries >= SUBSCRIBE_TRIES - 1) throw changedMeanwhile();
  }
});

type Counting = ReturnType<typeof RateLimit.countIn>;

/** One try: undefined when another request created the address between its read and its write. */
async function trySubscribe(input: Omit<v.InferOutput<typeof SubscribeInput>, 'ip'>, ip?: string) {
  const read = [
    Audiences.audienceRead(input.audienceId),
    claimRead(input.email),
    RateLimit.windowsRead(RateLimit.LIMITS.confirmationsPerAddress, input.email),
  ] as const;
  const [audience, claim, addressWindows, ipWindows] =
    ip === undefined
      ? [...(await getTogether(...read)), undefined]
      : await getTogether(...read, RateLimit.windowsRead(RateLimit.LIMITS.subscribePerIp, ip));
  // The visitor is counted first, on its own item, refusals included: every request from one
  // address, whatever it asks, comes at that address's pace.
  if (ip !== undefined) {
    const perIp = await RateLimit.attempt(RateLimit.LIMITS.subscribePerIp, ip, Date.now(), {
      windows: ipWindows,
    });
    if (!perIp.allowed) throw RateLimit.refusal();
  }
  const counts: Counting[] = [];
  if (!audience || audience.state !== 'active') {
    throw new VisibleError('audience.not_found', 'This audience does not exist', 404);
  }
  const existing = claim ? await byId(claim.subscriberId) : undefined;
  if (existing?.status === 'subscribed') throw alreadySubscribed();
  counts.push(
    RateLimit.countIn(RateLimit.LIMITS.confirmationsPerAddress, input.email, addressWindows),
  );
  const written = existing
    ? await reopen(existing, audience, input, counts)
    : await createPending(input, audience, counts);
  if (!written) return undefined;
  const { subscriber, email } = written;
  await Outbox.dispatch([email]);
  // Only a subscription this request created may be assembled with the token.
  return {
    subscriber,
    assembleToken: existing ? undefined : linkToken('assemble', subscriber),
  };
}

function claimRead(email: string): ItemRead<EntityItem<typeof SubscriberEmailEntity>> {
  return {
    key: SubscriberEmailEntity.get({ email: emailKey(email) }).params().Key,
    parse: (item) => SubscriberEmailEntity.parse({ Item: item }).data ?? undefined,
  };
}

const alreadySubscribed = () =>
  new VisibleError(ALREADY_SUBSCRIBED_CODE, 'You are already a subscriber!', 409);

type Written = { subscriber: Subscriber; email: Outbox.OutboundEmail };

/**
 * A new pending subscriber, its e-mail claim and its confirmation e-mail; undefined when the
 * address was claimed first.
 */
async function createPending(
  input: Omit<v.InferOutput<typeof SubscribeInput>, 'ip'>,
  audience: Audiences.Audience,
  counts: Counting[],
): Promise<Written | undefined> {
  const createdAt = now();
  const subscriber = {
    id: ulid(),
    email: input.email,
    status: 'pending' as const,
    audienceIds: [input.audienceId],
    firstAudienceId: input.audienceId,
    utm: input.utm,
    raud: input.raud,
    vus: input.vus,
    createdAt,
    updatedAt: createdAt,
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
        event: Analytics.AnalyticsEventEntity,
        rate: RateLimit.RateLimitWindowEntity,
      },
      ({ entity, claim, member, outbox, event, rate }) => [
        ...counts.map((count) => count(rate)),
        entity.create(subscriber).commit(),
        outbox.create(email).commit(),
        claim.create({ email: subscriber.email, subscriberId: subscriber.id }).commit(),
        member
          .put({ audienceId: input.audienceId, subscriberId: subscriber.id, addedAt: createdAt })
          .commit(),
        event
          .create(
            eventOf(
              subscriber,
              {
                name: 'subscribe',
                key: `${subscriber.id}:${createdAt}`,
                path: `/a/${audience.slug}`,
              },
              createdAt,
            ),
          )
          .commit(),
      ],
    ),
  );
  return created ? { subscriber, email } : undefined;
}

/**
 * Adds the audience to a pending subscriber, or starts an unsubscribed one over as pending with
 * every audience chosen before plus this one, with a fresh confirmation e-mail. Undefined when the
 * subscriber or the address's count changed meanwhile (the e-mail names the address and its
 * links), for the caller to decide again; one confirmed meanwhile is already a subscriber. Only a subscription that starts over is a `subscribe`,
 * tracked with the request's own tracking (the visit that brought them back).
 */
async function reopen(
  subscriber: Subscriber,
  audience: Audiences.Audience,
  { utm, raud, vus }: Tracking,
  counts: Counting[],
): Promise<Written | undefined> {
  const tracking = { utm, raud, vus };
  if (subscriber.status === 'subscribed') throw alreadySubscribed();
  const audienceId = audience.id;
  const updatedAt = now();
  const startsOver = subscriber.status !== 'pending';
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
        event: Analytics.AnalyticsEventEntity,
        rate: RateLimit.RateLimitWindowEntity,
      },
      ({ entity, member, outbox, event, rate }) => [
        ...counts.map((count) => count(rate)),
        entity
          .patch({ id: subscriber.id })
          .add({ audienceIds: [audienceId] })
          .set({ status: 'pending', updatedAt })
          .remove(['unsubscribedAt'])
          .where((attr, op) => unchanged(subscriber, attr, op))
          .commit(),
        member.put({ audienceId, subscriberId: subscriber.id, addedAt: updatedAt }).commit(),
        outbox.create(email).commit(),
        ...(startsOver
          ? [
              event
                .create(
                  eventOf(
                    subscriber,
                    {
                      name: 'subscribe',
                      key: `${subscriber.id}:${updatedAt}`,
                      path: `/a/${audience.slug}`,
                    },
                    updatedAt,
                    tracking,
                  ),
                )
                .commit(),
            ]
          : []),
      ],
    ),
  );
  if (!reopened) {
    if ((await byId(subscriber.id))?.status === 'subscribed') throw alreadySubscribed();
    return undefined;
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
 * The condition that the subscriber's audiences are exactly those read: a write whose event
 * counts them (confirm, unsubscribe, address change of a confirmed subscription) carries it, so
 * the event names the set the change applied to. Same size and holding each one read is equality.
 */
function sameAudiences(subscriber: Subscriber, attr: Where[0], op: Where[1]): string {
  const ids = [...(subscriber.audienceIds ?? [])];
  if (ids.length === 0) return op.notExists(attr.audienceIds);
  return [
    `${op.size(attr.audienceIds)} = ${op.escape(ids.length)}`,
    ...ids.map((id) => op.contains(attr.audienceIds, id)),
  ].join(' AND ');
}

/** Whether two reads of a subscriber hold the same audiences. */
const sameSet = (a: Subscriber, b: Subscriber) => {
  const [x, y] = [new Set(a.audienceIds ?? []), new Set(b.audienceIds ?? [])];
  return x.size === y.size && [...x].every((id) => y.has(id));
};

/**
 * Attempts of a write whose condition names the audiences read: a toggle landing between the read
 * and the write refuses it without changing what the request decided from, so it is made again
 * from a fresh read.
 */
const ATTEMPTS = 4;

/**
 * Runs `write` decided from `subscriber`; refused, reads them again and, if only their audiences
 * changed meanwhile, writes again from that read. After a refusal that trying again cannot change,
 * answers the subscriber as they are then.
 */
async function fromLatest(
  subscriber: Subscriber,
  write: (from: Subscriber) => Promise<boolean>,
): Promise<{ committed: boolean; current?: Subscriber }> {
  let from = subscriber;
  for (let attempt = 1; ; attempt++) {
    if (await write(from)) return { committed: true };
    const current = await byId(subscriber.id);
    if (!current || !sameState(current, from) || sameSet(current, from) || attempt >= ATTEMPTS) {
      return { committed: false, current };
    }
    from = current;
  }
}

/**
 * After a refused write: the subscriber as they are now if they already are what the request
 * asked for (the same click twice, or two tabs), or else the 'just changed' error, since the
 * request decided from a state that is gone.
 */
function settled(current: Subscriber | undefined, wanted: (current: Subscriber) => boolean) {
  if (current && wanted(current)) return current;
  throw changedMeanwhile();
}

/**
 * Confirms a pending subscription from the e-mail link; confirming twice is fine. Only the address
 * and link version the link was sent for are confirmed: an address change landing first retires
 * the link, and one landing second is refused. `subscription_confirmed` names the audiences the
 * confirmation applied to: the write is conditioned on them.
 */
export async function confirm(token: string | null | undefined) {
  const subscriber = await fromToken(token, ['confirm']);
  if (!canReceiveMail(subscriber)) throw brokenLink();
  if (subscriber.status === 'subscribed') return subscriber;
  let told: Outbox.OutboundEmail | undefined;
  const result = await fromLatest(subscriber, (from) => {
    const at = now();
    const member = mirrorMessage(from, from.email, { change: 'member' });
    told = member;
    return committed(
      createWriteTransaction(
        {
          entity: SubscriberEntity,
          event: Analytics.AnalyticsEventEntity,
          outbox: Outbox.OutboundEmailEntity,
        },
        ({ entity, event, outbox }) => [
          entity
            .patch({ id: from.id })
            .set({ status: 'subscribed', confirmedAt: at, updatedAt: at })
            .where(
              (attr, op) => `${unchanged(from, attr, op)} AND ${sameAudiences(from, attr, op)}`,
            )
            .commit(),
          event
            .create(
              eventOf(
                from,
                {
                  name: 'subscription_confirmed',
                  key: `${from.id}:${at}`,
                  path: '/confirm-subscription',
                  audienceIds: [...(from.audienceIds ?? [])],
                },
                at,
              ),
            )
            .commit(),
          outbox.create(member).commit(),
        ],
      ),
    );
  });
  if (!result.committed) {
    return settled(
      result.current,
      (current) =>
        current.status === 'subscribed' && current.linkVersion === subscriber.linkVersion,
    );
  }
  await Outbox.dispatch([told!]);
  return (await byId(subscriber.id))!;
}

/** Ids are ULIDs; anything longer than a key may be is refused before it reaches the table. */
const AudienceId = v.pipe(v.string(), v.nonEmpty('Please choose an audience'), v.maxLength(64));

export const ToggleInput = v.object({
  audienceId: AudienceId,
  subscribed: v.boolean(),
});

/** Whether a stored set (audiences, niches) holds `id`. */
const holds = (ids: Iterable<string> | undefined, id: string) => new Set(ids ?? []).has(id);

type Condition = (attr: Where[0], op: Where[1]) => string;

/**
 * Adds or removes one id of a subscriber's set (audiences, niches) with `write`, conditioned on the
 * subscriber being as read and on the id being absent (add) or present (remove), so toggles of
 * different ids both land and of two identical toggles one writes. A toggle refused because the
 * set is already as asked succeeds with nothing written. Answers the state it changed, if it did.
 */
async function toggleIn(
  subscriber: Subscriber,
  set: 'audienceIds' | 'shadowAudienceIds',
  { audienceId, subscribed }: v.InferOutput<typeof ToggleInput>,
  write: (from: Subscriber, at: string, condition: Condition) => Promise<boolean>,
): Promise<Subscriber | undefined> {
  let from = subscriber;
  for (let attempt = 1; ; attempt++) {
    const saved = await write(from, now(), (attr, op) => {
      const present = op.contains(attr[set], audienceId);
      return `${unchanged(from, attr, op)} AND ${subscribed ? `NOT ${present}` : present}`;
    });
    if (saved) return from;
    // Refused: the subscriber changed, or the set is already as asked (the same toggle twice), or
    // the transaction collided with another one.
    const current = await byId(subscriber.id);
    if (!current || !sameState(current, from)) throw changedMeanwhile();
    if (holds(current[set], audienceId) === subscribed) return undefined;
    if (attempt >= ATTEMPTS) throw changedMeanwhile();
    from = current;
  }
}

/**
 * Subscribes to or unsubscribes from one audience at once (SelectMoreAudiences, preferences). A
 * confirmed subscription's toggle is an `audience_added` / `audience_removed`; a pending one's only
 * changes what its confirmation will count.
 */
export async function setAudience(subscriber: Subscriber, input: v.InferInput<typeof ToggleInput>) {
  const toggle = parse(ToggleInput, input);
  const { audienceId, subscribed } = toggle;
  const audience = await Audiences.byId(audienceId);
  if (!audience || audience.state !== 'active') {
    throw new VisibleError('audience.not_found', 'This audience does not exist', 404);
  }
  // The audience set and its membership item change together, so concurrent toggles leave the
  // lookup equal to the set, whichever toggle lands last. The subscriber must still be as read:
  // whether the mailing list hears of it, and whether the link may change it at all, were decided
  // from that.
  let told: Outbox.OutboundEmail | undefined;
  const changed = await toggleIn(subscriber, 'audienceIds', toggle, (from, at, condition) => {
    const tag = tagMessage(from, audience, 'audienceIds');
    told = tag;
    return committed(
      createWriteTransaction(
        {
          entity: SubscriberEntity,
          member: AudienceMemberEntity,
          event: Analytics.AnalyticsEventEntity,
          outbox: Outbox.OutboundEmailEntity,
        },
        ({ entity, member, event, outbox }) => {
          const patch = entity.patch({ id: from.id });
          const membership = { audienceId, subscriberId: from.id };
          const key = `${from.id}:${audienceId}:${at}`;
          const path = '/subscription';
          const events = [
            eventOf(from, { name: 'preferences_updated', key, path }, at),
            ...(from.status === 'subscribed'
              ? [
                  eventOf(
                    from,
                    {
                      name: subscribed ? 'audience_added' : 'audience_removed',
                      key,
                      path,
                      audienceIds: [audienceId],
                    },
                    at,
                  ),
                ]
              : []),
          ]
            .map((item) => event.create(item).commit())
            .concat(tag ? [outbox.create(tag).commit()] : []);
          return subscribed
            ? [
                patch
                  .add({ audienceIds: [audienceId] })
                  .set({ updatedAt: at })
                  .where(condition)
                  .commit(),
                member.put({ ...membership, addedAt: at }).commit(),
                ...events,
              ]
            : [
                patch
                  .delete({ audienceIds: [audienceId] })
                  .set({ updatedAt: at })
                  .where(condition)
                  .commit(),
                member.delete(membership).commit(),
                ...events,
              ];
        },
      ),
    );
  });
  if (changed && told) await Outbox.dispatch([told]);
}

/** A confirmed subscriber's audience or niche tag changed: the mailing list hears of it. */
function tagMessage(
  from: Subscriber,
  audience: Audiences.Audience,
  set: 'audienceIds' | 'shadowAudienceIds',
): Outbox.OutboundEmail | undefined {
  if (from.status !== 'subscribed') return undefined;
  return mirrorMessage(from, from.email, {
    change: 'tag',
    tag: audience.tag,
    audienceId: audience.id,
    set,
  });
}

/**
 * Records or withdraws one upcoming niche the subscriber identifies with (a mailing-list tag). The
 * niche's `votes` changes in the same transaction, so it always equals the subscribers whose
 * niches hold it.
 */
export async function setShadowAudience(
  subscriber: Subscriber,
  input: v.InferInput<typeof ToggleInput>,
) {
  const toggle = parse(ToggleInput, input);
  const { audienceId, subscribed } = toggle;
  const audience = await Audiences.byId(audienceId);
  if (!audience || audience.state !== 'upcoming') {
    throw new VisibleError('audience.not_upcoming', 'Please choose among the upcoming niches', 400);
  }
  let told: Outbox.OutboundEmail | undefined;
  const changed = await toggleIn(subscriber, 'shadowAudienceIds', toggle, (from, at, condition) => {
    const tag = tagMessage(from, audience, 'shadowAudienceIds');
    told = tag;
    return committed(
      createWriteTransaction(
        {
          entity: SubscriberEntity,
          niche: Audiences.AudienceEntity,
          event: Analytics.AnalyticsEventEntity,
          outbox: Outbox.OutboundEmailEntity,
        },
        ({ entity, niche, event, outbox }) => {
          const patch = entity.patch({ id: from.id });
          return [
            (subscribed
              ? patch.add({ shadowAudienceIds: [audienceId] })
              : patch.delete({ shadowAudienceIds: [audienceId] })
            )
              .set({ updatedAt: at })
              .where(condition)
              .commit(),
            niche
              .patch({ id: audienceId })
              .add({ votes: subscribed ? 1 : -1 })
              .where((attr, op) => op.eq(attr.state, 'upcoming'))
              .commit(),
            event
              .create(
                eventOf(
                  from,
                  {
                    name: subscribed ? 'niche_voted' : 'niche_unvoted',
                    key: `${from.id}:${audienceId}:${at}`,
                    path: '/upcoming-niches',
                    audienceIds: [audienceId],
                  },
                  at,
                ),
              )
              .commit(),
            ...(tag ? [outbox.create(tag).commit()] : []),
          ];
        },
      ),
    );
  });
  if (changed && told) await Outbox.dispatch([told]);
}

/**
 * Moves the subscription to another address, which must be confirmed like a first subscription:
 * until then the subscriber is pending and gets no newsletter. An address another subscriber uses
 * is refused. `address_changed` names the audiences a confirmed subscription leaves until then.
 */
export async function changeEmail(subscriber: Subscriber, newEmail: string): Promise<Subscriber> {
  const email = parse(EmailSchema, newEmail);
  if (email === subscriber.email) return subscriber;
  // The new address gets a confirmation e-mail: the same per-address limit as a subscription.
  await RateLimit.hit(RateLimit.LIMITS.confirmationsPerAddress, email);
  const linkVersion = (subscriber.linkVersion ?? 0) + 1;
  let confirmation: Outbox.OutboundEmail | undefined;
  let told: Outbox.OutboundEmail | undefined;
  const result = await fromLatest(subscriber, async (from) => {
    const at = now();
    const draft = await confirmationDraft({ ...from, email, linkVersion });
    // A confirmed subscription leaves its old address: the mailing list unsubscribes it.
    const left =
      from.status === 'subscribed'
        ? mirrorMessage(from, from.email, { change: 'unsubscribed' })
        : undefined;
    const moved = await committed(
      createWriteTransaction(
        {
          entity: SubscriberEntity,
          claim: SubscriberEmailEntity,
          outbox: Outbox.OutboundEmailEntity,
          event: Analytics.AnalyticsEventEntity,
        },
        ({ entity, claim, outbox, event }) => [
          claim.create({ email, subscriberId: from.id }).commit(),
          claim
            .delete({ email: from.email })
            .where((attr, op) => op.eq(attr.subscriberId, from.id))
            .commit(),
          entity
            .patch({ id: from.id })
            .set({
              email,
              updatedAt: at,
              ...(from.status === 'subscribed' && { status: 'pending' }),
            })
            // Every link sent to the old address names the old version and stops working, and an
            // e-mail to it still in the outbox is cancelled. The new address is not confirmed.
            .add({ linkVersion: 1 })
            .remove(['confirmedAt'])
            .where((attr, op) =>
              from.status === 'subscribed'
                ? `${unchanged(from, attr, op)} AND ${sameAudiences(from, attr, op)}`
                : unchanged(from, attr, op),
            )
            .commit(),
          outbox.create(draft).commit(),
          ...(left ? [outbox.create(left).commit()] : []),
          event
            .create(
              eventOf(
                from,
                {
                  name: 'address_changed',
                  key: `${from.id}:${linkVersion}`,
                  path: '/subscription',
                  audienceIds: confirmedAudiences(from),
                },
                at,
              ),
            )
            .commit(),
        ],
      ),
    );
    if (moved) [confirmation, told] = [draft, left];
    return moved;
  });
  if (!result.committed) return refusedMove(result.current, subscriber, email, linkVersion);
  const current = (await byId(subscriber.id))!;
  await Outbox.dispatch([confirmation!, ...(told ? [told] : [])]);
  return current;
}

/**
 * Why an address change was refused: the same change landed first (a second click: fine), the
 * subscriber changed meanwhile, or else the address is another subscriber's.
 */
function refusedMove(
  current: Subscriber | undefined,
  subscriber: Subscriber,
  email: string,
  linkVersion: number,
): Subscriber {
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
 * forgets it, so leaving again after coming back counts only against an issue sent since. The
 * `unsubscribe` event names the audiences a confirmed subscription leaves (conditioned on them).
 */
export async function unsubscribe(subscriber: Subscriber): Promise<void> {
  if (subscriber.status === 'unsubscribed' || subscriber.status === 'cleaned') return;
  let told: Outbox.OutboundEmail | undefined;
  const result = await fromLatest(subscriber, (from) => {
    const at = now();
    // Only a confirmed address is a subscribed member of the list (a pending one never is).
    const left =
      from.status === 'subscribed'
        ? mirrorMessage(from, from.email, { change: 'unsubscribed' })
        : undefined;
    told = left;
    const lastIssueId =
      from.lastIssueId &&
      Date.parse(at) - Date.parse(from.lastIssueSentAt ?? '') < UNSUBSCRIBE_ATTRIBUTION_MS
        ? from.lastIssueId
        : undefined;
    return committed(
      createWriteTransaction(
        {
          subscriber: SubscriberEntity,
          issue: NewsletterIssueEntity,
          event: Analytics.AnalyticsEventEntity,
          outbox: Outbox.OutboundEmailEntity,
        },
        (entities) => [
          entities.subscriber
            .patch({ id: from.id })
            .set({ status: 'unsubscribed', unsubscribedAt: at, updatedAt: at })
            // Counted now: someone who comes back and leaves before another issue reaches them
            // counts against nothing more. (lastIssueSentAt stays: only a later issue sets it.)
            .remove(['lastIssueId'])
            .where((attr, op) =>
              from.status === 'subscribed'
                ? `${unchanged(from, attr, op)} AND ${sameAudiences(from, attr, op)}`
                : unchanged(from, attr, op),
            )
            .commit(),
          ...(lastIssueId
            ? [entities.issue.patch({ id: lastIssueId }).add({ unsubscribes: 1 }).commit()]
            : []),
          entities.event
            .create(
              eventOf(
                from,
                {
                  name: 'unsubscribe',
                  key: `${from.id}:${at}`,
                  path: '/unsubscribe',
                  audienceIds: confirmedAudiences(from),
                },
                at,
              ),
            )
            .commit(),
          ...(left ? [entities.outbox.create(left).commit()] : []),
        ],
      ),
    );
  });
  // Refused: fine if they left meanwhile (a second click); not if they moved or confirmed since.
  if (!result.committed) {
    settled(result.current, (current) => !canReceiveMail(current));
    return;
  }
  if (told) await Outbox.dispatch([told]);
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
