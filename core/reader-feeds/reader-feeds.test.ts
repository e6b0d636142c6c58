import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { countStorageCalls } from '#core/db';
import * as Feed from '#core/feed';
import * as Feeds from '#core/feeds';
import * as ReaderFeeds from '#core/reader-feeds';
import * as Users from '#core/users';
import { rounds } from '#tests/integration/races';
import { readerWithFeed, scoreFor } from '#tests/integration/readers';
import { bridgeHack, storeReports } from '#tests/integration/stories';

const ORIGIN = 'http://localhost:3000';
const { READER_FEED_MESSAGES: MESSAGES } = ReaderFeeds;

async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    const { message, status } = error as { message: string; status?: number };
    return { message, status };
  }
  throw new Error('expected a refusal');
}

async function readerWithUrl() {
  const reader = await readerWithFeed(['Very Relevant', 'Quite Relevant', 'Not Relevant']);
  const made = await ReaderFeeds.turnOn(reader.user.id);
  return { ...reader, made };
}

const serve = (key: string, format: ReaderFeeds.Format = 'rss', more = {}) =>
  ReaderFeeds.serve({ key, format, origin: ORIGIN, ...more });

type Ok = Extract<ReaderFeeds.Served, { status: 200 }>;
const ok = async (served: Promise<ReaderFeeds.Served>) => {
  const answer = await served;
  expect(answer.status).toBe(200);
  return answer as Ok;
};

