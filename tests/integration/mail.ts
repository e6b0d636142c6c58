// Reads what the app sent through the test run's SMTP sink.
import { inject } from 'vitest';
import * as Outbox from '#core/outbox';
import { readMessages, type StoredMessage } from '#scripts/local/smtp-sink';

/** What reached the sink for `email`, without running the outbox worker. */
export async function receivedBy(email: string): Promise<StoredMessage[]> {
  return (await readMessages(inject('mailDir'))).filter((message) => message.to.includes(email));
}

/**
 * What `email` has received once the outbox worker has sent every e-mail due (tests run no
 * poller, so this stands in for it).
 */
export async function messagesTo(email: string): Promise<StoredMessage[]> {
  await Outbox.deliverDue();
  return receivedBy(email);
}

/** The first link in a message's text that starts with `prefix`. */
export function linkIn(message: StoredMessage, prefix: string): string {
  const link = message.text.match(/https?:\/\/\S+/g)?.find((url) => url.startsWith(prefix));
  if (!link) throw new Error(`No link starting with ${prefix} in "${message.subject}"`);
  return link;
}
