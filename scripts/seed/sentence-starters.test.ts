import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { SentenceStarterInput, skipsToClue } from '#core/sentence-starters';
import { sentenceStarters } from './sentence-starters';

describe('demo sentence starters', () => {
  it('are valid starters with unique keys, examples for every Add your own, and one skip-to-clue', () => {
    for (const [ordering, starter] of sentenceStarters.entries()) {
      const result = v.safeParse(SentenceStarterInput, { ...starter, ordering });
      expect(result.issues?.[0]?.message, starter.key).toBeUndefined();
    }
    expect(new Set(sentenceStarters.map((s) => s.key)).size).toBe(sentenceStarters.length);
    expect(sentenceStarters.map((s) => s.name)).toEqual(
      expect.arrayContaining(['I build', 'I invest in', 'I collect', 'I research', 'I work at']),
    );
    const own = sentenceStarters.flatMap((s) => s.pointers.filter((p) => !p.name));
    expect(own.every((pointer) => pointer.examples.length > 0)).toBe(true);
    expect(sentenceStarters.filter(skipsToClue).map((s) => s.name)).toEqual([
      'I collect',
      'I trade',
    ]);
  });
});
