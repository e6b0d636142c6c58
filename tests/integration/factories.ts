// Builders for test data with unique ids and slugs, written through the core operations.
import { createHash } from 'node:crypto';
import { ulid } from 'ulid';
import * as Articles from '#core/articles';
import * as Audiences from '#core/audiences';
import * as Posts from '#core/posts';
import * as ContentCards from '#core/content-cards';

export function uniqueSlug(prefix: string): string {
  return `${prefix}-${ulid().toLowerCase()}`;
}

export function createAudience(overrides: Partial<Parameters<typeof Audiences.create>[0]> = {}) {
  return Audiences.create({
    title: 'build DeFi protocols',
    slug: uniqueSlug('defi'),
    tag: 'aud-defi',
    frequency: 'daily',
    state: 'active',
    featured: true,
    ...overrides,
  });
}

export const author = {
  name: 'Mara Lindqvist',
  handle: 'mara_eth',
  avatar: '/avatars/mara_eth.svg',
  tagLine: 'DeFi researcher',
  bio: 'Writes about lending markets.',
};

export function createPost(
  audienceId: string,
  overrides: Partial<Parameters<typeof Posts.create>[0]> = {},
) {
  return Posts.create({
    slug: uniqueSlug('post'),
    title: 'Why intent-based bridges are winning',
    date: '2026-11-20T08:00:00.000Z',
    teaser: 'Solvers compete to fill cross-chain orders.',
    minutes: 6,
    type: 'article',
    audienceId,
    author,
    link: { url: 'https://example.org/intents', domain: 'example.org' },
    ...overrides,
  });
}

export function createCard(
  audienceId: string,
  primaryStoryId: string,
  overrides: Partial<Parameters<typeof ContentCards.create>[0]> = {},
) {
  return ContentCards.create({
    date: '2026-11-20T08:00:00.000Z',
    audienceId,
    primaryStoryId,
    primaryStoriesHeader: 'Story of the day',
    secondaryStoriesHeader: 'Also worth reading',
    verbalDescriptor: 'Bridges are getting faster and cheaper',
    ...overrides,
  });
}

/** An imported article with a URL (and fingerprint) of its own, as the import stores it. */
export async function createArticle(
  overrides: Partial<Parameters<typeof Articles.storeIfNew>[0]> = {},
): Promise<Articles.Article> {
  const canonicalUrl = overrides.canonicalUrl ?? `https://news.example/${ulid().toLowerCase()}`;
  await Articles.storeIfNew({
    title: 'Five invariants every DeFi lending protocol should fuzz before launch',
    summary:
      'Builders of DeFi protocols keep shipping lending markets with broken liquidation math.',
    publishedAt: '2026-11-20T08:00:00.000Z',
    source: 'Protocol Review',
    streamId: ulid(),
    fingerprint: createHash('sha256').update(canonicalUrl).digest('hex'),
    ...overrides,
    canonicalUrl,
  });
  return (await Articles.byUrl(canonicalUrl))!;
}
