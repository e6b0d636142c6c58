import { describe, expect, it } from 'vitest';
import { takeSendSlots } from './send-rate';

describe('the SMTP send rate', () => {
  it('lets at most the rate through in any second, however many workers ask at once', async () => {
    const granted: number[] = [];
    const started = Date.now();
    await Promise.all(
      Array.from({ length: 12 }, async () => {
        granted.push((await takeSendSlots(1, 5)).at);
      }),
    );
    const perSecond = new Map<number, number>();
    for (const at of granted) {
      const second = Math.floor(at / 1000);
      perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
    }
    expect(granted).toHaveLength(12);
    expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(5);
    // 12 messages at 5 a second need at least three distinct seconds.
    expect(perSecond.size).toBeGreaterThanOrEqual(3);
    expect(Date.now() - started).toBeGreaterThan(1000);
  });

  it('takes as many of several slots as the second has room for, within the rate', async () => {
    const taken: { at: number; granted: number }[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        let left = 5;
        while (left > 0) {
          const slots = await takeSendSlots(left, 6);
          taken.push(slots);
          left -= slots.granted;
        }
      }),
    );
    expect(taken.reduce((sum, { granted }) => sum + granted, 0)).toBe(20);
    // Some asks got fewer than they wanted rather than waiting for room for all of them.
    expect(taken.some(({ granted }) => granted < 5)).toBe(true);
    const perSecond = new Map<number, number>();
    for (const { at, granted } of taken) {
      const second = Math.floor(at / 1000);
      perSecond.set(second, (perSecond.get(second) ?? 0) + granted);
    }
    expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(6);
    expect(perSecond.size).toBeGreaterThanOrEqual(3);
  });
});
