// A rebuild of a full list (FEED_MAX_STORIES entries) writes in proportion to what changed
// (ADR 0066): nothing when nothing changed, the entries a like moved when it moves some; and a
// reader paging the list while a rebuild writes it reads the published list whole.
import { createHash } from 'node:crypto';
import { ulid } from 'ulid';
import { beforeAll, describe, expect, it } from 'vitest';
import { RELEVANCE_LABELS } from '#core/ai';
import * as Articles from '#core/articles';
import { mapPool } from '#core/common';
import { countStorageCalls } from '#core/db';
import * as Scoring from '#core/scoring';
import * as Users from '#core/users';
import { useOwnTable } from '#tests/integration/own-table';
import { readerWithPassword } from '#tests/integration/readers';
import * as Feed from './index';
import { changesOf, putEntries, shownIn, storedEntries } from './list-diff';

useOwnTable('feed-list-rebuild');

const CLUE = 'I follow the ports and waterways of Europe';
/** Each place a source of its own: a like of a story moves its place's stories, not the others. */
// prettier-ignore
const PLACES = [
  'harbour', 'canal', 'bridge', 'tunnel', 'railway', 'airport', 'market', 'orchard', 'vineyard',
  'meadow', 'glacier', 'volcano', 'desert', 'forest', 'island', 'river', 'valley', 'canyon',
  'prairie', 'lagoon', 'castle', 'temple', 'library', 'museum', 'theatre', 'stadium', 'factory',
  'warehouse', 'bakery', 'brewery', 'pharmacy', 'hospital', 'school', 'college', 'prison',
  'embassy', 'parliament', 'cathedral', 'monastery', 'observatory',
];
const PER_PLACE = Feed.FEED_MAX_STORIES / PLACES.length;

let userId: string;
let articles: { id: string; source: string }[];

beforeAll(async () => {
  const { user } = await readerWithPassword({ clues: [CLUE] });
  userId = user.id;
  const target = Scoring.userTarget((await Users.byId(userId))!);
  const keys = await Scoring.productionKeys();
  const stored = Array.from({ length: Feed.FEED_MAX_STORIES }, (_, i) => {
    const id = ulid();
    const place = PLACES[i % PLACES.length]!;
    const canonicalUrl = `https://news.example/rebuild-${id.toLowerCase()}`;
    return {
      id,
      canonicalUrl,
      title: `${place[0]!.toUpperCase()}${place.slice(1)} ${i}`,
      summary: `What changed at the ${place} this week.`,
      publishedAt: new Date(Date.UTC(2026, 9, 1, 0, i)).toISOString(),
      importedAt: new Date().toISOString(),
      source: `The ${place} wire`,
      streamId: 'stream-rebuild',
      fingerprint: createHash('sha256').update(canonicalUrl).digest('hex'),
    };
  });
  for (let start = 0; start < stored.length; start += 25) {
    await Articles.ArticleEntity.put(stored.slice(start, start + 25)).go();
  }
  await mapPool(stored, 16, (article) =>
    Scoring.storeScore(article.id, target, keys, {
      label: RELEVANCE_LABELS[stored.indexOf(article) % RELEVANCE_LABELS.length]!,
      score: 0.5,
      reason: 'It matches',
      relevantClues: [CLUE],
      publishedAt: article.publishedAt,
      processId: ulid(),
      inputTokens: 0,
      outputTokens: 0,
    }),
  );
  articles = stored;
  const first = await Feed.buildFeed(userId);
  expect(first).toMatchObject({ built: true, stories: Feed.FEED_MAX_STORIES });
}, 300_000);

/** The list the reader's record publishes: each story's place and what is shown of it. */
async function publishedList() {
  const reader = (await Users.byId(userId))!;
  const stored = await storedEntries(userId);
  const shown = stored.filter((entry) => shownIn(entry, reader.feedBuild));
  return { reader, stored, places: new Map(shown.map((entry) => [entry.articleId, entry.order])) };
}

/** Every story of the list, read a page at a time as the API does. */
async function everyPage(reader: Feed.FeedReader) {
  const read: string[] = [];
  for (let offset = 0; offset < Feed.FEED_MAX_STORIES; offset += Feed.PAGE_LIMIT) {
    const { stories } = await Feed.page(reader, { offset, limit: Feed.PAGE_LIMIT });
    read.push(...stories.map((story) => story.articleId));
  }
  return read;
}

