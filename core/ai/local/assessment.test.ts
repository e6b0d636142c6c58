// The local clue assessment on clues readers really type: gibberish and vague clues rate low,
// specific ones high, and a clue rated low or ok always comes with concrete examples (the funnel
// shows them after 'For example:').
import { describe, expect, it } from 'vitest';
import { sentenceStarters } from '#scripts/seed/sentence-starters';
import { assessClue } from './assessment';

const WHO = 'I am one of those who';
const LOW = ['not insightful', 'slightly insightful'];
const HIGH = ['very insightful', 'super insightful'];
const assess = (audienceName: string, prefix = WHO, pointer?: string) =>
  assessClue({ prefix, pointer, audienceName });

describe('local clue assessment', () => {
  it.each([
    'asdf qwer',
    'zxcv bnm',
    'blorp flimzy',
    'jkjkjk lol',
    'qwertyuiop asdfghjkl',
    'asdf DeFi',
    'sdfsdf',
  ])('rates gibberish "%s" not insightful, with no examples', async (clue) => {
    const answer = await assess(clue);
    expect(answer.score).toBe('not insightful');
    expect(answer.suggestions).toEqual([]);
  });

  it.each([
    'things on the internet',
    'stuff',
    'cool things',
    'the internet and technology',
    'interesting stuff about technology',
    'like crypto',
    'web3',
    'news about crypto and web3',
    'crypto and blockchain news',
    'read the news',
  ])('rates the vague clue "%s" low', async (clue) => {
    expect(LOW).toContain((await assess(clue)).score);
  });

  it.each([
    ['I build DeFi lending on Ethereum, with a focus on smart-contract security', 'I am'],
    ['research smart contract security: audits, exploits and formal verification', WHO],
    ['audit Solana programs', WHO],
    ['collect generative art on Art Blocks', WHO],
    ['run MEV searching strategies with bundles and backruns', WHO],
    ['zero-knowledge proof systems and folding schemes', 'I research'],
  ])('rates the specific clue "%s" high', async (clue, prefix) => {
    expect(HIGH).toContain((await assess(clue, prefix)).score);
  });

  it('says which words it does not know', async () => {
    expect((await assess('asdf qwer')).reasoning).toBe(
      'We do not know the words "asdf", "qwer", so the description cannot steer which stories you get.',
    );
  });

  it('names only specific words as topics', async () => {
    const { reasoning } = await assess(
      'I build DeFi lending on Ethereum, with a focus on security',
    );
    expect(reasoning).toMatch(/\(defi, lending, ethereum, security\)/);
  });

  /** Every clue a reader may type here: the seeded pointers' examples, and invented ones. */
  const CLUES: [string, string, string?][] = [
    ...sentenceStarters.flatMap((starter) =>
      starter.pointers.flatMap((pointer) =>
        pointer.examples.map((example): [string, string, string?] => [
          example,
          starter.name,
          pointer.name,
        ]),
      ),
    ),
    ...[
      'lending on Ethereum',
      'vote in a DAO',
      'analyse on-chain data',
      'news about crypto and web3',
      'crypto and blockchain news',
      'Firedancer client performance',
      'write poetry about volcanoes',
      'use an exchange',
      'things on the internet',
      'build DeFi protocols',
    ].map((clue): [string, string] => [clue, WHO]),
  ];

  it.each(CLUES)(
    'gives "%s" examples whenever it asks for a more specific clue',
    async (clue, prefix, pointer) => {
      const answer = await assess(clue, prefix, pointer);
      if (answer.score === 'slightly insightful' || answer.score === 'moderately insightful') {
        expect(answer.suggestions.length).toBeGreaterThan(0);
      }
      for (const example of answer.suggestions) {
        // A concrete clue: the reader's own words first, then a more specific one.
        expect(example.toLowerCase()).toContain(clue.toLowerCase().split(' ').at(-1));
        expect(example.length).toBeGreaterThan(clue.length);
        expect(example.trim()).toBe(example);
      }
    },
  );

  it('offers a focus from the closest web3 lines when no word can be made more specific', async () => {
    const { score, suggestions } = await assess('lending on Ethereum');
    expect(score).toBe('moderately insightful');
    expect(suggestions).toEqual([
      'lending on Ethereum with a focus on blob data',
      'lending on Ethereum with a focus on risk parameters',
      'lending on Ethereum with a focus on collateral factors',
    ]);
  });
});

describe('words that are not of the web3 field', () => {
  it.each(['Asdf Qwer', 'Xyzzy Plugh', 'ASDF QWER ZXCV', 'Blorp Flimzy Quux', '12345 67890'])(
    'rates capitalised gibberish "%s" not insightful: a capital makes no name nobody uses',
    async (audienceName) => {
      const answer = await assessClue({ prefix: 'I am one of those who', audienceName });
      expect(answer.score).toBe('not insightful');
    },
  );

  it('rates rare English off the field below a clue of the field', async () => {
    const offField = await assessClue({
      prefix: 'I am one of those who',
      audienceName: 'quixotic zephyr obsidian labyrinth',
    });
    expect(['not insightful', 'slightly insightful', 'moderately insightful']).toContain(
      offField.score,
    );
    const field = await assessClue({
      prefix: 'I am one of those who',
      audienceName: 'build zk circuits in Circom',
    });
    expect(['very insightful', 'super insightful']).toContain(field.score);
    // A name nobody knows yet counts beside words of the field.
    const named = await assessClue({
      prefix: 'I trade',
      audienceName: 'perpetual futures on Arbitrum and Hyperliquid',
    });
    expect(named.score).toBe('super insightful');
  });
});
