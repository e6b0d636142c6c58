// The local assessment's suggestions, checked as properties over many descriptors: each is the
// reader's own descriptor made more specific, in grammatical English, or there is none.
import { beforeAll, describe, expect, it } from 'vitest';
import { audiences } from '#scripts/seed/data';
import { sentenceStarters } from '#scripts/seed/sentence-starters';
import { assessClue } from './assessment';
import { words } from './phrases';
import { BACKGROUND } from './background';
import { moreSpecific } from './suggestions';

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

/** How a concrete example joins the reader's words and its focus (not the reader's article). */
const FOCUS = / with a focus on /;

const wordsOf = (text: string): string[] =>
  text.toLowerCase().match(/[\p{L}\p{N}]+(?:[-'’][\p{L}\p{N}]+)*/gu) ?? [];

/** Whether `part`'s words occur in `whole` in the same order. */
function inOrder(part: string[], whole: string[]): boolean {
  let at = 0;
  for (const word of whole) if (word === part[at]) at++;
  return at === part.length;
}

type Input = (typeof DESCRIPTORS)[number];
let answers: Map<Input, string[]>;
/** Assessments are async (word vectors load once); each descriptor is assessed once. */
const suggest = (input: Input) => answers.get(input) ?? [];
beforeAll(async () => {
  answers = new Map();
  for (const input of DESCRIPTORS) answers.set(input, (await assessClue(input)).suggestions);
});
const extend = async (input: Input) => (await assessClue(input)).suggestions;

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
      for (const suggestion of suggest(input).map((s) => s.replace(FOCUS, ' '))) {
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

  it('inserts modifiers before the head noun, a prepositional phrase after it, or an object after a verb', async () => {
    expect(await extend({ prefix: WHO, audienceName: 'build DeFi protocols' })).toContain(
      'build DeFi lending protocols',
    );
    expect(await extend({ prefix: 'I build', audienceName: 'DeFi protocols' })).toContain(
      'DeFi lending protocols',
    );
    expect(await extend({ prefix: WHO, audienceName: 'audit smart contracts' })).toContain(
      'audit smart contracts for reentrancy',
    );
    // A lone verb is too broad to rate above 'not insightful'; the grammar still extends it.
    const all = [...Array(BACKGROUND.length).keys()];
    expect(moreSpecific('build', WHO, all)).toContain('build developer tools');
    const made = DESCRIPTORS.filter((input) => suggest(input).length > 0).length;
    expect(made).toBeGreaterThanOrEqual(6);
  });

  it('extends nothing rather than ungrammatically (a focus is offered instead)', async () => {
    const all = [...Array(BACKGROUND.length).keys()];
    // "Decentralised exchange hooks" would make "an decentralised exchange".
    expect(moreSpecific('use an exchange', WHO, all)).toEqual([]);
    // A tagger reads "vote" after "who" as a noun; "DAO votes" must not make "DAO vote in a DAO".
    expect(moreSpecific('vote in a DAO', WHO, all)).toEqual([]);
    // "Analysts query on-chain data": a plural noun is no modifier.
    expect(moreSpecific('analyse on-chain data', WHO, all)).toEqual([]);
    expect(await extend({ prefix: WHO, audienceName: 'crypto' })).toEqual([]);
  });
});
