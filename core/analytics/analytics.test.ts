import { describe, expect, it } from 'vitest';
import { decodeTime, ulid } from 'ulid';
import * as Analytics from '#core/analytics';

const served = (path: string, now?: number) =>
  Analytics.pageViewToken(`http://localhost${path}`, now);
const view = (token: string, referrer?: string) =>
  Analytics.recordPageView({ name: 'page_view', token, referrer });
const storedAt = async (path: string) =>
  (await Analytics.forDay(new Date().toISOString().slice(0, 10))).filter((e) => e.path === path);

describe('analytics', () => {
  it('records a page view with the path and tracking values its page was served with', async () => {
    const path = `/a/${ulid()}`;
    const before = Date.now();
    const token = served(`${path}?utm=spring&raud=defi&vus=sp&other=1`);
    const { counted, event } = await view(token);
    expect(counted).toBe(true);
    const [stored] = await storedAt(path);
    expect(stored).toMatchObject({ name: 'page_view', utm: 'spring', raud: 'defi', vus: 'sp' });
    // Stamped when the page was served; its id is the token's, and it expires with the retention.
    expect(Date.parse(stored!.at)).toBe(decodeTime(event.id));
    expect(Date.parse(stored!.at)).toBeGreaterThanOrEqual(before);
    expect(stored!.expiresAt).toBe(
      Math.floor(Date.parse(stored!.at) / 1000) + Analytics.PAGE_VIEW_RETENTION_DAYS * 86_400,
    );
  });

  it('counts a served page once, however many beacons race with its token', async () => {
    const path = `/a/${ulid()}`;
    const token = served(path);
    const results = await Promise.all(Array.from({ length: 20 }, () => view(token)));
    expect(results.filter((result) => result.counted)).toHaveLength(1);
    expect(await storedAt(path)).toHaveLength(1);
  });

  it('refuses a view without a token, with a forged, altered or expired one, and stores none', async () => {
    const path = `/a/${ulid()}`;
    const token = served(path);
    const [body, signature] = token.split('.') as [string, string];
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString()) as { sub: string };
    const altered = Buffer.from(
      JSON.stringify({ ...payload, sub: payload.sub.replace(path, `${path}x`) }),
    ).toString('base64url');
    const { invalid, expired } = Analytics.PAGE_VIEW_TOKEN_MESSAGES;
    for (const [input, message] of [
      [{ name: 'page_view', path }, invalid],
      [{ name: 'page_view', token: 'forged.token' }, invalid],
      [{ name: 'page_view', token: `${altered}.${signature}` }, invalid],
      [{ name: 'page_view', token: served(path, Date.now() - 5 * 60_000) }, expired],
      [{ name: 'purchase', token }, 'Unknown event'],
    ] as const)
      await expect(
        Analytics.recordPageView(input as Parameters<typeof Analytics.recordPageView>[0]),
      ).rejects.toMatchObject({ status: 400, message });
    expect(await storedAt(path)).toEqual([]);
    expect(await storedAt(`${path}x`)).toEqual([]);
  });

  it('stores a referrer without the tokens in its query', async () => {
    const path = `/a/${ulid()}`;
    await view(
      served(path),
      'https://cluefeed.example/subscription?subscriberHash=secret-token&token=abc&raud=defi',
    );
    const [stored] = await storedAt(path);
    expect(stored?.referrer).toBe('https://cluefeed.example/subscription?raud=defi');
  });

  it("spreads a day's events over its shards and reads them back in time order", async () => {
    const marker = ulid();
    const recorded = [];
    for (let i = 0; i < 16; i++) recorded.push((await view(served(`/a/${marker}/${i}`))).event);
    const day = recorded[0]!.day;
    expect(new Set(recorded.map((event) => event.shard)).size).toBeGreaterThan(1);
    const mine = (await Analytics.forDay(day)).filter((e) => e.path.startsWith(`/a/${marker}/`));
    expect(mine.map((event) => event.id)).toEqual(recorded.map((event) => event.id));
    for (const event of recorded) {
      const { data } = await Analytics.AnalyticsEventEntity.query
        .byDay({ day, shard: event.shard })
        .go({ pages: 'all' });
      expect(data.map((stored) => stored.id)).toContain(event.id);
    }
  });
});
