// Honest figures: a ratio only to a baseline that held still, and a verdict when it moved only if
// the ratio to each of its passes gives the same one.
import { describe, expect, it } from 'vitest';
import { baseline, ratio, verdict } from './lib';

describe('a ratio to a baseline', () => {
  it('divides by the mean of its two passes when they are close', () => {
    const r = ratio(500, baseline('bare Express', 'req/s', 1_000, 900));
    expect(r.value).toBeCloseTo(500 / 950);
    expect(r.text).toBe('0.53');
    expect(verdict(r, { atLeast: 0.5 })).toBe('PASS');
    expect(verdict(r, { atLeast: 0.6 })).toBe('FAIL');
  });

  it('has no value when the baseline moved, only the ratio to each pass', () => {
    const r = ratio(3_000, baseline('bare Express', 'req/s', 4_000, 6_000));
    expect(r.value).toBeUndefined();
    expect(r.range).toEqual([0.5, 0.75]);
    expect(r.text).toBe('n/a (bare Express moved 33% between passes; 0.50 and 0.75 of its passes)');
  });

  it('gives a verdict despite a moving baseline only when both passes give it', () => {
    const moved = (measured: number) => ratio(measured, baseline('peer', 'req/s', 4_000, 6_000));
    expect(verdict(moved(3_600), { atLeast: 0.5 })).toBe('PASS against both passes');
    expect(verdict(moved(2_400), { atLeast: 0.5 })).toBe('NO VERDICT');
    expect(verdict(moved(1_800), { atLeast: 0.5 })).toBe('FAIL against both passes');
    expect(verdict(moved(7_000), { atMost: 2 })).toBe('PASS against both passes');
    expect(verdict(moved(10_000), { atMost: 2 })).toBe('NO VERDICT');
    expect(verdict(moved(13_000), { atMost: 2 })).toBe('FAIL against both passes');
  });

  it('has no ratio at all when a pass of the moving baseline is 0', () => {
    const r = ratio(10, baseline('peer', 'req/s', 0, 100));
    expect(r).toEqual({ text: 'n/a (peer moved 100% between passes)' });
    expect(verdict(r, { atLeast: 0.5 })).toBe('NO VERDICT');
  });
});
