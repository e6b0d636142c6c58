import { describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import * as RateLimit from '#core/rate-limit';

describe('rate limit', () => {
  const limit = { bucket: 'test', max: 3, windowSeconds: 60 };
  /** Five seconds into a minute: every test's requests fall in one window whatever the clock says. */
  const now = Date.UTC(2026, 10, 22, 10, 0, 5);

  it('allows the maximum and refuses the next request in the same window', async () => {
    const key = ulid();
    for (let i = 0; i < 3; i++) await RateLimit.hit(limit, key, now);
    await expect(RateLimit.hit(limit, key, now + 50_000)).rejects.toMatchObject({
      code: 'rate_limited',
      status: 429,
    });
  });

  it('starts counting again in the next window', async () => {
    const key = ulid();
    for (let i = 0; i < 3; i++) await RateLimit.hit(limit, key, now);
    await expect(RateLimit.hit(limit, key, now + 60_000)).resolves.toBeUndefined();
  });

  it('counts concurrent requests atomically', async () => {
    const key = ulid();
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => RateLimit.hit(limit, key, now)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
  });

  it('decides each attempt on the count it made, and gives a place back on release', async () => {
    const key = ulid();
    const attempts = await Promise.all(
      Array.from({ length: 5 }, () => RateLimit.attempt(limit, key, now)),
    );
    expect(attempts.map(({ count }) => count).sort()).toEqual([1, 2, 3, 4, 5]);
    expect(attempts.filter(({ allowed }) => allowed)).toHaveLength(3);
    await attempts.find(({ count }) => count === 1)!.release();
    await attempts.find(({ count }) => count === 2)!.release();
    await attempts.find(({ count }) => count === 3)!.release();
    expect(await RateLimit.attempt(limit, key, now)).toMatchObject({ count: 3, allowed: true });
    expect(await RateLimit.attempt(limit, key, now)).toMatchObject({ count: 4, allowed: false });
  });
});
