import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as Feeds from '#core/feeds';
import * as Stories from '#core/stories';
import { FIXTURE_FEEDS_DIR } from '#tests/fakes/feed-server';

/** Every fixture feed's articles, each story once, as the import stores them. */
function fixtureArticles() {
  const seen = new Set<string>();
  return readdirSync(FIXTURE_FEEDS_DIR)
    .filter((file) => /\.(xml|json)$/.test(file) && file !== 'malformed.xml')
    .flatMap((file) => {
      const source = { streamId: file, streamName: file, feedUrl: `https://feeds.example/${file}` };
      return Feeds.parseFeed(readFileSync(join(FIXTURE_FEEDS_DIR, file), 'utf8')).items.flatMap(
        (item) => Feeds.normaliseItem(item, source) ?? [],
      );
    })
    .filter((article) => {
      const keys = [article.canonicalUrl, Feeds.fingerprint(article)];
      if (keys.some((key) => seen.has(key))) return false;
      keys.forEach((key) => seen.add(key));
      return true;
    })
    .map((article) => ({
      ...article,
      id: article.canonicalUrl,
      publishedAt: article.publishedAt ?? '2026-11-20T00:00:00.000Z',
    }));
}

describe('Stories of the fixture feeds', () => {
  it('groups only the Base outage, told by Blocknotes and Chainwire Daily; Starknet stays apart', async () => {
    const articles = fixtureArticles();
    const profiles = await Stories.profilesOf(articles);
    const stories = Stories.group(
      articles.map((report, index) => ({ report, profile: profiles[index]! })),
      [],
      (report, profile) => ({
        centroid: profile,
        firstAt: report.publishedAt,
        latestAt: report.publishedAt,
        joining: [report],
      }),
    );
    const grouped = stories.filter((story) => story.joining.length > 1);
    expect(grouped.map((story) => story.joining.map((article) => article.title))).toEqual([
      [
        'Base sequencer outage: 42 minutes without blocks, and what the post-mortem says',
        "Coinbase's Base network halts for 42 minutes",
      ],
    ]);
    expect(articles.some((article) => article.title.startsWith('Starknet stops'))).toBe(true);
    expect(stories).toHaveLength(articles.length - 1);
  });
});
