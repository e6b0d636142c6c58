import { decodeTime } from 'ulid';
import { describe, expect, it } from 'vitest';
import { monotonicUlid, ulid } from '.';

const CROCKFORD = /^[0-9A-HJKMNP-TV-Z]{26}$/;

describe('ids', () => {
  it('makes distinct ULIDs of the time they were made, past a refill of the pool', () => {
    const before = Date.now();
    const ids = Array.from({ length: 1000 }, () => ulid());
    expect(new Set(ids).size).toBe(1000);
    for (const id of ids) {
      expect(id).toMatch(CROCKFORD);
      expect(decodeTime(id)).toBeGreaterThanOrEqual(before);
      expect(decodeTime(id)).toBeLessThanOrEqual(Date.now());
    }
  });

  it('uses every one of the 32 characters in the random part', () => {
    const seen = new Set(
      Array.from({ length: 500 }, () => ulid().slice(10))
        .join('')
        .split(''),
    );
    expect(seen.size).toBe(32);
  });

  it('sorts the ids of one millisecond in the order they were made', () => {
    const next = monotonicUlid();
    const ids = Array.from({ length: 100 }, () => next(1_700_000_000_000));
    expect([...ids].sort()).toEqual(ids);
  });
});
