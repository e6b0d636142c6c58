// E-mails to subscribers; every one carries one-click unsubscribe headers, and none goes to an
// address that has unsubscribed.
import type { EntityItem } from 'electrodb';
import * as Audiences from '#core/audiences';
import { logger } from '#core/logs';
import { mailer, renderConfirmSubscription } from '#core/mail';
import type { SubscriberEntity } from './entity';
import { subscriberLinks, unsubscribeHeaders } from './links';

type Subscriber = EntityItem<typeof SubscriberEntity>;

/**
 * Sends the confirmation e-mail. The subscription is already stored when this runs, so a mail
 * server that refuses or is down does not undo it or fail the request: the failure is logged and
 * subscribing again sends a fresh e-mail.
 */
export async function sendConfirmation(subscriber: Subscriber): Promise<void> {
  if (subscriber.status !== 'pending') return;
  await deliverConfirmation(subscriber).catch((error: unknown) => {
    logger.error('The confirmation e-mail was not sent', { subscriberId: subscriber.id, error });
  });
}

async function deliverConfirmation(subscriber: Subscriber): Promise<void> {
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
