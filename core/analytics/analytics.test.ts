import { describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import * as Analytics from '#core/analytics';

describe('analytics', () => {
  it("records a page view with its tracking values in the day's events", async () => {
    const path = `/a/${ulid()}`;
    const event = await Analytics.recordPageView({
      name: 'page_view',
      path,
      utm: 'spring',
      raud: 'defi',
      vus: 'sp',
    });
    const events = await Analytics.forDay(event.day);
    expect(events.find((e) => e.path === path)).toMatchObject({
      utm: 'spring',
      raud: 'defi',
      vus: 'sp',
    });
  });

  it('refuses an unknown event name or a path that is not a path', async () => {
    await expect(
      Analytics.recordPageView({ name: 'hack' as 'page_view', path: '/' }),
    ).rejects.toMatchObject({ status: 400 });
    await expect(
      Analytics.recordPageView({ name: 'page_view', path: 'https://evil' }),
    ).rejects.toMatchObject({ status: 400 });
  });

  it('stores a referrer without the tokens in its query', async () => {
    const path = `/a/${ulid()}`;
    await Analytics.recordPageView({
      name: 'page_view',
      path,
      referrer:
        'https://cluefeed.example/subscription?subscriberHash=secret-token&token=abc&raud=defi',
    });
    const stored = (await Analytics.forDay(new Date().toISOString().slice(0, 10))).find(
      (e) => e.path === path,
    );
    expect(stored?.referrer).toBe('https://cluefeed.example/subscription?raud=defi');
  });

  it("spreads a day's events over its shards and reads them back in time order", async () => {
    const marker = ulid();
    const recorded = [];
    for (let i = 0; i < 16; i++)
      recorded.push(
        await Analytics.recordPageView({ name: 'page_view', path: `/a/${marker}/${i}` }),
      );
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
