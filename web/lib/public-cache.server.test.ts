import { describe, expect, it } from 'vitest';
import { cachedRead } from './public-cache.server';

describe('cachedRead', () => {
  it('shares one read between calls within 30 seconds, then reads again', async () => {
    let reads = 0;
    const load = async () => ++reads;
    const start = 1_000_000;
    expect(
      await Promise.all([cachedRead('k1', load, start), cachedRead('k1', load, start + 10)]),
    ).toEqual([1, 1]);
    expect(await cachedRead('k1', load, start + 29_999)).toBe(1);
    expect(await cachedRead('k1', load, start + 30_001)).toBe(2);
  });

  it('does not keep a failed read', async () => {
    let calls = 0;
    const failing = async () => {
      calls++;
      throw new Error('down');
    };
    await expect(cachedRead('k2', failing, 5)).rejects.toThrow('down');
    await expect(cachedRead('k2', failing, 6)).rejects.toThrow('down');
    expect(calls).toBe(2);
  });
});
