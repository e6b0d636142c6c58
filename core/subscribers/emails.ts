// E-mails to subscribers, as outbox drafts written with the change that causes them. Every one
// carries one-click unsubscribe headers and is tied to the address and link version it was made
// for, so the outbox cancels it if the address changes or the subscriber leaves first.
import * as Audiences from '#core/audiences';
import * as Outbox from '#core/outbox';
import { SubscriberEntity } from './entity';
import { subscriberLinks, unsubscribeHeaders, type LinkOwner } from './links';

/** Why a subscriber's e-mail is cancelled (core/newsletter counts a digest's skip by it). */
export type NotWanted = 'gone' | 'changed address' | 'unsubscribed' | 'cleaned';

/** Why a subscriber's e-mail must not go out any more, if it must not. */
export async function noLongerWanted(
  email: Outbox.Envelope,
): Promise<Outbox.Unwanted<NotWanted> | undefined> {
  if (!email.subscriberId) return undefined;
  const { data: subscriber } = await SubscriberEntity.get({ id: email.subscriberId }).go({
    consistent: true,
  });
  if (!subscriber) return { reason: 'gone', lastError: 'The subscriber no longer exists' };
  if (subscriber.email !== email.to || (subscriber.linkVersion ?? 0) !== (email.linkVersion ?? 0))
    return {
      reason: 'changed address',
      lastError: 'The subscriber changed address before it was sent',
    };
  if (subscriber.status === 'unsubscribed' || subscriber.status === 'cleaned')
    return {
      reason: subscriber.status,
      lastError: 'The subscriber unsubscribed before it was sent',
    };
  return undefined;
}

Outbox.registerKind('confirm-subscription', { unwanted: noLongerWanted });

type Recipient = LinkOwner & { email: string; audienceIds?: Iterable<string> };

/**
 * The confirmation e-mail for a pending subscriber as they will be once the write commits; pass
 * `audiences` when they are at hand, to save the request a read.
 */
export async function confirmationDraft(
  recipient: Recipient,
  known?: Pick<Audiences.Audience, 'title' | 'frequency'>[],
): Promise<Outbox.OutboundEmail> {
  const audiences = known ?? (await Audiences.byIds([...(recipient.audienceIds ?? [])]));
  const links = subscriberLinks(recipient);
  return Outbox.draft('confirm-subscription', {
    to: recipient.email,
    props: {
      audiences: audiences.map(({ title, frequency }) => ({ title, frequency })),
      confirmUrl: links.confirmUrl,
      preferencesUrl: links.preferencesUrl,
      unsubscribeUrl: links.unsubscribeUrl,
    },
    headers: unsubscribeHeaders(recipient),
    subscriber: recipient,
  });
}
