// Keeps the mailing list in step with confirmed subscribers. Our table is the source of truth, so a
// provider outage is logged with its cause and never undoes or blocks what the subscriber did.
import * as Audiences from '#core/audiences';
import { logger } from '#core/logs';
import { mailingList, type MemberStatus, type TagChange } from '#core/mailing-list';
import type { EntityItem } from 'electrodb';
import type { SubscriberEntity } from './entity';

type Subscriber = EntityItem<typeof SubscriberEntity>;

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

async function attempt(what: string, call: () => Promise<void>): Promise<void> {
  try {
    await call();
  } catch (error) {
    logger.error(`Mailing list: ${what} failed`, { error });
  }
}

export const mirror = {
  member: (subscriber: Subscriber) =>
    attempt('upsert member', async () =>
      mailingList().upsertMember({
        email: subscriber.email,
        subscriberId: subscriber.id,
        status: subscriber.status,
        tags: await tagsFor(subscriber),
      }),
    ),
  tags: (email: string, tags: TagChange[]) =>
    attempt('update tags', () => mailingList().updateTags(email, tags)),
  status: (email: string, status: MemberStatus) =>
    attempt('set status', () => mailingList().setStatus(email, status)),
};
