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

describe('cachedRead and a thrown Response', () => {
  it('gives every request waiting on the same read its own readable copy', async () => {
    let reads = 0;
    const missing = async () => {
      reads++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      throw new Response('Not found', { status: 404 });
    };
    const waiting = Array.from({ length: 5 }, () =>
      cachedRead('k3', missing, 7).then(
        () => 'loaded',
        (thrown: Response) => thrown.text().then((body) => `${thrown.status} ${body}`),
      ),
    );

    expect(await Promise.all(waiting)).toEqual(Array(5).fill('404 Not found'));
    expect(reads).toBe(1);
  });
});
