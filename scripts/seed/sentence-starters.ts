// Demo sentence starters for the get-started funnel: how web3 readers usually begin describing
// themselves, each with follow-on pointers and examples. The unnamed pointer carries the examples
// of 'Add your own'; a starter without named pointers goes straight to the descriptor.
import type { Pointer } from '#core/sentence-starters';

export type SeedSentenceStarter = {
  key: string;
  name: string;
  pointers: Pointer[];
};

export const sentenceStarters: SeedSentenceStarter[] = [
  {
    key: 'build',
    name: 'I build',
    pointers: [
      {
        name: 'protocols for',
        ordering: 1,
        examples: ['lending on Ethereum', 'perpetual futures'],
      },
      {
        name: 'infrastructure for',
        ordering: 2,
        examples: ['rollups', 'validators and RPC nodes'],
      },
      { name: 'tools for', ordering: 3, examples: ['DAO treasuries', 'smart contract audits'] },
      { name: 'apps on', ordering: 4, examples: ['Solana', 'Base'] },
      { ordering: 5, examples: ['zk proving systems', 'wallet onboarding flows'] },
    ],
  },
  {
    key: 'invest',
    name: 'I invest in',
    pointers: [
      { name: 'early-stage', ordering: 1, examples: ['DeFi startups', 'infrastructure teams'] },
      { name: 'liquid', ordering: 2, examples: ['L1 and L2 tokens', 'DeFi governance tokens'] },
      { ordering: 3, examples: ['real-world asset protocols', 'Bitcoin mining'] },
    ],
  },
  {
    key: 'collect',
    name: 'I collect',
    pointers: [
      { ordering: 1, examples: ['generative art on Art Blocks', 'Ordinals inscriptions'] },
    ],
  },
  {
    key: 'research',
    name: 'I research',
    pointers: [
      { name: 'the security of', ordering: 1, examples: ['bridges', 'restaking protocols'] },
      { name: 'the economics of', ordering: 2, examples: ['MEV', 'stablecoins'] },
      { ordering: 3, examples: ['zero-knowledge proofs', 'consensus protocols'] },
    ],
  },
  {
    key: 'work-at',
    name: 'I work at',
    pointers: [
      { name: 'a DAO as', ordering: 1, examples: ['a governance steward', 'a treasury manager'] },
      { name: 'an exchange as', ordering: 2, examples: ['a compliance officer', 'a market maker'] },
      { name: 'a fund as', ordering: 3, examples: ['an analyst', 'a partner'] },
      { ordering: 4, examples: ['a wallet company as a designer'] },
    ],
  },
  {
    key: 'trade',
    name: 'I trade',
    pointers: [],
  },
];
