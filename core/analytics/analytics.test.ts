import { describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import * as Analytics from '#core/analytics';

describe('analytics', () => {
  it("records a page view with its tracking values in the day's events", async () => {
    const path = `/a/${ulid()}`;
    const event = await Analytics.record({
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
      Analytics.record({ name: 'hack' as 'page_view', path: '/' }),
    ).rejects.toMatchObject({ status: 400 });
    await expect(
      Analytics.record({ name: 'page_view', path: 'https://evil' }),
    ).rejects.toMatchObject({ status: 400 });
  });
});
