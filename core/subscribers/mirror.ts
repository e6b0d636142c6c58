// Keeps the mailing list in step with our subscribers through the outbox. Our table is the source
// of truth: each change the list must hear of is an outbox message ('mailing-list') written in the
// transaction of the subscriber's change, then told by the worker once, retried while the provider
// is down, and shown on the Outbox page. A message tells the list the truth about one address as
// it is when delivered, so one retried late, or delivered after a later one, never undoes a later
// change; one a later change made moot is cancelled instead.
import type { EntityItem } from 'electrodb';
import * as v from 'valibot';
import * as Audiences from '#core/audiences';
import { mailingList, MailingListError } from '#core/mailing-list';
import * as Outbox from '#core/outbox';
import { SubscriberEntity } from './entity';

type Subscriber = EntityItem<typeof SubscriberEntity>;

export const MIRROR_KIND = 'mailing-list';

/** Tags as the spec describes them: audience tags, a first-audience tag and a utm tag. */
export async function tagsFor(subscriber: Subscriber): Promise<string[]> {
  const ids = [...(subscriber.audienceIds ?? []), ...(subscriber.shadowAudienceIds ?? [])];
  const [audiences, first] = await Promise.all([
    Audiences.byIds(ids),
    Audiences.byId(subscriber.firstAudienceId),
  ]);
  return [
    ...audiences.map((audience) => audience.tag),
    ...(first ? [`first-audience:${first.tag}`] : []),
    ...(subscriber.utm ? [`utm:${subscriber.utm}`] : []),
  ];
}

const Change = v.variant('change', [
  // Confirmed: the address becomes a subscribed member with the subscriber's tags.
  v.object({ change: v.literal('member') }),
  // Left, or moved away from the address: its member is unsubscribed.
  v.object({ change: v.literal('unsubscribed') }),
  // An audience or niche of a confirmed subscriber was added or removed: its tag follows the set.
  v.object({
    change: v.literal('tag'),
    tag: v.string(),
    audienceId: v.string(),
    set: v.picklist(['audienceIds', 'shadowAudienceIds']),
  }),
]);
type Change = v.InferOutput<typeof Change>;

/** What the Outbox page says each message does. */
function subjectOf(change: Change): string {
  switch (change.change) {
    case 'member':
      return 'Mailing list: subscribe the member, with its tags';
    case 'unsubscribed':
      return 'Mailing list: unsubscribe the member';
    case 'tag':
      return `Mailing list: update the tag ${change.tag}`;
  }
}

/**
 * The message telling the mailing list of `change` to the subscriber at their address `to`, to
 * create in the transaction of the change, then `Outbox.dispatch` once it committed.
 */
export function mirrorMessage(
  subscriber: Pick<Subscriber, 'id'>,
  to: string,
  change: Change,
): Outbox.OutboundEmail {
  return Outbox.draftMessage(MIRROR_KIND, {
    to,
    subject: subjectOf(change),
    props: change,
    subscriber: { id: subscriber.id },
  });
}

/** The subscriber as stored now, the truth the list is told. */
async function current(message: Outbox.Envelope): Promise<Subscriber | undefined> {
  const { data } = await SubscriberEntity.get({ id: message.subscriberId! }).go({
    consistent: true,
  });
  return data ?? undefined;
}

const subscribedAt = (subscriber: Subscriber | undefined, address: string) =>
  subscriber?.status === 'subscribed' && subscriber.email === address;

const changeOf = (message: Pick<Outbox.OutboundEmail, 'props'>) =>
  v.parse(Change, JSON.parse(message.props));

/** A member the list never had needs no unsubscribing or untagging. */
async function unlessNoMember(call: Promise<void>, done: string): Promise<{ response: string }> {
  try {
    await call;
    return { response: done };
  } catch (error) {
    if (error instanceof MailingListError && error.code === 'mailing_list.not_found')
      return { response: 'No member at this address: nothing to change' };
    throw error;
  }
}

/** Looks at the address's membership this often at most: a change may land while we tell it. */
const MEMBERSHIP_LOOKS = 3;

/**
 * Tells the list whether the address is a subscribed member, as stored now, then looks again:
 * another message told at the same moment (a confirm, then an unsubscribe) may have reached the
 * provider after this one, so the telling repeats until what was told is still the truth.
 */
async function tellMembership(
  message: Outbox.OutboundEmail,
  first: Subscriber | undefined,
): Promise<{ response: string }> {
  const list = mailingList();
  let subscriber = first;
  let told: { subscribed: boolean; response: string } | undefined;
  for (let look = 1; look <= MEMBERSHIP_LOOKS; look++) {
    if (look > 1) subscriber = await current(message);
    const subscribed = subscribedAt(subscriber, message.to);
    if (told?.subscribed === subscribed) break;
    if (subscribed) {
      const tags = await tagsFor(subscriber!);
      await list.upsertMember({
        email: message.to,
        subscriberId: subscriber!.id,
        status: 'subscribed',
        tags,
      });
      told = { subscribed, response: `Member subscribed with ${tags.length} tags` };
    } else {
      const { response } = await unlessNoMember(
        list.setStatus(message.to, 'unsubscribed'),
        'Member unsubscribed',
      );
      told = { subscribed, response };
    }
  }
  return { response: told!.response };
}

async function tell(message: Outbox.OutboundEmail): Promise<{ response: string }> {
  const change = changeOf(message);
  const subscriber = await current(message);
  switch (change.change) {
    case 'member':
      // Moot since `unwanted` looked (a moment ago): the later change's own message tells the list.
      if (!subscriber || !subscribedAt(subscriber, message.to))
        return { response: 'No longer subscribed at this address: nothing to tell' };
      return tellMembership(message, subscriber);
    case 'unsubscribed':
      return tellMembership(message, subscriber);
    case 'tag': {
      const held =
        subscriber?.email === message.to &&
        new Set(subscriber[change.set] ?? []).has(change.audienceId);
      return unlessNoMember(
        mailingList().updateTags(message.to, [
          { name: change.tag, status: held ? 'active' : 'inactive' },
        ]),
        `Tag ${held ? 'added' : 'removed'}`,
      );
    }
  }
}

type Moot = 'moot';

Outbox.registerKind<Moot>(MIRROR_KIND, {
  async unwanted(message) {
    const { change } = changeOf(message);
    if (change === 'tag') return undefined;
    const subscribed = subscribedAt(await current(message), message.to);
    if (change === 'member' && !subscribed)
      return {
        reason: 'moot',
        lastError: 'No longer subscribed at this address: a later change tells the mailing list',
      };
    if (change === 'unsubscribed' && subscribed)
      return {
        reason: 'moot',
        lastError: 'Subscribed again at this address: a later change tells the mailing list',
      };
    return undefined;
  },
  send: tell,
  // The provider refused the request itself (400s): sending it again changes nothing. Down,
  // throttled or a rejected key (fixed by an operator) is tried again.
  permanent: (error) => error instanceof MailingListError && error.code === 'mailing_list.rejected',
});
