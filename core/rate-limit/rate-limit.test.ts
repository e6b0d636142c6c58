import { createWriteTransaction } from 'electrodb';
import { describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import { committedOnce } from '#core/db';
import * as RateLimit from '#core/rate-limit';
import { RateLimitWindowEntity } from './entity';

describe('rate limit', () => {
  const limit = { bucket: 'test', max: 3, windowSeconds: 60 };
  /** Five seconds into a minute. */
  const now = Date.UTC(2026, 10, 22, 10, 0, 5);
  const boundary = Date.UTC(2026, 10, 22, 10, 1, 0);
  /** What the window starting at `windowStart` counted, as stored. */
  const stored = async (key: string, windowStart: number) => {
    const { data } = await RateLimitWindowEntity.get({ bucket: 'test', key }).go({
      consistent: true,
    });
    return data?.windowStart === windowStart ? data.count : undefined;
  };

  it('allows the maximum and refuses the next request in the same window', async () => {
    const key = ulid();
    for (let i = 0; i < 3; i++) await RateLimit.hit(limit, key, now);
    await expect(RateLimit.hit(limit, key, now + 50_000)).rejects.toMatchObject({
      code: 'rate_limited',
      status: 429,
    });
    // The refusal was not counted.
    expect(await stored(key, now - 5_000)).toBe(3);
  });

  it('refuses a burst that straddles the boundary of two windows', async () => {
    const key = ulid();
    const allowed: boolean[] = [];
    // Ten requests in three seconds, half of them before the minute turns.
    for (let i = 0; i < 10; i++) {
      const at = boundary - 1_500 + i * 300;
      allowed.push((await RateLimit.attempt(limit, key, at)).allowed);
    }
    expect(allowed).toEqual([true, true, true, false, false, false, false, false, false, false]);
  });

  it('never lets requests straddling a boundary at the same moment past the maximum', async () => {
    const limit = { bucket: 'straddle', max: 3, windowSeconds: 60, unscaled: true as const };
    const boundary = Date.UTC(2026, 10, 22, 10, 1, 0);
    for (let round = 0; round < 5; round++) {
      const key = ulid();
      const attempts = await Promise.all([
        ...Array.from({ length: 5 }, () => RateLimit.attempt(limit, key, boundary - 10)),
        ...Array.from({ length: 5 }, () => RateLimit.attempt(limit, key, boundary + 10)),
      ]);
      expect(attempts.filter((attempt) => attempt.allowed).length).toBeLessThanOrEqual(3);
    }
  });

  it("frees the previous window's places as the sliding window leaves it", async () => {
    const key = ulid();
    for (let i = 0; i < 3; i++) await RateLimit.hit(limit, key, boundary - 1_000);
    // A third of the way into the next window, a third of the previous count has slid out.
    await expect(RateLimit.hit(limit, key, boundary + 19_000)).rejects.toMatchObject({
      status: 429,
    });
    await expect(RateLimit.hit(limit, key, boundary + 20_000)).resolves.toBeUndefined();
    await expect(RateLimit.hit(limit, key, boundary + 20_000)).rejects.toMatchObject({
      status: 429,
    });
    await expect(RateLimit.hit(limit, key, boundary + 40_000)).resolves.toBeUndefined();
    // One window further on, the old window is out of sight: the full maximum again.
    for (let i = 0; i < 3; i++) await RateLimit.hit(limit, key, boundary + 120_000);
  });

  it('counts concurrent requests atomically, and never past the maximum', async () => {
    for (let round = 0; round < 5; round++) {
      const key = ulid();
      for (let i = 0; i < 3; i++) await RateLimit.hit(limit, key, boundary - 30_000);
      // Half way into the next window, half of the previous window's three still counts.
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, () => RateLimit.hit(limit, key, boundary + 30_000)),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(await stored(key, boundary)).toBe(1);
    }
  });

  it('lets every one of a burst through when the limit has room for all (no request loses a race)', async () => {
    const roomy = { bucket: 'burst', max: 40, windowSeconds: 60, unscaled: true as const };
    for (let round = 0; round < 3; round++) {
      const key = ulid();
      const attempts = await Promise.all(
        Array.from({ length: 20 }, () => RateLimit.attempt(roomy, key, now)),
      );
      expect(attempts.filter(({ allowed }) => allowed)).toHaveLength(20);
      const { data } = await RateLimitWindowEntity.get({ bucket: 'burst', key }).go({
        consistent: true,
      });
      expect(data?.count).toBe(20);
    }
  });

  it('counts a clock just behind a window that has begun in that window, and is not held back by one far off', async () => {
    const key = ulid();
    expect((await RateLimit.attempt(limit, key, boundary + 1_000)).allowed).toBe(true);
    // A window earlier: this request's clock is behind the one that began the new window. It
    // counts in the new window, so the maximum there is reached one request sooner.
    expect((await RateLimit.attempt(limit, key, boundary - 1_000)).allowed).toBe(true);
    expect(await stored(key, boundary)).toBe(2);
    expect((await RateLimit.attempt(limit, key, boundary + 1_500)).allowed).toBe(true);
    expect((await RateLimit.attempt(limit, key, boundary - 500)).allowed).toBe(false);
    expect(await stored(key, boundary)).toBe(3);
    // Six minutes ahead (a worker's clock far off): it counts, and the others go on counting.
    expect((await RateLimit.attempt(limit, key, boundary + 361_000)).allowed).toBe(true);
    expect((await RateLimit.attempt(limit, key, boundary + 2_000)).allowed).toBe(true);
  });

  it('lets a burst whose clocks straddle the minute through when the limit has room for all', async () => {
    const roomy = { bucket: 'burst', max: 40, windowSeconds: 60, unscaled: true as const };
    for (let round = 0; round < 10; round++) {
      const key = ulid();
      // As a burst crossing the minute arrives: some requests read the clock before it turned.
      const attempts = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          RateLimit.attempt(roomy, key, boundary + (i % 2 === 0 ? -5 : 5)),
        ),
      );
      expect(attempts.filter(({ allowed }) => allowed)).toHaveLength(20);
    }
  });

  it('does not let a clock about a window ahead open the next window for the others', async () => {
    const key = ulid();
    for (let i = 0; i < 3; i++) await RateLimit.hit(limit, key, boundary - 1_000);
    // A server whose clock is 61 s fast skips the next window and begins the one after it.
    expect((await RateLimit.attempt(limit, key, boundary + 61_500)).allowed).toBe(true);
    // Clocks that are right are a minute behind that window, not a moment's lag: refused, though
    // the fast clock's window dropped the last window's three.
    for (let i = 0; i < 3; i++)
      expect((await RateLimit.attempt(limit, key, boundary + 1_000)).allowed).toBe(false);
  });

  it('never lets a burst of mixed clocks and places past the maximum, and loses no count', async () => {
    // The same requests every run (a seeded sequence); how they interleave is up to the table.
    let seed = 7;
    const random = () => ((seed = (seed * 48_271) % 2_147_483_647) - 1) / 2_147_483_646;
    for (const max of [3, 7, 20]) {
      const mixed = { bucket: 'mixed', max, windowSeconds: 60, unscaled: true as const };
      for (let round = 0; round < 5; round++) {
        const key = ulid();
        let granted = 0;
        for (let i = Math.floor(random() * max); i > 0; i--)
          granted += (await RateLimit.attempt(mixed, key, boundary - 20_000)).granted;
        const attempts = await Promise.all(
          Array.from({ length: 30 }, () =>
            RateLimit.attempt(mixed, key, boundary - 50 + Math.floor(random() * 100), undefined, {
              places: 1 + Math.floor(random() * 3),
              upTo: random() < 0.5,
            }),
          ),
        );
        for (const attempt of attempts) granted += attempt.allowed ? attempt.granted : 0;
        // Within 50 ms of the minute the sliding window holds both windows' counts whole.
        expect(granted).toBeLessThanOrEqual(max);
        const { data } = await RateLimitWindowEntity.get({ bucket: 'mixed', key }).go({
          consistent: true,
        });
        const kept =
          (data?.count ?? 0) + (data?.windowStart === boundary ? (data.previousCount ?? 0) : 0);
        expect(kept).toBe(granted);
      }
    }
  });

  describe('the first request of the next window, counted in a transaction from an earlier read', () => {
    const read = async (key: string) =>
      (await RateLimitWindowEntity.get({ bucket: 'test', key }).go({ consistent: true })).data ??
      undefined;
    const commit = (counted: ReturnType<typeof RateLimit.countIn>) =>
      committedOnce(
        createWriteTransaction({ rate: RateLimitWindowEntity }, ({ rate }) => [counted(rate)]),
      );

    it('moves over the count the last window ended with, though a request landed in it after the read', async () => {
      const key = ulid();
      await RateLimit.hit(limit, key, boundary - 3_000);
      const before = await read(key);
      await RateLimit.hit(limit, key, boundary - 2_000);
      expect(await commit(RateLimit.countIn(limit, key, before, boundary + 1_000))).toBe(true);
      expect(await read(key)).toMatchObject({ windowStart: boundary, count: 1, previousCount: 2 });
    });

    it('is not written when the last window, by the time it lands, leaves it no room', async () => {
      const key = ulid();
      await RateLimit.hit(limit, key, boundary - 3_000);
      const before = await read(key);
      await RateLimit.hit(limit, key, boundary - 2_000);
      await RateLimit.hit(limit, key, boundary - 1_000);
      expect(await commit(RateLimit.countIn(limit, key, before, boundary + 1_000))).toBe(false);
      expect(await read(key)).toMatchObject({ windowStart: boundary - 60_000, count: 3 });
    });
  });

  it('gives a place back on release, in the window it was counted in', async () => {
    const key = ulid();
    const attempts = await Promise.all(
      Array.from({ length: 5 }, () => RateLimit.attempt(limit, key, now)),
    );
    expect(attempts.filter(({ allowed }) => allowed)).toHaveLength(3);
    await Promise.all(attempts.map((attempt) => attempt.release()));
    expect(await stored(key, now - 5_000)).toBe(0);
    for (let i = 0; i < 3; i++)
      expect((await RateLimit.attempt(limit, key, now)).allowed).toBe(true);
    expect((await RateLimit.attempt(limit, key, now)).allowed).toBe(false);
  });
});
