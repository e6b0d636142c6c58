// Reads what the app sent through the test run's SMTP sink.
import { inject } from 'vitest';
import { readMessages, type StoredMessage } from '#scripts/local/smtp-sink';

export async function messagesTo(email: string): Promise<StoredMessage[]> {
  return (await readMessages(inject('mailDir'))).filter((message) => message.to.includes(email));
}

/** The first link in a message's text that starts with `prefix`. */
export function linkIn(message: StoredMessage, prefix: string): string {
  const link = message.text.match(/https?:\/\/\S+/g)?.find((url) => url.startsWith(prefix));
  if (!link) throw new Error(`No link starting with ${prefix} in "${message.subject}"`);
  return link;
}
