// The 'newsfeed is ready' e-mail the funnel's last screen promises. It is queued in the same write
// that marks the reader's first scoring run done (`feedReadyAt`, set once), so a redelivered run,
// a second run or two at once never send it twice.
import { createWriteTransaction } from 'electrodb';
import { config } from '#core/config';
import * as Outbox from '#core/outbox';
import { UserEntity } from './entity';
import { committed } from '#core/db';
import { byId } from './read';

// A reader's e-mail goes out as queued: nothing to check before it or to settle with it.
Outbox.registerKind('feed-ready', {});

/**
 * Marks the reader's feed ready and queues the e-mail with the sign-in link, once per reader.
 * Answers whether this call queued it. Throws when the write was refused for another reason
 * than an earlier mark (a concurrent write), so the run that called it is retried.
 */
export async function markFeedReady(userId: string): Promise<boolean> {
  const user = await byId(userId);
  if (!user || user.feedReadyAt) return false;
  const at = new Date().toISOString();
  const email = Outbox.draft('feed-ready', {
    to: user.email,
    props: { name: user.name, loginUrl: new URL('/login', config().PUBLIC_URL).toString() },
  });
  const queued = await committed(
    createWriteTransaction(
      { users: UserEntity, outbox: Outbox.OutboundEmailEntity },
      ({ users, outbox }) => [
        users
          .patch({ id: userId })
          .set({ feedReadyAt: at })
          .where((attr, op) => op.notExists(attr.feedReadyAt))
          .commit(),
        outbox.create(email).commit(),
      ],
    ),
  );
  if (!queued) {
    if ((await byId(userId))?.feedReadyAt) return false;
    throw new Error('Could not mark the feed ready: the user changed meanwhile');
  }
  await Outbox.dispatch([email]);
  return true;
}
