// Builds the shipped labelled web3 set (web3-relevance.jsonl + web3-relevance.labels.jsonl) from
// the seed data and the fixture feeds: npx tsx scripts/eval/build-web3-set.ts
// One group per seed audience; its clue is "I {audience title}". Gains come from editorial facts,
// not from any model: a post written for the audience is 3, a post of a related audience 1; the
// fixture feeds' articles are labelled by hand below. Distractors (gain 0) are posts of unrelated
// audiences and unlabelled feed articles, picked and ordered by a hash, so the set is reproducible.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseFeed } from '#core/feeds';
import { plainText } from '#core/html';
import { FIXTURE_FEEDS_DIR } from '#tests/fakes/feed-server';
import { audiences, posts } from '../seed/data';

const GROUP_SIZE = 10;
const OWN_POSTS = 3;
const RELATED_POSTS = 2;
const OUT_DIR = import.meta.dirname;

/** Hand labels of the fixture feeds' articles, by title start: audience key -> gain 1..3. */
const FEED_LABELS: [title: string, gains: Record<string, number>][] = [
  ['Ethereum core developers set the Fusaka', { 'rollup-engineers': 2, 'restaking-operators': 2 }],
  ['Core devs lock in Fusaka date', { 'rollup-engineers': 2, 'restaking-operators': 2 }],
  ["Lido's community staking module", { 'restaking-operators': 3, 'dao-governance': 1 }],
  ['Base sequencer outage', { 'rollup-engineers': 3, 'security-auditors': 1 }],
  ['Uniswap v4 hooks audit contest', { 'security-auditors': 3, 'defi-builders': 2 }],
  ['EigenLayer slashing goes live', { 'restaking-operators': 3 }],
  [
    'Stablecoin supply on rollups',
    { 'stablecoin-payments': 3, 'rollup-engineers': 1, 'onchain-analysts': 1 },
  ],
  ['Account abstraction wallets', { 'wallet-ux': 3 }],
  ["Optimism's fault proofs", { 'rollup-engineers': 3, 'zk-researchers': 1 }],
  [
    'EU regulators publish final MiCA',
    { 'crypto-policy': 3, 'stablecoin-payments': 2, 'rwa-tokenization': 1 },
  ],
  ['Bitcoin miners sell less', { 'onchain-analysts': 1 }],
  ['Solana validators approve', { 'solana-devs': 2, 'restaking-operators': 1 }],
  ['US Treasury opens comment period', { 'crypto-policy': 3, 'defi-builders': 2 }],
  ['Lumen Labs raises', { 'zk-researchers': 3 }],
  ['The exit queue is the longest', { 'restaking-operators': 2, 'onchain-analysts': 1 }],
  ['Client diversity report', { 'restaking-operators': 2 }],
  ['A relay bug cost validators', { 'restaking-operators': 2, 'mev-searchers': 2 }],
  ['Holesky is gone', { 'restaking-operators': 2 }],
  ['Distributed validator clusters', { 'restaking-operators': 3 }],
];

type Candidate = { id: string; title: string; summary: string };
const hash = (text: string) => createHash('sha256').update(text).digest('hex');
const byHash = (salt: string) => (a: Candidate, b: Candidate) =>
  hash(salt + a.id).localeCompare(hash(salt + b.id));

const feedArticles = ['blocknotes.xml', 'chainwire-daily.xml', 'validator-weekly.json'].flatMap(
  (file) =>
    parseFeed(readFileSync(join(FIXTURE_FEEDS_DIR, file), 'utf8')).items.map((item) => {
      const title = item.title ?? '';
      return {
        candidate: {
          id: `feed:${hash(item.url ?? title).slice(0, 12)}`,
          title,
          summary: plainText(item.summary || item.contentHtml || '').slice(0, 600),
        },
        gains: FEED_LABELS.find(([start]) => title.startsWith(start))?.[1] ?? {},
      };
    }),
);
const postCandidate = (post: (typeof posts)[number]): Candidate => ({
  id: `post:${post.key}`,
  title: post.title,
  summary: post.teaser,
});

const inputs: string[] = [];
const labels: string[] = [];
for (const audience of audiences) {
  const own = posts.filter((post) => post.audience === audience.key).slice(0, OWN_POSTS);
  const related = posts
    .filter((post) => audience.related.includes(post.audience))
    .map(postCandidate)
    .sort(byHash(audience.key))
    .slice(0, RELATED_POSTS);
  const labelled = feedArticles
    .filter((article) => article.gains[audience.key])
    .sort((a, b) => b.gains[audience.key]! - a.gains[audience.key]!)
    .slice(0, 2);
  const relevant: Record<string, number> = {};
  for (const post of own) relevant[`post:${post.key}`] = 3;
  for (const post of related) relevant[post.id] = 1;
  for (const article of labelled) relevant[article.candidate.id] = article.gains[audience.key]!;
  const chosen = [
    ...own.map(postCandidate),
    ...related,
    ...labelled.map((article) => article.candidate),
  ];
  const distractors = [
    ...posts
      .filter((post) => post.audience !== audience.key && !audience.related.includes(post.audience))
      .map(postCandidate),
    ...feedArticles
      .filter((article) => !article.gains[audience.key])
      .map((article) => article.candidate),
  ].sort(byHash(audience.key));
  const candidates = [...chosen, ...distractors.slice(0, GROUP_SIZE - chosen.length)].sort(
    byHash(`order:${audience.key}`),
  );
  inputs.push(JSON.stringify({ id: audience.key, clues: [`I ${audience.title}`], candidates }));
  labels.push(JSON.stringify({ id: audience.key, relevant }));
}
writeFileSync(join(OUT_DIR, 'web3-relevance.jsonl'), inputs.join('\n') + '\n');
writeFileSync(join(OUT_DIR, 'web3-relevance.labels.jsonl'), labels.join('\n') + '\n');
console.log(`Wrote ${audiences.length} groups to ${OUT_DIR}`);
