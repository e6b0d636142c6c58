import { describe, expect, it } from 'vitest';
import {
  auc,
  ndcgAt,
  precisionAt,
  ranked,
  reciprocalRank,
  relevantShareAt,
  summarise,
} from './metrics';

// One group worked by hand: scores put b, a, d, c in that order; gains a 3, b 0, c 1, d 0.
const scores = { a: 0.8, b: 0.9, c: 0.1, d: 0.5 };
const gains = { a: 3, c: 1 };

describe('relevance metrics', () => {
  it('ranks by score, and ties pessimistically (lower gain first)', () => {
    expect(ranked(scores, gains)).toEqual(['b', 'a', 'd', 'c']);
    expect(ranked({ x: 0.5, y: 0.5, z: 0.5 }, { x: 2, y: 0, z: 1 })).toEqual(['y', 'z', 'x']);
  });

  it('AUC: relevant above irrelevant pairs, ties count half', () => {
    // Pairs (a,b) lose, (a,d) win, (c,b) lose, (c,d) lose: 1 of 4.
    expect(auc(scores, gains)).toBe(0.25);
    expect(auc({ a: 1, b: 0 }, { a: 1 })).toBe(1);
    expect(auc({ a: 0.5, b: 0.5 }, { a: 1 })).toBe(0.5);
    expect(auc({ a: 1, b: 0 }, {})).toBeUndefined();
    expect(auc({ a: 1, b: 0 }, { a: 1, b: 2 })).toBeUndefined();
  });

  it('MRR: one over the rank of the first relevant candidate', () => {
    expect(reciprocalRank(scores, gains)).toBe(1 / 2);
    expect(reciprocalRank({ a: 0.5, b: 0.5 }, { a: 1 })).toBe(1 / 2);
    expect(reciprocalRank({ a: 1 }, {})).toBeUndefined();
  });

  it('nDCG@k with exponential gains against the ideal order', () => {
    // Shown: gains 0, 3, 0, 1 -> DCG = 7/log2(3) + 1/log2(5). Ideal: 3, 1 -> 7 + 1/log2(3).
    const dcg = 7 / Math.log2(3) + 1 / Math.log2(5);
    const ideal = 7 + 1 / Math.log2(3);
    expect(ndcgAt(10, scores, gains)).toBeCloseTo(dcg / ideal, 12);
    // Top 2 only: 7/log2(3) against 7 + 1/log2(3).
    expect(ndcgAt(2, scores, gains)).toBeCloseTo(7 / Math.log2(3) / ideal, 12);
    expect(ndcgAt(5, { a: 0.9, c: 0.5, b: 0.1 }, gains)).toBe(1);
    expect(ndcgAt(5, { a: 1 }, {})).toBeUndefined();
  });

  it('precision@k: the relevant share of the top k, or of a smaller group', () => {
    // Top 2 of b, a, d, c: only a is relevant.
    expect(precisionAt(2, scores, gains)).toBe(1 / 2);
    expect(precisionAt(3, scores, gains)).toBe(1 / 3);
    // The group has 4 candidates, so its top 10 is all 4, and 2 of them are relevant.
    expect(precisionAt(10, scores, gains)).toBe(2 / 4);
    // Ties put the relevant candidate last, out of a top 1.
    expect(precisionAt(1, { a: 0.5, b: 0.5 }, { a: 2 })).toBe(0);
    expect(precisionAt(10, { a: 1 }, {})).toBeUndefined();
  });

  it('relevant share@k: relevant in the top k over min(k, relevant count)', () => {
    // 13 candidates r0..r12, all relevant except the top two by score: 8 of the top 10 are
    // relevant and 10 of the 11 could have been, so 0.8 (not 8 / 11).
    const many: Record<string, number> = {};
    const manyGains: Record<string, number> = {};
    for (let i = 0; i < 13; i++) {
      many[`r${i}`] = 1 - i / 100;
      if (i >= 2) manyGains[`r${i}`] = 1;
    }
    expect(relevantShareAt(10, many, manyGains)).toBe(8 / 10);
    expect(precisionAt(10, many, manyGains)).toBe(8 / 10);
    // With 2 relevant candidates both in the top 10 the share is full, precision is 2 of 4 shown.
    expect(relevantShareAt(10, scores, gains)).toBe(1);
    // Top 1 holds b (irrelevant): none of the one that could be there.
    expect(relevantShareAt(1, scores, gains)).toBe(0);
    expect(relevantShareAt(3, scores, gains)).toBe(1 / 2);
    expect(relevantShareAt(10, { a: 1 }, {})).toBeUndefined();
  });

  it('averages over the groups both files have and names the rest', () => {
    const summary = summarise(
      [
        { id: 'g1', relevant: gains },
        { id: 'g2', relevant: { x: 1 } },
        { id: 'g3', relevant: { y: 1 } },
      ],
      [
        { id: 'g1', scores },
        { id: 'g2', scores: { x: 0.9, y: 0.1 } },
        { id: 'extra', scores: { z: 1 } },
      ],
    );
    expect(summary).toMatchObject({ groups: 2, missing: ['g3', 'extra'] });
    expect(summary.auc).toBeCloseTo((0.25 + 1) / 2, 12);
    expect(summary.mrr).toBeCloseTo((0.5 + 1) / 2, 12);
    expect(summary.ndcg10).toBeCloseTo((ndcgAt(10, scores, gains)! + 1) / 2, 12);
    // g1: 2 relevant of 4 shown, both found; g2: 1 relevant of 2 shown, found.
    expect(summary.precision10).toBeCloseTo((2 / 4 + 1 / 2) / 2, 12);
    expect(summary.share10).toBeCloseTo(1, 12);
  });
});
