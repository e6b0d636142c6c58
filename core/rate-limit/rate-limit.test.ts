import { describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import * as RateLimit from '#core/rate-limit';

describe('rate limit', () => {
  const limit = { bucket: 'test', max: 3, windowSeconds: 60 };

  it('allows the maximum and refuses the next request in the same window', async () => {
    const key = ulid();
    const now = Date.UTC(2026, 10, 22, 10, 0, 5);
    for (let i = 0; i < 3; i++) await RateLimit.hit(limit, key, now);
    await expect(RateLimit.hit(limit, key, now)).rejects.toMatchObject({
      code: 'rate_limited',
      status: 429,
    });
  });

  it('starts counting again in the next window', async () => {
    const key = ulid();
    const now = Date.UTC(2026, 10, 22, 10, 0, 5);
    for (let i = 0; i < 3; i++) await RateLimit.hit(limit, key, now);
    await expect(RateLimit.hit(limit, key, now + 60_000)).resolves.toBeUndefined();
  });

  it('counts concurrent requests atomically', async () => {
    const key = ulid();
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => RateLimit.hit(limit, key)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
  });
});
