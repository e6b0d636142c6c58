// Which of the web3 field's topics a word, and so a text, is about. Every stem of the topics'
// names and descriptions (domain-topics.ts) gets a profile over the topics: full weight for a
// name, half for a description word, and less the more topics share it ("token" says little,
// "reentrancy" a lot). A corpus snapshot adds profiles for the names it meets in articles beside
// known ones (corpus.ts), so "Firedancer" is Solana once two stories say so. Two texts are on one
// topic when their profiles point the same way, whatever words they use: "dollar tokens" meets
// "stablecoin reserves", "front-running bots" meets "order flow auctions".
import { DOMAIN_TOPICS } from './domain-topics';
import { terms, topicWeight, type Term } from './text';

export const TOPIC_COUNT = DOMAIN_TOPICS.length;

/** A stem's weight per topic, in DOMAIN_TOPICS order. */
export type Profile = Float32Array;

const NAME_WEIGHT = 1;
const ABOUT_WEIGHT = 0.5;

let learned: ReadonlyMap<string, Profile> | undefined;
let lowerCase: ReadonlySet<string> | undefined;

/** The field's words its topics write in lower case: common nouns ("stablecoin"), not names. */
export function fieldCommonWords(): ReadonlySet<string> {
  lowerCase ??= new Set(
    DOMAIN_TOPICS.flatMap((topic) =>
      `${topic.terms} ${topic.about}`.split(/[^\p{L}\p{N}-]+/u).filter((w) => /^\p{Ll}/u.test(w)),
    ),
  );
  return lowerCase;
}

/** The profiles the topics' own text gives, learned once per process (a few milliseconds). */
export function lexiconProfiles(): ReadonlyMap<string, Profile> {
  if (learned) return learned;
  const raw = new Map<string, Float32Array>();
  const credit = (stem: string, topic: number, weight: number) => {
    let profile = raw.get(stem);
    if (!profile) raw.set(stem, (profile = new Float32Array(TOPIC_COUNT)));
    profile[topic] = Math.max(profile[topic]!, weight);
  };
  DOMAIN_TOPICS.forEach((topic, index) => {
    for (const name of topic.terms.split(','))
      for (const term of terms(name)) credit(term.stem, index, NAME_WEIGHT);
    for (const term of terms(topic.about)) credit(term.stem, index, ABOUT_WEIGHT);
  });
  // A stem shared by many topics tells them apart less: its profile shrinks with their number.
  for (const profile of raw.values()) {
    const shared = profile.filter((w) => w > 0).length;
    const specificity = Math.log(1 + TOPIC_COUNT / shared) / Math.log(1 + TOPIC_COUNT);
    for (let t = 0; t < TOPIC_COUNT; t++) profile[t] = profile[t]! * specificity;
  }
  learned = raw;
  return learned;
}

/**
 * A text's direction over the topics, and how far it is of the field: the share of its weight
 * that known words carry, times how surely its words mean the field (each word's signal adds).
 */
export type DomainVector = { vector: Float64Array; known: number };

/**
 * The weighted sum of a text's stem profiles (`weight` is the stem's rarity), normalised.
 * `extra` holds the profiles a corpus learned for names the lexicon lacks; `signal` says how
 * surely a word means the field when it is used (everyday words like "market" often do not).
 */
export function domainVector(
  list: Term[],
  weight: (stem: string) => number,
  extra?: ReadonlyMap<string, Profile>,
  signal: (term: Term) => number = () => 1,
): DomainVector {
  const lexicon = lexiconProfiles();
  const sum = new Float64Array(TOPIC_COUNT);
  let total = 0;
  let known = 0;
  let evidence = 0;
  for (const term of list) {
    const w = weight(term.stem) * topicWeight(term.pos);
    total += w;
    const profile = lexicon.get(term.stem) ?? extra?.get(term.stem);
    if (!profile) continue;
    known += w;
    evidence += signal(term);
    for (let t = 0; t < TOPIC_COUNT; t++) sum[t]! += w * profile[t]!;
  }
  const norm = Math.hypot(...sum);
  if (norm > 0) for (let t = 0; t < TOPIC_COUNT; t++) sum[t] = sum[t]! / norm;
  const share = total === 0 ? 0 : known / total;
  return { vector: sum, known: share * (1 - Math.exp(-evidence)) };
}

