import { describe, expect, it } from 'vitest';
import { adjustment, MAX_ADJUSTMENT, readingOrder, tasteOf } from './taste';

const story = (
  articleId: string,
  label: 'Very Relevant' | 'Quite Relevant' | 'Not Relevant',
  source: string,
  publishedAt: string,
  topics: string[] = [],
) => ({ articleId, label, source, publishedAt, topics });

describe("the feed's reading order", () => {
  it('reads the best label first and the newest first within a label, without feedback', () => {
    const order = readingOrder(
      [
        story('a', 'Quite Relevant', 'Chain Daily', '2026-11-20T00:00:00Z'),
        story('b', 'Very Relevant', 'Chain Daily', '2026-11-19T00:00:00Z'),
        story('c', 'Very Relevant', 'Block Post', '2026-11-21T00:00:00Z'),
        story('d', 'Not Relevant', 'Block Post', '2026-11-22T00:00:00Z'),
      ],
      tasteOf([]),
    );
    expect(order.map((s) => [s.articleId, s.band, s.position])).toEqual([
      ['c', 0, 0],
      ['b', 0, 1],
      ['a', 1, 0],
      ['d', 4, 0],
    ]);
  });

  it('moves a disliked source below the rest of its label, and a liked one above, never across labels', () => {
    const taste = tasteOf([
      { kind: 'dislike', source: 'Block Post', topics: [] },
      { kind: 'like', source: 'chain daily ', topics: [] },
    ]);
    const order = readingOrder(
      [
        story('newest-disliked', 'Very Relevant', 'Block Post', '2026-11-23T00:00:00Z'),
        story('middle', 'Very Relevant', 'Wire', '2026-11-22T00:00:00Z'),
        story('oldest-liked', 'Very Relevant', 'Chain Daily', '2026-11-01T00:00:00Z'),
        story('quite-liked', 'Quite Relevant', 'Chain Daily', '2026-11-24T00:00:00Z'),
      ],
      taste,
    );
    expect(order.map((s) => s.articleId)).toEqual([
      'oldest-liked',
      'middle',
      'newest-disliked',
      'quite-liked',
    ]);
  });

  it("weighs a story's topics by their mean, at half a source, and bounds the adjustment", () => {
    const taste = tasteOf([
      { kind: 'dislike', source: 'A', topics: ['restak', 'yield'] },
      { kind: 'dislike', source: 'B', topics: ['restak'] },
    ]);
    expect(adjustment({ source: 'C', topics: ['restak'] }, taste)).toBe(-1);
    expect(adjustment({ source: 'C', topics: ['yield', 'restak', 'restak'] }, taste)).toBe(-0.75);
    expect(adjustment({ source: 'A', topics: ['restak', 'other'] }, taste)).toBe(-1.5);
    const many = tasteOf(
      Array.from({ length: 10 }, () => ({ kind: 'like' as const, source: 'A', topics: [] })),
    );
    expect(adjustment({ source: 'A', topics: [] }, many)).toBe(MAX_ADJUSTMENT);
  });
});
