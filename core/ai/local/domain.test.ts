// The web3 field's topics as the ranker learns them: the names the field uses, the words readers
// use for them, and new names learned from the articles they appear in.
import { describe, expect, it } from 'vitest';
import { buildCorpus } from './corpus';
import { domainVector, fieldMatch, topicIndex, TOPIC_COUNT } from './domain';
import { terms } from './text';
import { wordVectors } from './vectors';

const even = () => 1;

/** The id of the topic a text leans to most. */
function leaning(text: string, profiles?: Parameters<typeof domainVector>[2]): string | undefined {
  const { vector, known } = domainVector(terms(text), even, profiles);
  if (known === 0) return undefined;
  const top = [...vector.keys()].sort((a, b) => vector[b]! - vector[a]!)[0]!;
  return ['security', 'ethereum', 'solana', 'lending', 'stablecoins', 'mev', 'zk', 'dao'].find(
    (id) => topicIndex(id) === top,
  );
}

describe('the web3 field', () => {
  it.each([
    ['permit', 'security'],
    ['signature replay', 'security'],
    ['storage collision', 'security'],
    ['reentrancy', 'security'],
    ['Dencun', 'ethereum'],
    ['blobs and the gas limit', 'ethereum'],
    ['Vitalik', 'ethereum'],
    ['Firedancer', 'solana'],
    ['Jupiter', 'solana'],
    ['oracle lag', 'lending'],
    ['dollar tokens', 'stablecoins'],
    ['front-running bots', 'mev'],
    ['provers and circuits', 'zk'],
    ['delegates and voting power', 'dao'],
  ])('knows "%s" is about %s', (text, topic) => {
    expect(leaning(text)).toBe(topic);
  });

  it('matches a reader to stories that share no word with their clue', () => {
    const field = (text: string) => domainVector(terms(text), even).vector;
    const researcher = field(
      'I research smart contract security: audits, exploits and formal verification',
    );
    const match = (title: string) => fieldMatch(researcher, field(title));
    const replay = match('Signature replay across chains: the permit edge cases');
    const collisions = match('Storage collisions in upgradeable proxies: a field guide');
    const inflation = match('Solana validators approve a 20% cut in inflation');
    const treasury = match("Treasury management for DAOs that don't want to be hedge funds");
    expect(Math.min(replay, collisions)).toBeGreaterThan(0.6);
    expect(Math.max(inflation, treasury)).toBeLessThan(0.3);
  });

  it('gives a story on one aspect of a many-sided clue that aspect in full', () => {
    const field = (text: string) => domainVector(terms(text), even).vector;
    const builder = field(
      'I build DeFi lending on Ethereum, with a focus on smart-contract security',
    );
    expect(
      fieldMatch(builder, field('How three lending protocols priced the October oracle lag')),
    ).toBeGreaterThan(0.8);
  });

  it('learns a new name from the articles it appears in', async () => {
    const name = 'Quasarine';
    expect(leaning(`I follow ${name}`)).toBeUndefined();
    const documents = [
      {
        title: `${name} ships a new Solana validator client`,
        summary: 'Compute units and Anchor.',
      },
      { title: `Solana validators try ${name}`, summary: 'Priority fees fall on Solana.' },
      { title: `${name} and Agave: two Solana clients`, summary: 'Client diversity on Solana.' },
      { title: 'Aave lending markets add collateral', summary: 'Liquidations and oracles.' },
    ];
    const corpus = buildCorpus(documents, await wordVectors(), { dropRare: false });
    expect(leaning(`I follow ${name}`, corpus.profiles)).toBe('solana');
  });

  it('knows nothing of general news', () => {
    for (const text of ['Thanksgiving turkey recipes', 'Storm closes schools in Ohio']) {
      const { known, vector } = domainVector(terms(text), even);
      expect(known).toBe(0);
      expect(vector).toHaveLength(TOPIC_COUNT);
    }
  });
});
