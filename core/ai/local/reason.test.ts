// The local relevance reason, checked as properties over the seed's stories and clues: a story
// rated from 'Slightly Relevant' up names the clue it matched, in one sentence a reader would write.
import { describe, expect, it } from 'vitest';
import { audiences, posts } from '#scripts/seed/data';
import { buildCorpus } from './corpus';
import { inSecondPerson } from './phrases';
import { rateArticle as rateWith } from './relevance';
import { wordVectors } from './vectors';

const STORIES = [
  ...posts.map((post) => ({ title: post.title, summary: post.teaser })),
  { title: 'Security researchers disclose a reentrancy bug in a lending market', summary: '' },
  { title: 'NFT marketplace changes creator royalties policy', summary: '' },
];

// The statistics of the seed's stories, as a snapshot of the product's articles would hold them.
const vectors = await wordVectors();
const ranker = { corpus: buildCorpus(STORIES, vectors), vectors };
const rateArticle = (story: { title: string; summary: string }, clues: string[]) =>
  rateWith(story, clues, ranker);

/** An audience is scored by its title, the words that complete "I am one of those who". */
const AUDIENCE_CLUES = audiences.map((audience) => [audience.title]);
const READER_CLUES = [
  ['I build DeFi protocols', 'I collect generative art'],
  ['I audit smart contracts', "I'm into restaking"],
  ['I am one of those who run MEV searching strategies'],
];

const ratings = [...AUDIENCE_CLUES, ...READER_CLUES].flatMap((clues) =>
  STORIES.map((story) => ({ story, clues, answer: rateArticle(story, clues) })),
);

describe('local relevance reasons', () => {
  it('name at least one matched clue for every story rated from Slightly Relevant up', () => {
    const relevant = ratings.filter(({ answer }) => answer.label !== 'Not Relevant');
    expect(
      relevant.filter(({ answer }) => answer.label === 'Slightly Relevant').length,
    ).toBeGreaterThan(10);
    for (const { clues, answer } of relevant) {
      expect(answer.relevantClues.length, answer.reason).toBeGreaterThan(0);
      for (const clue of answer.relevantClues) expect(clues).toContain(clue);
    }
    for (const { answer } of ratings.filter(({ answer }) => answer.label === 'Not Relevant')) {
      expect(answer.relevantClues).toEqual([]);
    }
  });

  it('say in one sentence what matched and which clue it serves, never a clue pasted whole', () => {
    for (const { answer, clues } of ratings) {
      const { reason, label } = answer;
      expect(reason, 'one sentence').toMatch(/^[^.!?]+\.$/);
      expect(reason).not.toMatch(/["“”]|\bNone\b|\bthrough\b|clue\(s\)|in passing/);
      for (const clue of clues.filter((clue) => clue.split(' ').length > 3))
        expect(reason, reason).not.toContain(clue);
      if (label === 'Not Relevant') {
        expect(reason).toMatch(/^Outside your clues: /);
      } else if (label === 'Slightly Relevant') {
        expect(reason).toMatch(/^(A loose match: it touches on .+, near|Outside your clues)/);
      } else {
        expect(reason).toMatch(/^(It covers .+, for|It matches) your clue on .+\.$/);
      }
    }
  });

  it('names a phrase of the clue the story serves, not the first clue', () => {
    const clues = [
      'I build DeFi lending on Ethereum, with a focus on smart-contract security',
      'I research smart contract security: audits, exploits and formal verification',
    ];
    expect(
      rateArticle({ title: 'Formal verification for the rest of us', summary: '' }, clues).reason,
    ).toMatch(/^It covers .*formal verification.*, for your clue on formal verification\.$/);
    expect(
      rateArticle(
        {
          title: 'Isolated lending markets and the return of the risk curator',
          summary: 'Risk curators set parameters for lending markets.',
        },
        clues,
      ).reason,
    ).toBe('It covers isolated lending markets, for your clue on DeFi lending.');
  });

  it('turns a clue to the reader: first person and audience titles become "you ..."', () => {
    expect(inSecondPerson('I build DeFi protocols')).toBe('you build DeFi protocols');
    expect(inSecondPerson('audit smart contracts')).toBe('you audit smart contracts');
    expect(inSecondPerson('steward DAO governance')).toBe('you steward DAO governance');
    expect(inSecondPerson('I am one of those who run MEV searching strategies.')).toBe(
      'you run MEV searching strategies',
    );
    expect(inSecondPerson("I'm into my own NFTs")).toBe("you're into your own NFTs");
    expect(inSecondPerson('DeFi lending')).toBe('you follow DeFi lending');
  });

  it('says what the story is about with a phrase of its title', () => {
    expect(
      rateArticle(
        {
          title: 'Five invariants every DeFi lending protocol should fuzz',
          summary: 'Fuzzing DeFi protocols.',
        },
        ['I build DeFi protocols', 'I collect generative art'],
      ).reason,
    ).toBe('It covers every DeFi lending protocol, for your clue on DeFi protocols.');
    expect(
      rateArticle({ title: 'Checking provenance before you collect generative art', summary: '' }, [
        'collect generative art on-chain',
      ]).reason,
    ).toMatch(/^It covers generative art, for your clue on generative art\.$/);
    expect(
      rateArticle({ title: 'Why long-form generative series still matter', summary: '' }, [
        'I audit smart contracts',
      ]).reason,
    ).toBe('Outside your clues: it is about the long-form generative series.');
  });
});
