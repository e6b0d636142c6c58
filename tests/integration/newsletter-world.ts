// A daily audience with picks and many confirmed readers, written fast: for the kill-point test
// and the newsletter benchmark, which need hundreds or thousands of subscribers.
import { ulid } from 'ulid';
import { labelOf } from '#core/ai';
import type { Audience } from '#core/audiences';
import { PickEntity } from '#core/curation';
import * as Subscribers from '#core/subscribers';
import { createAudience, createPost, uniqueSlug } from '#tests/integration/factories';

/** A pick for the audience and its picked post (two hours ago), as 'Pick best content' leaves them. */
export async function pick(
  audience: Audience,
  title: string,
  pickedAt = new Date(Date.now() - 2 * 3600_000).toISOString(),
  /** The picked article's id (a stored article's, when a test reads its title). */
  articleId = ulid(),
) {
  const postId = ulid();
  await createPost(audience.id, {
    id: postId,
    slug: uniqueSlug('story'),
    title,
    teaser: `${title}, explained.`,
    date: pickedAt,
    link: {
      url: `https://news.example.org/${articleId.toLowerCase()}`,
      domain: 'news.example.org',
    },
  });
  await PickEntity.create({
    audienceId: audience.id,
    articleId,
    postId,
    contentCardId: ulid(),
    processId: ulid(),
    score: 0.8,
    label: labelOf(0.8),
    reason: `It is about ${title}.`,
    relevantClues: [audience.title],
    publishedAt: pickedAt,
    pickedAt,
  }).go();
}

/**
 * Confirmed subscribers of the audience, written as subscribe + confirm leave them (the
 * subscriber, the address claim, the audience membership) but in batches, and without their
 * confirmation e-mails, so a sink receives only the newsletter.
 */
export async function confirmedReaders(
  audience: Audience,
  count: number,
): Promise<Subscribers.Subscriber[]> {
  const run = ulid().toLowerCase();
  const at = new Date().toISOString();
  const subscribers = Array.from({ length: count }, (_, index) => ({
    id: ulid(),
    email: `reader-${index}-${run}@example.org`,
    status: 'subscribed' as const,
    audienceIds: [audience.id],
    firstAudienceId: audience.id,
    linkVersion: 0,
    createdAt: at,
    updatedAt: at,
    confirmedAt: at,
  }));
  await Subscribers.SubscriberEntity.put(subscribers).go({ concurrency: 8 });
  await Subscribers.SubscriberEmailEntity.put(
    subscribers.map(({ id, email }) => ({ email, subscriberId: id })),
  ).go({ concurrency: 8 });
  await Subscribers.AudienceMemberEntity.put(
    subscribers.map(({ id }) => ({ audienceId: audience.id, subscriberId: id, addedAt: at })),
  ).go({ concurrency: 8 });
  return subscribers as Subscribers.Subscriber[];
}

/** One active daily audience with three picks of the last day and `count` confirmed readers. */
export async function dailyWorld(count: number) {
  const audience = await createAudience({ title: 'audit smart contracts', tag: 'aud-audit' });
  await pick(audience, 'A reentrancy bug in a lending pool');
  await pick(audience, 'An oracle that lagged a block');
  await pick(audience, 'Formal verification of a vault');
  return { audience, readers: await confirmedReaders(audience, count) };
}
