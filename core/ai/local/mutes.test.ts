import { describe, expect, it } from 'vitest';
import { posts } from '../../../scripts/seed/data';
import { buildCorpus } from './corpus';
import { negativeMatching } from './mutes';
import { wordVectors } from './vectors';

/** The demo's stories, and the feed stories the demo imports, as the build reads them. */
const demo = posts.map((post) => ({ title: post.title, summary: post.teaser, content: '' }));
const solana = [
  'Client diversity on Solana: conversations with validator client teams',
  'Solana validators approve a 20% cut in inflation',
  'Squeezing compute units: profiling a Solana program',
];

async function matching() {
  const corpus = buildCorpus(demo, await wordVectors(), { dropRare: false });
  return negativeMatching(corpus);
}

describe('matching what a reader does not want', () => {
  it('finds the stories that name a muted word, and no others', async () => {
    const m = await matching();
    const phrase = m.phrase('Solana stories');
    const stories = [
      ...demo,
      {
        title: 'Solana validators approve a 20% cut in inflation',
        summary: 'The proposal passed with 71% of staked SOL voting in favour.',
        content: '',
      },
    ];
    const named = stories
      .filter((story) => m.strength(phrase, m.story(story)) >= 0.6)
      .map((story) => story.title);
    expect(new Set(named)).toEqual(new Set(solana));
    expect(
      m.strength(
        phrase,
        m.story({ title: 'Oracle latency is a design parameter, not an afterthought' }),
      ),
    ).toBeLessThan(0.3);
  });

  it('counts a title fully, a summary or a body that keeps mentioning it less, one passing mention not', async () => {
    const m = await matching();
    const phrase = m.phrase('NFTs');
    const strength = (story: { title: string; summary?: string; content?: string }) =>
      m.strength(phrase, m.story(story));
    expect(strength({ title: 'NFT royalties are back' })).toBe(1);
    expect(
      strength({ title: 'Royalties are back', summary: 'Marketplaces restore NFT royalties.' }),
    ).toBeGreaterThan(0.6);
    expect(
      strength({ title: 'Royalties are back', content: 'The nft market... Every NFT drop now...' }),
    ).toBeGreaterThanOrEqual(0.6);
    expect(
      strength({ title: 'Royalties are back', content: 'Unlike NFTs, tokens...' }),
    ).toBeLessThan(0.6);
  });

  it('wants every word of a phrase for a full match: "DAO treasury" is not the US Treasury', async () => {
    const m = await matching();
    const phrase = m.phrase('DAO treasury');
    expect(
      m.strength(
        phrase,
        m.story({ title: "Treasury management for DAOs that don't want to be hedge funds" }),
      ),
    ).toBe(1);
    expect(
      m.strength(
        phrase,
        m.story({ title: 'US Treasury opens comment period on DeFi broker rules' }),
      ),
    ).toBeLessThan(0.6);
  });

  it('finds the same event told by another source far closer than stories on other topics', async () => {
    const m = await matching();
    const fusaka = m.story({
      title: 'Ethereum core developers set the Fusaka mainnet date',
      summary:
        'After two clean testnet forks, client teams agreed on an activation epoch for Fusaka.',
    });
    const retold = m.story({
      title: 'Core devs lock in Fusaka date',
      summary:
        'Ethereum client teams agreed the Fusaka activation epoch after clean testnet forks.',
    });
    const other = m.story({
      title: "Treasury management for DAOs that don't want to be hedge funds",
      summary: 'A treasury committee member and a risk adviser talk runway planning.',
    });
    expect(m.closeness(fusaka, retold)).toBeGreaterThan(0.6);
    expect(m.closeness(fusaka, other)).toBeLessThan(0.3);
  });

  it('reads a story with an article id once, and its body every time', async () => {
    const m = await matching();
    const key = `article-${Math.random()}`;
    const first = m.story({ title: 'Solana validators approve a cut', content: '' }, key);
    const again = m.story({ title: 'Something else entirely', content: 'Solana, Solana' }, key);
    expect(again.headline).toEqual(first.headline);
    expect(again.body).toBe('solana, solana');
  });
});
