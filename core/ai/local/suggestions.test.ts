// The local assessment's suggestions, checked as properties over many descriptors: each is the
// reader's own descriptor made more specific, in grammatical English, or there is none.
import { describe, expect, it } from 'vitest';
import { audiences } from '#scripts/seed/data';
import { sentenceStarters } from '#scripts/seed/sentence-starters';
import { assessClue } from './assessment';
import { words } from './phrases';

const WHO = 'I am one of those who';

/** Descriptors as readers type them: after the admin's starter, and after the funnel's own. */
const DESCRIPTORS: { prefix: string; pointer?: string; audienceName: string }[] = [
  ...audiences.map((audience) => ({ prefix: WHO, audienceName: audience.title })),
  ...sentenceStarters.flatMap((starter) =>
    starter.pointers.flatMap((pointer) =>
      pointer.examples.map((example) => ({
        prefix: starter.name,
        pointer: pointer.name,
        audienceName: example,
      })),
    ),
  ),
  ...[
    'I build DeFi protocols',
    'I build DeFi lending protocols on Ethereum',
    'like crypto',
    'crypto',
    'chain',
    'new framework',
    'build',
    'I build a wallet',
    'follow a DAO',
    'vote in a DAO',
    'use an exchange',
    'I trade NFTs',
    'I run Solana validators',
    'I research zero-knowledge proof systems',
    'I love generative art',
    'analyse DEX volume',
    'I work on rollups',
    'I am into stablecoins',
    'collect NFTs',
    'write about DeFi',
    'invest in layer 2 networks',
    'audit smart contracts.',
    'run   MEV searching strategies',
  ].map((audienceName) => ({ prefix: WHO, audienceName })),
];

const wordsOf = (text: string): string[] =>
  text.toLowerCase().match(/[\p{L}\p{N}]+(?:[-'’][\p{L}\p{N}]+)*/gu) ?? [];

/** Whether `part`'s words occur in `whole` in the same order. */
function inOrder(part: string[], whole: string[]): boolean {
  let at = 0;
  for (const word of whole) if (word === part[at]) at++;
  return at === part.length;
}

const suggest = (input: (typeof DESCRIPTORS)[number]) => assessClue(input).suggestions;

describe('local assessment suggestions', () => {
  it('keep the reader’s words in order and add specific ones', () => {
    for (const input of DESCRIPTORS) {
      const own = wordsOf(input.audienceName);
      for (const suggestion of suggest(input)) {
        const theirs = wordsOf(suggestion);
        expect(inOrder(own, theirs), `${suggestion} keeps "${input.audienceName}"`).toBe(true);
        expect(theirs.length, `${suggestion} adds words`).toBeGreaterThan(own.length);
        expect(theirs.filter((w) => !own.includes(w)).length).toBeGreaterThan(0);
      }
    }
  });

  it('read as one phrase: no dangling comma or "especially", no doubled words, a noun at the end', () => {
    for (const input of DESCRIPTORS) {
      const context = [input.prefix, input.pointer ?? ''].join(' ').trim();
      const own = words(input.audienceName);
      for (const suggestion of suggest(input)) {
        expect(suggestion).not.toMatch(/especially/i);
        expect(suggestion).not.toMatch(/,|\s{2}|^\s|\s$/);
        expect(suggestion, 'no word twice in a row').not.toMatch(/\b(\w+) \1\b/i);
        const read = words(`${context} ${suggestion}`);
        const last = read.at(-1)!;
        // It ends where the reader's own words ended, or on a noun of what it added.
        const endsAsTheirs = last.lower === own.at(-1)?.lower;
        expect(
          endsAsTheirs || ['NOUN', 'PROPN', 'NUM'].includes(last.pos),
          `${suggestion} ends on "${last.text}" (${last.pos})`,
        ).toBe(true);
      }
    }
  });

  it('keeps "a" and "an" with the word the reader put after them', () => {
    for (const input of DESCRIPTORS) {
      const own = input.audienceName.toLowerCase();
      for (const suggestion of suggest(input)) {
        for (const [article] of suggestion.toLowerCase().matchAll(/\ban? [\p{L}\p{N}-]+/gu)) {
          expect(own, `${suggestion}: "${article}" is the reader's`).toContain(article);
        }
      }
    }
  });

  it('gives at most three distinct suggestions, each unlike the descriptor', () => {
    for (const input of DESCRIPTORS) {
      const suggestions = suggest(input);
      expect(suggestions.length).toBeLessThanOrEqual(3);
      expect(new Set(suggestions).size).toBe(suggestions.length);
      expect(suggestions).not.toContain(input.audienceName);
    }
  });

  it('inserts modifiers before the head noun, a prepositional phrase after it, or an object after a verb', () => {
    expect(suggest({ prefix: WHO, audienceName: 'build DeFi protocols' })).toContain(
      'build DeFi lending protocols',
    );
    expect(suggest({ prefix: 'I build', audienceName: 'DeFi protocols' })).toContain(
      'DeFi lending protocols',
    );
    expect(suggest({ prefix: WHO, audienceName: 'audit smart contracts' })).toContain(
      'audit smart contracts for reentrancy',
    );
    expect(suggest({ prefix: WHO, audienceName: 'build' })).toContain('build developer tools');
    const made = DESCRIPTORS.filter((input) => suggest(input).length > 0).length;
    expect(made).toBeGreaterThanOrEqual(6);
  });

  it('suggests nothing rather than something ungrammatical', () => {
    // "Decentralised exchange hooks" would make "an decentralised exchange".
    expect(suggest({ prefix: WHO, audienceName: 'use an exchange' })).toEqual([]);
    // A tagger reads "vote" after "who" as a noun; "DAO votes" must not make "DAO vote in a DAO".
    expect(suggest({ prefix: WHO, audienceName: 'vote in a DAO' })).toEqual([]);
    // "Analysts query on-chain data": a plural noun is no modifier.
    expect(suggest({ prefix: WHO, audienceName: 'analyse on-chain data' })).toEqual([]);
    expect(suggest({ prefix: WHO, audienceName: 'crypto' })).toEqual([]);
  });
});