/** A clue's topic weighing this share of its strongest one is an aspect the reader wants whole. */
const ASPECT = 0.5;

/**
 * How far an article is in the clue's part of the field: the cosine of their directions, or, when
 * higher, the share of the article's direction that lies in the clue's aspects. A clue names
 * several things ("DeFi lending ... smart-contract security"), and a story about one of them
 * is for the reader though it leaves the others out.
 */
export function fieldMatch(clue: Float64Array, article: Float64Array): number {
  let dot = 0;
  let strongest = 0;
  for (let t = 0; t < TOPIC_COUNT; t++) {
    dot += clue[t]! * article[t]!;
    strongest = Math.max(strongest, clue[t]!);
  }
  if (strongest === 0) return 0;
  let covered = 0;
  for (let t = 0; t < TOPIC_COUNT; t++)
    covered += article[t]! ** 2 * Math.min(1, clue[t]! / (ASPECT * strongest));
  return Math.max(dot, covered);
}

/** How much a word's topics point the way of a text's (a unit direction): their cosine, 0 unknown. */
export function affinity(
  stem: string,
  direction: Float64Array,
  extra?: ReadonlyMap<string, Profile>,
): number {
  const profile = lexiconProfiles().get(stem) ?? extra?.get(stem);
  if (!profile) return 0;
  let dot = 0;
  let norm = 0;
  for (let t = 0; t < TOPIC_COUNT; t++) {
    dot += profile[t]! * direction[t]!;
    norm += profile[t]! ** 2;
  }
  return norm === 0 ? 0 : dot / Math.sqrt(norm);
}

export const topicIndex = (id: string) => DOMAIN_TOPICS.findIndex((topic) => topic.id === id);

/** Fewer documents than this name a stem too seldom to learn its topics from them. */
const MIN_DOCUMENTS = 2;
/** A learned topic weighing less than this share of the stem's profile is noise. */
const MIN_SHARE = 0.2;
const LEARNED_TOPICS = 3;
/** Learned profiles kept at most, the most used names first: the snapshot stays one small item. */
export const MAX_LEARNED = 5_000;

/**
 * Profiles for the stems the lexicon lacks, learned from the documents they occur in: the mean
 * direction of those documents, shrunk toward nothing when the stem is seen in few of them.
 * Each kept as its strongest topics only, so a snapshot stays small.
 */
export function learnProfiles(
  documents: Term[][],
  weight: (stem: string) => number,
): Map<string, Profile> {
  const lexicon = lexiconProfiles();
  const sums = new Map<string, { sum: Float64Array; documents: number }>();
  for (const list of documents) {
    const { vector, known } = domainVector(list, weight);
    if (known === 0) continue;
    for (const stem of new Set(list.map((term) => term.stem))) {
      if (lexicon.has(stem)) continue;
      let entry = sums.get(stem);
      if (!entry) sums.set(stem, (entry = { sum: new Float64Array(TOPIC_COUNT), documents: 0 }));
      entry.documents++;
      for (let t = 0; t < TOPIC_COUNT; t++) entry.sum[t]! += vector[t]!;
    }
  }
  const profiles = new Map<string, Profile>();
  const used = [...sums]
    .filter(([, entry]) => entry.documents >= MIN_DOCUMENTS)
    .sort((a, b) => b[1].documents - a[1].documents || (a[0] < b[0] ? -1 : 1))
    .slice(0, MAX_LEARNED);
  for (const [stem, { sum, documents: count }] of used) {
    const mean = sum.map((x) => x / count);
    const total = mean.reduce((a, x) => a + x, 0);
    const top = [...mean.keys()]
      .filter((t) => mean[t]! >= MIN_SHARE * total)
      .sort((a, b) => mean[b]! - mean[a]!)
      .slice(0, LEARNED_TOPICS);
    if (top.length === 0) continue;
    const confidence = count / (count + MIN_DOCUMENTS);
    const profile = new Float32Array(TOPIC_COUNT);
    for (const t of top) profile[t] = Math.round((mean[t]! / total) * confidence * 1000) / 1000;
    profiles.set(stem, profile);
  }
  return profiles;
}