describe("a reader's private feed URL", () => {
  it('is shown once when turned on; the table keeps only its SHA-256', async () => {
    const { user, made } = await readerWithUrl();
    expect(made.key).toMatch(new RegExp(`^cff_${user.id}_[A-Za-z0-9_-]{43}$`));
    expect(await ReaderFeeds.stateOf(user.id)).toEqual({
      on: true,
      id: made.id,
      createdAt: made.createdAt,
    });
    const { data } = await ReaderFeeds.ReaderFeedEntity.get({ userId: user.id }).go();
    expect(data!.secretHash).toBe(createHash('sha256').update(made.key).digest('hex'));
    expect(JSON.stringify(data)).not.toContain(made.key.slice(-43));
  });

  it('serves RSS 2.0 that the import parser reads back: the list /feed shows, with rating, reasons and vote links', async () => {
    const { made, articles, user } = await readerWithUrl();
    const { body, headers } = await ok(serve(made.key));
    expect(headers['Content-Type']).toBe('application/rss+xml; charset=utf-8');
    const parsed = Feeds.parseFeed(body, headers['Content-Type']);
    expect(parsed.title).toBe('Cluefeed · Ada Reader');
    const reader = (await Users.byId(user.id))!;
    const { stories } = await Feed.page(reader, { ratings: Feed.defaultRatings(reader) });
    expect(parsed.items.map((item) => item.title)).toEqual(stories.map((story) => story.title));
    expect(parsed.items.map((item) => item.url)).toEqual(stories.map((story) => story.link));
    expect(parsed.items.map((item) => item.author)).toEqual(stories.map((story) => story.source));
    expect(parsed.items).toHaveLength(2);
    expect(parsed.items.map((item) => item.title)).not.toContain(articles[2]!.title);
    const first = parsed.items[0]!;
    expect(first.id).toBe(`cluefeed:${stories[0]!.articleId}`);
    expect(first.summary ?? first.contentHtml).toContain('Rating:</strong> Very Relevant');
    expect(first.summary ?? first.contentHtml).toContain('Why:</strong> It matches');
    expect(first.summary ?? first.contentHtml).toMatch(
      /href="http:\/\/localhost:3000\/reader-feed\/vote\?[^"]*kind=like/,
    );
  });

  it('serves the ratings asked for, and refuses a rating that does not exist', async () => {
    const { made, articles } = await readerWithUrl();
    const { body } = await ok(serve(made.key, 'rss', { ratings: ['Not Relevant'] }));
    expect(Feeds.parseFeed(body).items.map((item) => item.title)).toEqual([articles[2]!.title]);
    expect(await refusal(serve(made.key, 'rss', { ratings: ['Great'] }))).toEqual({
      message: MESSAGES.badRating,
      status: 400,
    });
  });

  it('serves one item per story with its other sources, in RSS the parser reads back and in JSON Feed', async () => {
    const { made, user } = await readerWithUrl();
    const { name, reports } = bridgeHack();
    const [first, second, third] = await storeReports(reports.slice(0, 3));
    const reader = (await Users.byId(user.id))!;
    await scoreFor(reader, first!, 'Very Relevant');
    await scoreFor(reader, second!, 'Very Relevant');
    await scoreFor(reader, third!, 'Quite Relevant');
    await Feed.buildFeed(user.id);

    const rss = await ok(serve(made.key));
    const parsed = Feeds.parseFeed(rss.body, rss.headers['Content-Type']);
    // Of two reports with the best rating, the newer leads its story.
    const story = parsed.items.filter((item) => item.title?.includes(name));
    expect(story.map((item) => item.id)).toEqual([`cluefeed:${second!.id}`]);
    const html = story[0]!.summary ?? story[0]!.contentHtml ?? '';
    expect(html).toContain('also covered by 2 sources:');
    for (const other of [first!, third!]) {
      expect(html).toContain(`<a href="${other.canonicalUrl}">${other.source}</a>`);
    }

    const json = JSON.parse((await ok(serve(made.key, 'json'))).body) as {
      items: { id: string; _cluefeed: { sourceCount: number; alsoCoveredBy: unknown[] } }[];
    };
    const items = json.items.filter((item) =>
      [first!, second!, third!].some((article) => item.id === `cluefeed:${article.id}`),
    );
    expect(items).toHaveLength(1);
    expect(items[0]!._cluefeed.sourceCount).toBe(3);
    expect(items[0]!._cluefeed.alsoCoveredBy).toHaveLength(2);
    expect(items[0]!._cluefeed.alsoCoveredBy).toContainEqual({
      source: 'Decrypt',
      link: third!.canonicalUrl,
      title: third!.title,
    });
  });

  it('serves JSON Feed 1.1 with its required fields', async () => {
    const { made } = await readerWithUrl();
    const { body, headers } = await ok(serve(made.key, 'json'));
    expect(headers['Content-Type']).toBe('application/feed+json; charset=utf-8');
    const document = JSON.parse(body) as Record<string, unknown> & {
      items: Record<string, unknown>[];
    };
    expect(document.version).toBe('https://jsonfeed.org/version/1.1');
    expect(typeof document.title).toBe('string');
    expect(document.feed_url).toBe(`${ORIGIN}${ReaderFeeds.feedPaths(made.key).json}`);
    expect(document.items).toHaveLength(2);
    for (const item of document.items) {
      expect(typeof item.id).toBe('string');
      expect(typeof item.content_html).toBe('string');
      expect(new Date(item.date_published as string).toISOString()).toBe(item.date_published);
      expect(item._cluefeed).toMatchObject({
        rating: expect.any(String),
        reasons: expect.arrayContaining(['It matches']),
        like_url: expect.stringContaining('kind=like'),
        dislike_url: expect.stringContaining('kind=dislike'),
      });
    }
    expect(Feeds.parseFeed(body).items.map((item) => item.author)).toEqual(
      document.items.map(() => 'Ada Reader Daily'),
    );
  });

  it('answers a conditional GET with 304 from one BatchGetItem and its count; a full answer is that and one Query', async () => {
    const { made, user, articles } = await readerWithUrl();
    const full = await countStorageCalls(() => serve(made.key));
    // The URL's first request starts its rate window, later ones add to it: one UpdateItem each.
    expect(full.calls).toEqual({
      'dynamodb BatchGetItem': 1,
      'dynamodb UpdateItem': 1,
      'dynamodb Query': 1,
    });
    const { ETag: etag, 'Last-Modified': lastModified } = (full.result as Ok).headers;
    expect(etag).toMatch(/^W\/".+"$/);

    const again = await countStorageCalls(() => serve(made.key, 'rss', { ifNoneMatch: etag }));
    expect(again.result.status).toBe(304);
    expect(again.calls).toEqual({ 'dynamodb BatchGetItem': 1, 'dynamodb UpdateItem': 1 });
    expect((await serve(made.key, 'rss', { ifModifiedSince: lastModified })).status).toBe(304);
    // Another format or other ratings are another document.
    expect((await serve(made.key, 'json', { ifNoneMatch: etag })).status).toBe(200);
    expect(
      (await serve(made.key, 'rss', { ifNoneMatch: etag, ratings: ['Not Relevant'] })).status,
    ).toBe(200);

    // A like rebuilds the list: a new build, so a new document.
    const before = (await Users.byId(user.id))!.feedBuild;
    await Feed.giveFeedback(user.id, { articleId: articles[0]!.id, kind: 'like' });
    // Last-Modified has whole seconds: the rebuild must be a second later to be newer.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await Feed.buildFeed(user.id);
    expect((await Users.byId(user.id))!.feedBuild).not.toBe(before);
    expect((await serve(made.key, 'rss', { ifNoneMatch: etag })).status).toBe(200);
    expect((await serve(made.key, 'rss', { ifModifiedSince: lastModified })).status).toBe(200);
  });

  it('stops working when rotated (the new URL works) and when turned off', async () => {
    const { made, user } = await readerWithUrl();
    const rotated = await ReaderFeeds.rotate(user.id, made.id);
    expect(rotated.key).not.toBe(made.key);
    expect((await serve(made.key)).status).toBe(404);
    expect((await serve(rotated.key)).status).toBe(200);
    expect(await refusal(ReaderFeeds.rotate(user.id, made.id))).toEqual({
      message: MESSAGES.changed,
      status: 409,
    });
    expect(await ReaderFeeds.turnOff(user.id, rotated.id)).toEqual({ changed: true });
    expect((await serve(rotated.key)).status).toBe(404);
    expect(await ReaderFeeds.stateOf(user.id)).toEqual({ on: false });
    expect(await ReaderFeeds.turnOff(user.id, rotated.id)).toEqual({ changed: false });
  });

  it('opens nothing for a malformed or forged key, or for a reader who may no longer sign in', async () => {
    const { made, user } = await readerWithUrl();
    const forged = `${made.key.slice(0, -1)}${made.key.endsWith('A') ? 'B' : 'A'}`;
    for (const key of ['', 'cff_x', forged, made.key.replace(user.id, '0'.repeat(26))]) {
      expect((await serve(key)).status).toBe(404);
    }
    await Users.UserEntity.patch({ id: user.id }).set({ isActive: false }).go();
    expect((await serve(made.key)).status).toBe(404);
    expect(await refusal(ReaderFeeds.rotate(user.id, made.id))).toEqual({
      message: MESSAGES.readerGone,
      status: 403,
    });
  });

  it('answers a URL asked for too often with a 429 and Retry-After; a rotated URL has its own room, a guessed key writes nothing', async () => {
    const { made, user } = await readerWithUrl();
    const { max, windowSeconds } = ReaderFeeds.FEED_URL_LIMIT;
    // Early in one window, so the sliding window's room is the whole maximum.
    const now = Math.floor(Date.now() / (windowSeconds * 1000)) * windowSeconds * 1000 + 1000;
    const answers = await Promise.all(
      Array.from({ length: max + 3 }, () =>
        ReaderFeeds.serve({ key: made.key, format: 'opml', origin: ORIGIN }, now),
      ),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(max);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused).toHaveLength(3);
    expect(refused[0]).toEqual({
      status: 429,
      headers: { 'Retry-After': String(windowSeconds) },
      body: MESSAGES.tooOften,
    });
    const rotated = await ReaderFeeds.rotate(user.id, made.id);
    expect(
      (await ReaderFeeds.serve({ key: rotated.key, format: 'opml', origin: ORIGIN }, now)).status,
    ).toBe(200);

    const forged = `${rotated.key.slice(0, -1)}${rotated.key.endsWith('A') ? 'B' : 'A'}`;
    const guessed = await countStorageCalls(() => serve(forged));
    expect(guessed.result.status).toBe(404);
    expect(guessed.calls).toEqual({ 'dynamodb BatchGetItem': 1 });
  });

  it('refuses a second turn-on: one URL per reader', async () => {
    const { user } = await readerWithUrl();
    expect(await refusal(ReaderFeeds.turnOn(user.id))).toEqual({
      message: MESSAGES.alreadyOn,
      status: 409,
    });
  });

  it('lets one of two rotations at once land; the other is a 409, and only the winner works', async () => {
    const { made, user } = await readerWithUrl();
    let from = made.id;
    await rounds(6, async (race) => {
      const answers = await race(
        () => ReaderFeeds.rotate(user.id, from).catch((error: Error) => error),
        () => ReaderFeeds.rotate(user.id, from).catch((error: Error) => error),
      );
      const won = answers.filter((answer): answer is ReaderFeeds.MadeFeed => 'key' in answer);
      const lost = answers.filter((answer): answer is Error => answer instanceof Error);
      expect(won).toHaveLength(1);
      expect(lost.map((error) => error.message)).toEqual([MESSAGES.changed]);
      expect((await ReaderFeeds.stateOf(user.id)) as { id: string }).toMatchObject({
        id: won[0]!.id,
      });
      const served = await Promise.all(
        answers.map((answer) => ('key' in answer ? serve(answer.key) : undefined)),
      );
      expect(served.filter((answer) => answer?.status === 200)).toHaveLength(1);
      from = won[0]!.id;
    });
    await rounds(4, async (race) => {
      await ReaderFeeds.turnOff(user.id, from).catch(() => undefined);
      const answers = await race(
        () => ReaderFeeds.turnOn(user.id).catch((error: Error) => error),
        () => ReaderFeeds.turnOn(user.id).catch((error: Error) => error),
      );
      expect(answers.filter((answer) => 'key' in answer)).toHaveLength(1);
      const state = await ReaderFeeds.stateOf(user.id);
      from = (state as { id: string }).id;
    });
  });

  it('lists the RSS URL in an OPML export', async () => {
    const { made } = await readerWithUrl();
    const { body, headers } = await ok(serve(made.key, 'opml'));
    expect(headers['Content-Type']).toBe('text/x-opml; charset=utf-8');
    expect(body).toContain('<opml version="2.0">');
    expect(body).toContain(`xmlUrl="${ORIGIN}${ReaderFeeds.feedPaths(made.key).rss}"`);
  });
});

