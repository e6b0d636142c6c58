import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { RateLimitWindowEntity } from '#core/rate-limit';
import { committedTogether } from './together';

// Any entity does: rate-limit windows are small items with a number to add to.
const bucket = () => `together-${ulid()}`;
const stored = async (key: { bucket: string; key: string }) =>
  (await RateLimitWindowEntity.get(key).go({ consistent: true })).data;

/** Creates a window per key in bucket `at`, each only if absent, with `shared` writes beside. */
const createEach = (
  at: string,
  keys: string[],
  shared: Parameters<
    typeof committedTogether<{ windows: typeof RateLimitWindowEntity }, string>
  >[3],
) =>
  committedTogether(
    { windows: RateLimitWindowEntity },
    keys,
    (key, { windows }) => [
      windows.create({ bucket: at, key, windowStart: 0, count: 1, expiresAt: 1 }).commit(),
    ],
    shared,
  );

describe('committedTogether', () => {
  it('commits the members whose own writes hold and counts only them in the shared write', async () => {
    const at = bucket();
    await RateLimitWindowEntity.create({
      bucket: at,
      key: 'b',
      windowStart: 0,
      count: 7,
      expiresAt: 1,
    }).go();
    const counter = { bucket: at, key: 'count' };
    const result = await createEach(at, ['a', 'b', 'c'], (members, { windows }) => [
      windows
        .update(counter)
        .add({ count: members.length })
        .set({ windowStart: 0, expiresAt: 1 })
        .commit(),
    ]);
    expect(result).toEqual({ committed: ['a', 'c'], refused: ['b'] });
    expect((await stored({ bucket: at, key: 'a' }))?.count).toBe(1);
    expect((await stored({ bucket: at, key: 'b' }))?.count).toBe(7);
    expect((await stored(counter))?.count).toBe(2);
  });

  it('refuses every member when a shared write is refused, and writes nothing', async () => {
    const at = bucket();
    const result = await createEach(at, ['a', 'b'], (_, { windows }) => [
      windows
        .check({ bucket: at, key: 'fence' })
        .where((attr, op) => op.exists(attr.count))
        .commit(),
    ]);
    expect(result).toEqual({ committed: [], refused: ['a', 'b'] });
    expect(await stored({ bucket: at, key: 'a' })).toBeNull();
  });
});