describe("a rebuild of a reader's full list", () => {
  it('writes nothing, and keeps the build (the private feed’s validator), when nothing changed', async () => {
    const before = await publishedList();
    const again = await countStorageCalls(() => Feed.buildFeed(userId));
    expect(again.result).toMatchObject({ built: true, build: before.reader.feedBuild, written: 0 });
    const writes = Object.keys(again.calls).filter((name) => /Write|Put|Update|Delete/.test(name));
    expect(writes, JSON.stringify(again.calls)).toEqual([]);
    const after = await publishedList();
    expect(after.reader.feedBuild).toBe(before.reader.feedBuild);
    expect(after.reader.feedBuiltAt).toBe(before.reader.feedBuiltAt);
    expect(after.places).toEqual(before.places);
    // 400 stories a label: a page may start at the 100th, 200th or 300th of each.
    expect(after.reader.feedMarks).toHaveLength(3 * RELEVANCE_LABELS.length);
  }, 120_000);

  it('after a like, writes the entries it moved and nothing else', async () => {
    const before = await publishedList();
    const liked = articles[7]!;
    await Feed.giveFeedback(userId, { articleId: liked.id, kind: 'like' });
    const rebuild = await countStorageCalls(() => Feed.buildFeed(userId));
    const after = await publishedList();
    expect(rebuild.result).toMatchObject({ built: true, stories: Feed.FEED_MAX_STORIES });
    expect(after.reader.feedBuild).not.toBe(before.reader.feedBuild);

    // The like raised its source's stories (and marked the liked one): those, and only those, moved.
    const moved = [...after.places].filter(([id, order]) => before.places.get(id) !== order);
    const ofSource = articles.filter((article) => article.source === liked.source);
    expect(moved.map(([id]) => id).sort()).toEqual(ofSource.map(({ id }) => id).sort());
    expect(moved).toHaveLength(PER_PLACE);
    // A moved entry is put at its new place, kept at its old one until the build is published, then
    // deleted there: 3 writes each, 150 of 2,000 entries (a whole rewrite put and deleted 4,000).
    expect(rebuild.result.built && rebuild.result.written).toBe(3 * PER_PLACE);
    expect(rebuild.calls['dynamodb BatchWriteItem']).toBe(
      Math.ceil((2 * PER_PLACE) / 25) + Math.ceil(PER_PLACE / 25),
    );
    // No entry of another build is left, and the list reads whole, each story once.
    expect(after.stored).toHaveLength(Feed.FEED_MAX_STORIES);
    expect(after.reader.feedWriting).toBeUndefined();
    const read = await everyPage(after.reader);
    expect(new Set(read).size).toBe(Feed.FEED_MAX_STORIES);
    // The liked story now leads its label (its source's stories rose above the others').
    const label = RELEVANCE_LABELS[7 % RELEVANCE_LABELS.length]!;
    const top = await Feed.page(after.reader, { ratings: [label], limit: PER_PLACE });
    expect(top.stories[0]?.articleId).toBe(liked.id);
    expect(top.stories.every((story) => story.source === liked.source)).toBe(true);
  }, 120_000);

  it('reads the published list whole while a rebuild has written part of the next one', async () => {
    const before = await publishedList();
    const read = await everyPage(before.reader);
    // A build that wrote its entries (the disliked source's stories moved down) but has not
    // published: new places from the next build on, the old ones until it.
    const next = [...before.stored].map((entry) =>
      entry.source === articles[3]!.source
        ? { ...entry, order: `4${entry.order.slice(1)}` }
        : entry,
    );
    const changes = changesOf(before.stored, next, before.reader.feedBuild, ulid());
    expect(changes.puts).toHaveLength(2 * PER_PLACE);
    await putEntries(changes.puts);
    expect(await everyPage(before.reader)).toEqual(read);

    // It stopped there; its hold on the list, taken more than 2 minutes ago, is over. The next
    // build takes the list over, finds the unpublished writes and sets the list straight.
    const held = ulid(Date.now() - 3 * 60_000);
    await Users.UserEntity.patch({ id: userId }).set({ feedWriting: held }).go();
    const rebuilt = await Feed.buildFeed(userId);
    const after = await publishedList();
    expect(rebuilt).toMatchObject({ built: true, written: 2 * PER_PLACE });
    expect(after.reader.feedWriting).toBeUndefined();
    expect(after.stored).toHaveLength(Feed.FEED_MAX_STORIES);
    expect(after.places).toEqual(before.places);
    expect(await everyPage(after.reader)).toEqual(read);
  }, 120_000);

  it('of two rebuilds at the same moment leaves one list, each story once', async () => {
    const before = await publishedList();
    await Feed.giveFeedback(userId, { articleId: articles[12]!.id, kind: 'dislike' });
    const outcomes = await Promise.all([Feed.buildFeed(userId), Feed.buildFeed(userId)]);
    const after = await publishedList();
    expect(after.reader.feedBuild).not.toBe(before.reader.feedBuild);
    // One wrote the list; the other waited for it and found nothing left to write.
    expect(outcomes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ built: true, build: after.reader.feedBuild, written: 0 }),
        expect.objectContaining({ built: true, build: after.reader.feedBuild }),
      ]),
    );
    expect(after.reader.feedWriting).toBeUndefined();
    expect(after.stored).toHaveLength(Feed.FEED_MAX_STORIES);
    expect(after.stored.every((entry) => shownIn(entry, after.reader.feedBuild))).toBe(true);
    expect(after.reader.feedCounts!.reduce((sum, n) => sum + n, 0)).toBe(Feed.FEED_MAX_STORIES);
    const read = await everyPage(after.reader);
    expect(new Set(read).size).toBe(Feed.FEED_MAX_STORIES);
    // The disliked story is in the list once, at the foot of Not Relevant.
    const { count } = await Feed.page(after.reader, { ratings: ['Not Relevant'], limit: 1 });
    const last = await Feed.page(after.reader, { ratings: ['Not Relevant'], offset: count - 1 });
    expect(last.stories.map((story) => [story.articleId, story.feedback])).toEqual([
      [articles[12]!.id, 'dislike'],
    ]);
  }, 120_000);
});
