// E-mails to subscribers; every one carries one-click unsubscribe headers, and none goes to an
// address that has unsubscribed.
import type { EntityItem } from 'electrodb';
import * as Audiences from '#core/audiences';
import { mailer, renderConfirmSubscription } from '#core/mail';
import type { SubscriberEntity } from './entity';
import { subscriberLinks, unsubscribeHeaders } from './links';

type Subscriber = EntityItem<typeof SubscriberEntity>;

export async function sendConfirmation(subscriber: Subscriber): Promise<void> {
  if (subscriber.status !== 'pending') return;
  const audiences = await Audiences.byIds([...(subscriber.audienceIds ?? [])]);
  const links = subscriberLinks(subscriber);
  const mail = await renderConfirmSubscription({
    audiences: audiences.map(({ title, frequency }) => ({ title, frequency })),
    confirmUrl: links.confirmUrl,
    preferencesUrl: links.preferencesUrl,
    unsubscribeUrl: links.unsubscribeUrl,
  });
  await mailer().send({
    ...mail,
    to: subscriber.email,
    headers: unsubscribeHeaders(subscriber),
  });
}
