// Writes the demo content through the same core operations the product uses. Idempotent: ids are
// derived from each item's key, so a second run finds everything and writes nothing.
import { createHash } from 'node:crypto';
import * as Ai from '#core/ai';
import * as Audiences from '#core/audiences';
import * as ContentCards from '#core/content-cards';
import * as Posts from '#core/posts';
import * as SentenceStarters from '#core/sentence-starters';
import { seedAi } from './ai';
import { audiences, authors, contentCards, posts } from './data';
import { sentenceStarters } from './sentence-starters';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A stable ULID-shaped id for a seed key. */
export function seedId(key: string): string {
  const digest = createHash('sha256').update(`cluefeed-demo:${key}`).digest();
  return Array.from(digest.subarray(0, 26), (byte) => CROCKFORD[byte % 32]).join('');
}

export type SeedResult = {
  audiences: number;
  posts: number;
  contentCards: number;
  sentenceStarters: number;
  /** 1 when the local ranker's corpus snapshot was made from the posts (none was stored). */
  corpusSnapshot: number;
};

export async function seedDemoData(): Promise<SeedResult> {
  const created: SeedResult = {
    audiences: 0,
    posts: 0,
    contentCards: 0,
    sentenceStarters: 0,
    corpusSnapshot: 0,
  };
  const audienceIds = new Map(audiences.map((a) => [a.key, seedId(`audience:${a.key}`)]));
  const postIds = new Map(posts.map((p) => [p.key, seedId(`post:${p.key}`)]));
  const idOf = (ids: Map<string, string>, key: string) => {
    const id = ids.get(key);
    if (!id) throw new Error(`Seed data refers to an unknown key: ${key}`);
    return id;
  };

  for (const audience of audiences) {
    const id = idOf(audienceIds, audience.key);
    if (await Audiences.byId(id)) continue;
    const { key: _key, related, ...fields } = audience;
    await Audiences.create({
      ...fields,
      id,
      relatedAudienceIds: related.map((key) => idOf(audienceIds, key)),
      createdAt: '2026-09-01T09:00:00.000Z',
    });
    created.audiences++;
  }

  for (const post of posts) {
    const id = idOf(postIds, post.key);
    if (await Posts.byId(id)) continue;
    const { key: _key, audience, author, ...fields } = post;
    const writer = authors[author];
    if (!writer) throw new Error(`Seed post ${post.key} has an unknown author: ${author}`);
    await Posts.create({
      ...fields,
      id,
      audienceId: idOf(audienceIds, audience),
      author: writer,
      createdAt: post.date,
    });
    created.posts++;
  }

  for (const [index, card] of contentCards.entries()) {
    const id = seedId(`card:${index}:${card.primary}`);
    if (await ContentCards.byId(id)) continue;
    await ContentCards.create({
      id,
      date: card.date,
      audienceId: idOf(audienceIds, card.audience),
      primaryStoryId: idOf(postIds, card.primary),
      secondaryStoryIds: card.secondary.map((key) => idOf(postIds, key)),
      primaryStoriesHeader: card.primaryStoriesHeader,
      secondaryStoriesHeader: card.secondaryStoriesHeader,
      verbalDescriptor: card.verbalDescriptor,
      createdAt: card.date,
    });
    created.contentCards++;
  }
  for (const [ordering, starter] of sentenceStarters.entries()) {
    const id = seedId(`sentenceStarter:${starter.key}`);
    if (await SentenceStarters.byId(id)) continue;
    await SentenceStarters.create({
      id,
      name: starter.name,
      ordering,
      pointers: starter.pointers,
      createdAt: '2026-09-01T09:00:00.000Z',
    });
    created.sentenceStarters++;
  }
  await seedAi();
  // The local ranker's statistics until the first import brings articles: the posts' own.
  const corpus = await Ai.refreshCorpus(
    posts.map((post) => ({ title: post.title, summary: post.teaser })),
    { onlyIfMissing: true },
  );
  if (corpus === 'saved') created.corpusSnapshot++;
  return created;
}
