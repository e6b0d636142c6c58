// GET /api/users/me/articles: the caller's own feed as the spec's rows, for their session cookie
// or a personal access token; 401 for anyone else, 400 for bad paging, never a cached answer.
import { describe, expect, it } from 'vitest';
import type { RelevanceLabel } from '#core/ai';
import { config } from '#core/config';
import * as Feed from '#core/feed';
import * as RateLimit from '#core/rate-limit';
import * as ReaderTokens from '#core/reader-tokens';
import * as Users from '#core/users';
import { readerCookie, request } from '#tests/integration/route-call';
import { readerWithFeed, scoreFor } from '#tests/integration/readers';
import { bridgeHack, storeReports } from '#tests/integration/stories';
import { API_AUTH_MESSAGES } from '#web/lib/reader-api.server';
import { action, loader } from './api.users.me.articles';

const HOUR = 3600 * 1000;
const LABELS: RelevanceLabel[] = ['Very Relevant', 'Quite Relevant', 'Not Relevant'];

async function get(query = '', headers: Record<string, string> = {}) {
  const response = await loader({
    request: request(`/api/users/me/articles${query}`, { headers }),
    params: {},
    context: {},
  });
  return { response, body: (await response.json()) as Record<string, unknown> };
}

async function readerWithToken(labels = LABELS, name?: string) {
  const reader = await readerWithFeed(labels, name);
  const { token } = await ReaderTokens.create(reader.user.id, { name: 'tests' });
  return { ...reader, bearer: { Authorization: `Bearer ${token}` }, apiToken: token };
}

type Row = { Article: { title: string; rating: string } };
const titles = (body: Record<string, unknown>) =>
  (body.rows as Row[]).map((row) => row.Article.title);

