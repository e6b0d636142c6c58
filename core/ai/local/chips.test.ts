// The feedback banner's clue chips read as a reader's request: "More on ...", a common noun in
// the plural, a name as written, never the "I follow ..." fragment of a headline.
import { describe, expect, it } from 'vitest';
import { asRequested, storyChips } from './chips';

const EIGENLAYER = {
  title: 'EigenLayer slashing goes live for the first twelve AVSs',
  summary: 'Operators must now opt in to operator sets with explicit slashing conditions.',
};

describe('story chips', () => {
  it.each([
    ['zero-knowledge co-processor', 'zero-knowledge co-processors'],
    ['Lumen Labs', 'Lumen Labs'],
    ['AVSs', 'AVSs'],
    ['operator sets', 'operator sets'],
    ['restaking', 'restaking'],
    ['data availability', 'data availability'],
    ['Uniswap v4', 'Uniswap v4'],
    ['smart-contract security', 'smart-contract security'],
    ['fault proof', 'fault proofs'],
    ['stablecoin policy', 'stablecoin policy'],
  ])('asks for "%s" as "%s"', (topic, requested) => {
    expect(asRequested(topic)).toBe(requested);
  });

  it('words a liked story’s topics as "More on ..."', () => {
    const chips = storyChips(EIGENLAYER, []);
    expect(chips).toEqual(['More on EigenLayer', 'More on AVSs']);
    for (const chip of chips) expect(chip).not.toMatch(/^I follow/);
  });

  it('offers none of the topics the reader already follows', () => {
    expect(storyChips(EIGENLAYER, ['More on EigenLayer'])).toEqual([
      'More on AVSs',
      'More on operator sets',
    ]);
  });
});
