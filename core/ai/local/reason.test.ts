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

  it('say in one sentence, in the reader’s words, which clue it matched', () => {
    for (const { answer } of ratings) {
      const { reason, label } = answer;
      const lead = label.charAt(0) + label.slice(1).toLowerCase();
      expect(
        reason.startsWith(`${lead}${label === 'Not Relevant' ? ':' : ' because '}`),
        reason,
      ).toBe(true);
      expect(reason, 'one sentence').toMatch(/^[^.!?]+\.$/);
      expect(reason).not.toMatch(/["“”]|\bNone\b|\bthrough\b|clue\(s\)|in passing/);
      if (label !== 'Not Relevant') {
        expect(reason).toContain(`because ${inSecondPerson(answer.relevantClues[0]!)}`);
      }
    }
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
    ).toBe(
      'Very relevant because you build DeFi protocols: it covers every DeFi lending protocol.',
    );
    expect(
      rateArticle({ title: 'Checking provenance before you collect generative art', summary: '' }, [
        'collect generative art on-chain',
      ]).reason,
    ).toMatch(
      /^\w+ relevant because you collect generative art on-chain: it \w+( on)? generative art\.$/,
    );
    expect(
      rateArticle({ title: 'Why long-form generative series still matter', summary: '' }, [
        'I audit smart contracts',
      ]).reason,
    ).toBe(
      'Not relevant: it is about the long-form generative series, while you audit smart contracts.',
    );
  });
});
