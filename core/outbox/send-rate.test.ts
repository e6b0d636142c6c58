import { describe, expect, it } from 'vitest';
import { takeSendSlot } from './send-rate';

describe('the SMTP send rate', () => {
  it('lets at most the rate through in any second, however many workers ask at once', async () => {
    const granted: number[] = [];
    const started = Date.now();
    await Promise.all(
      Array.from({ length: 12 }, async () => {
        granted.push(await takeSendSlot(5));
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
});