describe("a private feed's one-click votes", () => {
  async function linksOf(key: string) {
    const { body } = await ok(serve(key, 'json'));
    const [item] = (
      JSON.parse(body) as { items: { _cluefeed: { like_url: string; dislike_url: string } }[] }
    ).items;
    return {
      like: new URL(item!._cluefeed.like_url),
      dislike: new URL(item!._cluefeed.dislike_url),
    };
  }

  it('records the vote through the feed feedback operation only when its page posts it', async () => {
    const { made, user, articles } = await readerWithUrl();
    const { dislike } = await linksOf(made.key);
    const opened = await ReaderFeeds.voteOf(dislike.searchParams);
    expect(opened).toMatchObject({ recorded: false, vote: { kind: 'dislike', reader: user.id } });
    const story = opened!.vote.story;
    expect(articles.map((article) => article.id)).toContain(story);
    expect(
      (await Feed.FeedbackEntity.get({ userId: user.id, articleId: story }).go()).data,
    ).toBeNull();

    const { vote, title } = await ReaderFeeds.recordVote(dislike.searchParams);
    expect(vote.kind).toBe('dislike');
    expect(title).toBe(opened!.title);
    const { data } = await Feed.FeedbackEntity.get({ userId: user.id, articleId: story }).go();
    expect(data?.kind).toBe('dislike');
    expect((await ReaderFeeds.voteOf(dislike.searchParams))?.recorded).toBe(true);
  });

  it('refuses a link that was changed, has expired, or whose feed URL was rotated', async () => {
    const { made, user } = await readerWithUrl();
    const { like } = await linksOf(made.key);
    const tampered = new URLSearchParams(like.searchParams);
    tampered.set('kind', 'dislike');
    expect(await ReaderFeeds.voteOf(tampered)).toBeUndefined();
    const later = Date.now() + 2 * ReaderFeeds.VOTE_LINK_PERIOD_SECONDS * 1000 + 1000;
    expect(await ReaderFeeds.voteOf(like.searchParams, later)).toBeUndefined();
    expect(await ReaderFeeds.voteOf(like.searchParams)).toBeDefined();
    await ReaderFeeds.rotate(user.id, made.id);
    expect(await refusal(ReaderFeeds.recordVote(like.searchParams))).toEqual({
      message: MESSAGES.voteNotValid,
      status: 404,
    });
  });
});
