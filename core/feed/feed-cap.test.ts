// Review of issue 19 (review19): a reader whose clue set has more than FEED_MAX_STORIES scores.
// `needsBuild` compares min(scored, 2,000) with the stories listed, so once a reader has 2,000
// scored stories a newly scored story (even the best and newest) changes nothing it compares:
// the scheduled run never rebuilds their list, and the story never reaches their feed.
import { createHash } from 'node:crypto';
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import * as Articles from '#core/articles';
import { mapPool } from '#core/common';
import * as Scoring from '#core/scoring';
import * as Users from '#core/users';
import { createArticle } from '#tests/integration/factories';
import { useOwnTable } from '#tests/integration/own-table';
import { readerWithPassword } from '#tests/integration/readers';
import * as Feed from './index';

useOwnTable('feed-cap');

const CLUE = 'I run Ethereum validators at home';

const scoreOf = (
  label: Scoring.Score['label'],
  publishedAt: string,
): Parameters<typeof Scoring.storeScore>[3] => ({
  label,
  score: 0.7,
  reason: 'It matches',
  relevantClues: [CLUE],
  publishedAt,
  processId: ulid(),
  inputTokens: 0,
  outputTokens: 0,
});

describe('a reader with more scored stories than a feed list holds', () => {
  it('gets a newly scored best story into their feed with the next scheduled run', async () => {
    const { user } = await readerWithPassword({ clues: [CLUE] });
    const reader = (await Users.byId(user.id))!;
    const target = Scoring.userTarget(reader);
    const keys = await Scoring.productionKeys();

    // FEED_MAX_STORIES older stories, scored 'Quite Relevant' for the reader.
    const older = Array.from({ length: Feed.FEED_MAX_STORIES }, (_, i) => {
      const id = ulid();
      const canonicalUrl = `https://news.example/cap-${id.toLowerCase()}`;
      return {
        id,
        canonicalUrl,
        title: `Validator operations notes ${i}`,
        summary: 'Home stakers compare client diversity.',
        publishedAt: new Date(Date.UTC(2026, 9, 1, 0, i)).toISOString(),
        importedAt: new Date().toISOString(),
        source: 'Test Wire',
        streamId: 'stream-cap',
        fingerprint: createHash('sha256').update(canonicalUrl).digest('hex'),
      };
    });
    for (let start = 0; start < older.length; start += 25) {
      await Articles.ArticleEntity.put(older.slice(start, start + 25)).go();
    }
    await mapPool(older, 16, (article) =>
      Scoring.storeScore(article.id, target, keys, scoreOf('Quite Relevant', article.publishedAt)),
    );
    await Feed.buildFeed(user.id);
    const built = (await Users.byId(user.id))!;
    expect((await Feed.page(built, { limit: 1 })).count).toBe(Feed.FEED_MAX_STORIES);
    expect(await Feed.needsBuild(built, keys)).toBe(false);

    // An import brings a story that is the best and newest for the reader; a scoring run scores
    // it. What the run's end does for each reader (scoring.ts, scoreArticles.succeeded):
    const story = await createArticle({
      title: 'Home stakers run Ethereum validators on a laptop',
      publishedAt: new Date(Date.UTC(2026, 10, 26)).toISOString(),
    });
    await Scoring.storeScore(story.id, target, keys, scoreOf('Very Relevant', story.publishedAt));
    if (await Feed.needsBuild(built, keys)) await Feed.buildFeed(user.id);

    const after = (await Users.byId(user.id))!;
    const first = await Feed.page(after, { limit: 1 });
    expect(first.stories[0]?.articleId).toBe(story.id);
  }, 240_000);
});
