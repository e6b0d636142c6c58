// Keys of the feed list's entries (ADR 0066): they sort in reading order and mark deep pages.
import { describe, expect, it } from 'vitest';
import { FEED_MARK_EVERY, marksOf, orderOf, startOf } from './list-order';

const placed = (over: Partial<Parameters<typeof orderOf>[0]>) => ({
  band: 1,
  moved: false,
  adjusted: 0,
  publishedAt: '2026-11-01T00:00:00.000Z',
  articleId: '01ARTICLE',
  ...over,
});

describe('an entry’s place in the list', () => {
  it('sorts by band, grown first, higher taste, newer, then article, whatever the signs', () => {
    const expected = [
      placed({ band: 0, adjusted: -2.5 }),
      placed({ moved: true, adjusted: -3 }),
      placed({ adjusted: 2.25 }),
      placed({ adjusted: 1 / 3 }),
      placed({ adjusted: 0, publishedAt: '2026-11-02T00:00:00.000Z' }),
      placed({ adjusted: 0, articleId: '01ARTICLE' }),
      placed({ adjusted: 0, articleId: '01BRTICLE' }),
      placed({ adjusted: -0.5 }),
      placed({ adjusted: -103 }),
      placed({ band: 4, adjusted: 3 }),
    ].map(orderOf);
    expect([...expected].sort()).toEqual(expected);
  });

  it('keeps its key while what orders it stays, and changes it when its taste moves', () => {
    expect(orderOf(placed({ adjusted: 0.5 }))).toBe(orderOf(placed({ adjusted: 0.5 })));
    expect(orderOf(placed({ adjusted: 1.5 }))).not.toBe(orderOf(placed({ adjusted: 0.5 })));
  });

  it('marks every hundredth story of each band, and starts a deep page at the nearest one', () => {
    const orders = [
      ...Array.from({ length: 250 }, (_, i) => `0#${String(i).padStart(4, '0')}`),
      ...Array.from({ length: 120 }, (_, i) => `3#${String(i).padStart(4, '0')}`),
    ];
    const marks = marksOf(orders);
    expect(marks).toEqual(['0#0100', '0#0200', '3#0100']);
    expect(startOf(marks, 0, 42)).toEqual({ from: '0#', before: 42 });
    expect(startOf(marks, 0, 230)).toEqual({ from: '0#0200', before: 30 });
    expect(startOf(marks, 3, FEED_MARK_EVERY)).toEqual({ from: '3#0100', before: 0 });
    // A band with fewer marks than the offset asks (a list shorter than the record): the last one.
    expect(startOf(marks, 3, 260)).toEqual({ from: '3#0100', before: 160 });
  });
});
