import { describe, expect, it } from 'vitest';
import { countWords, fitToBudget, firstWords, MIN_TEASER_WORDS, TEASER_WORDS } from './budget';

const words = (n: number, word = 'word') => Array.from({ length: n }, () => word).join(' ');
// 2 title + 1 reason + 3 source words around the teaser.
const story = (teaserWords: number, title = 'Two words') => ({
  title,
  teaser: words(teaserWords),
  reasons: ['Because'],
  sourceLabel: 'Original at example.org',
});

describe('the word budget', () => {
  it('cuts a teaser at a word, with an ellipsis and no trailing punctuation', () => {
    expect(firstWords('One, two, three, four.', 2)).toBe('One, two…');
    expect(firstWords('  One  two  ', 5)).toBe('One two');
  });

  it(`cuts every teaser to ${TEASER_WORDS} words even with room to spare`, () => {
    const { kept } = fitToBudget([story(100)], 10_000, 0);
    expect(countWords(kept[0]!.teaser)).toBe(TEASER_WORDS);
  });

  it('shortens the story that fits only in part, then keeps a later one that fits', () => {
    // 10 frame + 46 (first) = 56; the second has 44 words of room: 6 fixed + 38 of teaser.
    const { kept, leftOut, words: total } = fitToBudget([story(40), story(50), story(5)], 100, 10);
    expect(kept.map((s) => countWords(s.teaser))).toEqual([40, 38]);
    expect(kept[1]!.teaser).toMatch(/…$/);
    expect(total).toBe(100);
    expect(leftOut).toBe(1);
  });

  it(`leaves a story out rather than keep fewer than ${MIN_TEASER_WORDS} words of its teaser`, () => {
    const room = 6 + MIN_TEASER_WORDS - 1;
    const { kept, leftOut } = fitToBudget([story(40), story(5, 'A')], room, 0);
    // The first does not fit even cut; the second (5 words + 5 fixed) does.
    expect(kept.map((s) => s.title)).toEqual(['A']);
    expect(leftOut).toBe(1);
  });
});
