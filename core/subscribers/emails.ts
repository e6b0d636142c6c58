// E-mails to subscribers, as outbox drafts written with the change that causes them. Every one
// carries one-click unsubscribe headers and is tied to the address and link version it was made
// for, so the outbox cancels it if the address changes or the subscriber leaves first.
import * as Audiences from '#core/audiences';
import * as Outbox from '#core/outbox';
import { subscriberLinks, unsubscribeHeaders, type LinkOwner } from './links';

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
