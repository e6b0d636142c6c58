// The e-mails the app under test sent, read from its SMTP sink's folder.
import { expect } from '@playwright/test';
import { readMessages, type StoredMessage } from '../../scripts/local/smtp-sink';
import { mailDir } from './fixtures';

/** Waits for the one message to `email`, and returns it. */
export function onlyMessageTo(email: string): Promise<StoredMessage> {
  return theOneMessage(email, () => true);
}

/** A link of the message as a path the test browser can open (the app's PUBLIC_URL differs). */
export function pathOfLink(message: StoredMessage, pathname: string): string {
  const link = message.text
    .match(/https?:\/\/\S+/g)
    ?.map((url) => new URL(url))
    .find((url) => url.pathname === pathname);
  if (!link) throw new Error(`No ${pathname} link in "${message.subject}"`);
  return `${link.pathname}${link.search}`;
}

/**
 * Waits up to `timeout` ms for the one message to `email` with this subject (or a subject this
 * pattern matches), and returns it.
 */
export function messageTo(
  email: string,
  subject: string | RegExp,
  timeout = 60_000,
): Promise<StoredMessage> {
  return theOneMessage(
    email,
    (found) => (typeof subject === 'string' ? found === subject : subject.test(found)),
    timeout,
  );
}

/**
 * Polls the sink until exactly one message to `email` has a subject `matches` takes, for
 * expect.poll's usual wait unless `timeout` is given.
 */
async function theOneMessage(
  email: string,
  matches: (subject: string) => boolean,
  timeout?: number,
): Promise<StoredMessage> {
  let found: StoredMessage[] = [];
  await expect
    .poll(
      async () => {
        found = (await readMessages(mailDir())).filter(
          (message) => message.to.includes(email) && matches(message.subject),
        );
        return found.length;
      },
      { timeout },
    )
    .toBe(1);
  return found[0]!;
}