describe('GET /api/users/me/articles', () => {
  it('answers 401 with WWW-Authenticate: Bearer and a clear message without a session or token', async () => {
    const { response, body } = await get();
    expect(response.status).toBe(401);
    expect(response.headers.get('WWW-Authenticate')).toBe('Bearer realm="cluefeed"');
    expect(response.headers.get('Cache-Control')).toBe('private, no-store');
    expect(response.headers.get('Content-Type')).toMatch(/^application\/json/);
    expect(body).toEqual({ error: { code: 'auth.required', message: API_AUTH_MESSAGES.missing } });
  });

  it("answers the reader's feed as the spec's rows for their session cookie", async () => {
    const reader = await readerWithFeed(LABELS, 'Cookie Reader');
    const { response, body } = await get('', { Cookie: await readerCookie(reader.token) });
    expect(response.status).toBe(200);
    expect(response.headers.get('Cache-Control')).toBe('private, no-store');
    expect(body.count).toBe(3);
    const first = reader.articles[0]!;
    expect((body.rows as unknown[])[0]).toEqual({
      Article: {
        id: first.id,
        title: 'Cookie Reader story 1',
        content: first.summary,
        link: first.canonicalUrl,
        imageUrl: null,
        publishedOn: first.publishedAt,
        rating: 'Very Relevant',
        Feed: { name: 'Cookie Reader Daily' },
        relevantClues: ['I build DeFi lending protocols'],
        storyId: first.id,
        sourceCount: 1,
        alsoCoveredBy: [],
      },
    });
    expect((body.rows as Row[]).map((row) => row.Article.rating)).toEqual(LABELS);
  });

  it('answers the same for a personal access token, and nothing once it is revoked', async () => {
    const reader = await readerWithToken(LABELS, 'Token Reader');
    const { response, body } = await get('', reader.bearer);
    expect(response.status).toBe(200);
    expect(titles(body)).toEqual([1, 2, 3].map((n) => `Token Reader story ${n}`));
    const [entry] = await ReaderTokens.list(reader.user.id);
    await ReaderTokens.revoke(reader.user.id, entry!.id);
    const revoked = await get('', reader.bearer);
    expect(revoked.response.status).toBe(401);
    expect(revoked.response.headers.get('WWW-Authenticate')).toBe(
      'Bearer realm="cluefeed", error="invalid_token"',
    );
    expect(revoked.body).toEqual({
      error: { code: 'auth.invalid_token', message: 'Could not verify authorization token' },
    });
  });

  it("refuses a deactivated reader's token and session, a malformed header and a session token sent as a bearer", async () => {
    const reader = await readerWithToken();
    const cookie = await readerCookie(reader.token);
    for (const headers of [
      { Authorization: 'Basic dXNlcjpwYXNz' },
      { Authorization: 'Bearer' },
      { Authorization: `Bearer ${reader.token}` },
      { Authorization: `Bearer ${reader.apiToken}x` },
    ]) {
      expect((await get('', headers)).response.status, JSON.stringify(headers)).toBe(401);
    }
    await Users.update(reader.user.id, { isActive: false });
    expect((await get('', reader.bearer)).response.status).toBe(401);
    expect((await get('', { Cookie: cookie })).response.status).toBe(401);
  });

  it('answers one row per story, with the other sources that tell it', async () => {
    const reader = await readerWithToken(['Quite Relevant'], 'Story Reader');
    const { reports } = bridgeHack();
    const [first, second] = await storeReports(reports.slice(0, 2));
    const user = (await Users.byId(reader.user.id))!;
    await scoreFor(user, first!, 'Very Relevant');
    await scoreFor(user, second!, 'Quite Relevant');
    await Feed.buildFeed(user.id);
    const { body } = await get('', reader.bearer);
    expect(body.count).toBe(2);
    expect(titles(body)).toEqual([first!.title, 'Story Reader story 1']);
    expect((body.rows as { Article: Record<string, unknown> }[])[0]!.Article).toMatchObject({
      id: first!.id,
      storyId: first!.id,
      sourceCount: 2,
      Feed: { name: 'The Block' },
      alsoCoveredBy: [{ source: 'CoinDesk', link: second!.canonicalUrl, title: second!.title }],
    });
  });

  it('pages by limit and offset (default 100, past the feed page size) and filters by rating', async () => {
    const labels = Array.from({ length: Feed.PAGE_SIZE + 2 }, (_, index): RelevanceLabel =>
      index % 2 ? 'Quite Relevant' : 'Very Relevant',
    );
    const reader = await readerWithToken(labels, 'Busy');
    const all = await get('', reader.bearer);
    expect(all.body.count).toBe(labels.length);
    expect(all.body.rows).toHaveLength(labels.length);
    const page = await get('?limit=2&offset=1', reader.bearer);
    expect(titles(page.body)).toEqual(titles(all.body).slice(1, 3));
    expect(page.body.count).toBe(labels.length);
    const quite = await get('?rating=Quite+Relevant&rating=Not+Relevant', reader.bearer);
    expect(quite.body.count).toBe(labels.length / 2);
    expect(new Set((quite.body.rows as Row[]).map((row) => row.Article.rating))).toEqual(
      new Set(['Quite Relevant']),
    );
  });

  it('answers bad paging with a 400 and the reason', async () => {
    const reader = await readerWithToken();
    for (const [query, message] of [
      ['?limit=0', Feed.FEED_MESSAGES.badLimit],
      ['?limit=101', Feed.FEED_MESSAGES.badLimit],
      ['?limit=ten', Feed.FEED_MESSAGES.badLimit],
      ['?limit=', Feed.FEED_MESSAGES.badLimit],
      ['?offset=-1', Feed.FEED_MESSAGES.badOffset],
      ['?offset=1.5', Feed.FEED_MESSAGES.badOffset],
      ['?offset=99999999999', Feed.FEED_MESSAGES.badOffset],
      ['?rating=Relevant', Feed.FEED_MESSAGES.badRating],
    ] as const) {
      const { response, body } = await get(query, reader.bearer);
      expect(response.status, query).toBe(400);
      expect(response.headers.get('Cache-Control')).toBe('private, no-store');
      expect(body, query).toEqual({ error: { code: 'input.invalid', message } });
    }
  });

  it("only ever answers the caller's own feed, whatever the query names", async () => {
    const a = await readerWithToken(['Very Relevant'], 'Alice');
    const b = await readerWithToken(['Very Relevant'], 'Bob');
    const query = `?userId=${b.user.id}&id=${b.user.id}&user=${b.user.id}`;
    expect(titles((await get(query, a.bearer)).body)).toEqual(['Alice story 1']);
    const cookie = await readerCookie(a.token);
    expect(titles((await get(query, { Cookie: cookie })).body)).toEqual(['Alice story 1']);
  });

  it("carries a renewed session's cookie, on an error too", async () => {
    const reader = await readerWithFeed(['Very Relevant']);
    const { token } = await Users.signIn(
      { login: reader.email, password: reader.password },
      { ip: '203.0.113.9' },
      Date.now() - 4 * HOUR,
    );
    const { response } = await get('?limit=0', { Cookie: await readerCookie(token) });
    expect(response.status).toBe(400);
    expect(response.headers.get('Set-Cookie')).toMatch(/^cluefeed_user=/);
  });

  it('refuses a reader past their rate with a 429, whatever address they call from', async () => {
    const reader = await readerWithToken(['Very Relevant']);
    const { max } = RateLimit.LIMITS.readerApiPerReader;
    for (let count = 0; count < max * config().RATE_LIMIT_FACTOR; count++) {
      await RateLimit.hit(RateLimit.LIMITS.readerApiPerReader, reader.user.id);
    }
    const { response, body } = await get('', reader.bearer);
    expect(response.status).toBe(429);
    expect(response.headers.get('Retry-After')).toBe('60');
    expect(body).toMatchObject({ error: { code: 'rate_limited' } });
  });

  it('answers a POST with 401 to strangers and 405 to the reader', async () => {
    const reader = await readerWithToken(['Very Relevant']);
    const post = (headers: Record<string, string>) =>
      action({
        request: request('/api/users/me/articles', { method: 'POST', body: '{}', headers }),
        params: {},
        context: {},
      });
    expect((await post({})).status).toBe(401);
    const allowed = await post(reader.bearer);
    expect(allowed.status).toBe(405);
    expect(allowed.headers.get('Allow')).toBe('GET');
  });
});
