// The private feed's routes through their loaders and actions: the documents with their
// validators and 304s, refusals as plain 4xx, and the vote page that records only on POST.
import { describe, expect, it } from 'vitest';
import * as Feed from '#core/feed';
import * as ReaderFeeds from '#core/reader-feeds';
import { request } from '#tests/integration/route-call';
import { readerWithFeed } from '#tests/integration/readers';
import { loader as documentLoader, NOT_FOUND_MESSAGE } from './reader-feed.$key.$document';
import { action as voteAction, loader as voteLoader } from './reader-feed.vote';

const args = (req: Request, params: Record<string, string> = {}) => ({
  request: req,
  params,
  context: {},
});

async function withUrl() {
  const reader = await readerWithFeed(['Very Relevant', 'Quite Relevant']);
  return { ...reader, made: await ReaderFeeds.turnOn(reader.user.id) };
}

const fetchDocument = (
  key: string,
  document: string,
  headers: Record<string, string> = {},
  query = '',
) =>
  documentLoader(
    args(request(`/reader-feed/${key}/${document}${query}`, { headers }), { key, document }),
  );

describe('/reader-feed/{key}/{document}', () => {
  it('serves RSS, then 304 to the same ETag; JSON Feed and OPML by name', async () => {
    const { made } = await withUrl();
    const first = await fetchDocument(made.key, 'feed.xml');
    expect(first.status).toBe(200);
    expect(first.headers.get('Content-Type')).toBe('application/rss+xml; charset=utf-8');
    expect(first.headers.get('Cache-Control')).toBe('private, no-cache');
    expect(first.headers.get('Content-Security-Policy')).toBeTruthy();
    expect(await first.text()).toContain('<rss version="2.0"');
    const etag = first.headers.get('ETag')!;
    const again = await fetchDocument(made.key, 'feed.xml', { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.headers.get('ETag')).toBe(etag);
    expect(await again.text()).toBe('');
    expect((await fetchDocument(made.key, 'feed.json')).headers.get('Content-Type')).toBe(
      'application/feed+json; charset=utf-8',
    );
    expect(await (await fetchDocument(made.key, 'subscriptions.opml')).text()).toContain('<opml');
  });

  it('answers an unknown key or document with a plain 404, and a bad rating with a 400', async () => {
    const { made } = await withUrl();
    for (const [key, document] of [
      [made.key, 'feed.atom'],
      ['cff_nope', 'feed.xml'],
    ] as const) {
      const answer = await fetchDocument(key, document);
      expect(answer.status).toBe(404);
      expect(await answer.text()).toBe(NOT_FOUND_MESSAGE);
    }
    const bad = await fetchDocument(made.key, 'feed.xml', {}, '?rating=Great');
    expect(bad.status).toBe(400);
    expect(await bad.text()).toBe(ReaderFeeds.READER_FEED_MESSAGES.badRating);
  });

  it('answers a URL asked for too often with a plain 429 and Retry-After', async () => {
    const { made } = await withUrl();
    const { max, windowSeconds } = ReaderFeeds.FEED_URL_LIMIT;
    for (let asked = 0; asked < max; asked++) {
      const answer = await fetchDocument(made.key, 'subscriptions.opml');
      // Across a window's end the previous window's count leaves less room: stop at the refusal.
      if (answer.status === 429) break;
      expect(answer.status).toBe(200);
    }
    const refused = await fetchDocument(made.key, 'feed.xml');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toBe(String(windowSeconds));
    expect(refused.headers.get('Content-Type')).toBe('text/plain; charset=utf-8');
    expect(await refused.text()).toBe(ReaderFeeds.READER_FEED_MESSAGES.tooOften);
  });
});

describe('/reader-feed/vote', () => {
  async function likeLink() {
    const reader = await withUrl();
    const body = await (await fetchDocument(reader.made.key, 'feed.json')).text();
    const [item] = (JSON.parse(body) as { items: { _cluefeed: { like_url: string } }[] }).items;
    const url = new URL(item!._cluefeed.like_url);
    return {
      ...reader,
      path: `${url.pathname}${url.search}`,
      story: url.searchParams.get('story')!,
    };
  }
  const recorded = async (userId: string, articleId: string) =>
    (await Feed.FeedbackEntity.get({ userId, articleId }).go({ consistent: true })).data?.kind;

  it('records nothing on GET; its POST records the like and comes back to the page', async () => {
    const { path, story, user } = await likeLink();
    expect(await voteLoader(args(request(path)))).toMatchObject({
      ok: true,
      kind: 'like',
      recorded: false,
    });
    expect(await recorded(user.id, story)).toBeUndefined();

    const posted = (await voteAction(
      args(
        request(path, {
          method: 'POST',
          body: '',
          headers: {
            'Content-Type': 'application/x-www-form-urlencoded',
            Origin: 'http://localhost',
          },
        }),
      ),
    ).catch((thrown: unknown) => thrown)) as Response;
    expect(posted.status).toBe(302);
    expect(posted.headers.get('Location')).toBe(path);
    expect(await recorded(user.id, story)).toBe('like');
    expect(await voteLoader(args(request(path)))).toMatchObject({ ok: true, recorded: true });
  });

  it('refuses a POST from another site, and answers a changed link with a 404', async () => {
    const { path, story, user } = await likeLink();
    const foreign = (await voteAction(
      args(
        request(path, {
          method: 'POST',
          body: '',
          headers: {
            'Content-Type': 'application/x-www-form-urlencoded',
            Origin: 'https://evil.example',
          },
        }),
      ),
    ).catch((thrown: unknown) => thrown)) as Response;
    expect(foreign.status).toBe(403);
    expect(await recorded(user.id, story)).toBeUndefined();
    const changed = path.replace('kind=like', 'kind=dislike');
    expect(await voteLoader(args(request(changed)))).toMatchObject({
      type: 'DataWithResponseInit',
      init: { status: 404 },
      data: { ok: false, error: ReaderFeeds.READER_FEED_MESSAGES.voteNotValid },
    });
  });
});
