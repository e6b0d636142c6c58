// The local ranker as main had it at 446fbaa (issue 31's starting point), kept as bench:scoring's
// baseline: words, general word vectors and taste, without the web3 field. Only its imports
// changed; the product does not use it.
// Local relevance: how likely a reader described by clues wants an article, as a score whose five
// label bands mean something. Three kinds of evidence, each learned rather than written by hand:
// - Words: the share of a clue's content words (weighted by rarity in the product's own corpus
//   and by part of speech) that the article uses, plus a bonus for phrases found intact.
// - Topic: the cosine of the clue's and the article's word vectors, relative to the corpus's
//   centroid, so "Thanksgiving turkey" meets "holiday dinner" without a shared word.
// - Taste: clues may end in a category or source ("... (sports)", as a reading history does); how
//   much more often the reader's clues name the article's category than the corpus does (the
//   lift) multiplies the odds that the article is for them.
// Each clue's words and topic make its own score; the reader's text score is their best clue's,
// raised by the mean of the others (a profile, not one clue). The text score is a chance (a story
// that matches nothing keeps a small prior) whose odds the lift multiplies, Bayes' rule with the
// taste as the likelihood ratio. The clues that earn 'Slightly Relevant' on their own are named,
// and the reason says so in a sentence (reason.ts).
import { labelOf, type ArticleInput, type RelevanceAnswer } from '#core/ai';
import { FACET_KINDS, facetKey, idf, type Corpus } from '../../../core/ai/local/corpus';
import { reasonFor, topicOf } from './reason';
import { bigrams, terms, topicWeight, type Term } from '../../../core/ai/local/text';
import { cosine, textVector, type WordVectors } from '../../../core/ai/local/vectors';

export type Ranker = { corpus: Corpus; vectors: WordVectors };

const PHRASE_BONUS = 0.1;
/** The cosine of centred vectors at which a clue and an article are on one topic (topic score 1). */
const SAME_TOPIC = 0.6;
/** The chance that a story is for a reader when nothing in it matches anything of theirs. */
const PRIOR = 0.05;
/** Pseudo-clues at the corpus's shares that temper a reader's few clues' category counts. */
const FACET_SMOOTHING = 2;
/** A clue's trailing "(word)": the category or source of a story the reader read. */
const FACET_SUFFIX = /\(([^()\s]{1,40})\)\s*$/;

/** A clue's words, and those without its trailing "(word)", which may name a category or source. */
type Clue = { terms: Term[]; bare: Term[]; facet?: string };

/** Clues repeat across calls (an audience's clues meet every article): analysed once each. */
const analysedClues = new Map<string, Clue>();
const CLUE_CACHE = 5_000;

function analysed(clue: string): Clue {
  let found = analysedClues.get(clue);
  if (!found) {
    const suffix = FACET_SUFFIX.exec(clue);
    const list = terms(clue);
    found = suffix
      ? { terms: list, bare: terms(clue.slice(0, suffix.index)), facet: facetKey(suffix[1]!) }
      : { terms: list, bare: list };
    if (analysedClues.size >= CLUE_CACHE) analysedClues.clear();
    analysedClues.set(clue, found);
  }
  return found;
}

/** Each stem of a clue once, at its highest weight: rarity times how much its part of speech says. */
function weighted(list: Term[], weight: (stem: string) => number): Map<string, number> {
  const weights = new Map<string, number>();
  for (const term of list) {
    const w = weight(term.stem) * topicWeight(term.pos);
    if ((weights.get(term.stem) ?? 0) < w) weights.set(term.stem, w);
  }
  return weights;
}

/** The weighted share of a clue's stems the article uses, and which. */
function coverage(weights: Map<string, number>, present: Set<string>) {
  let total = 0;
  let covered = 0;
  const stems: string[] = [];
  for (const [stem, w] of weights) {
    total += w;
    if (present.has(stem)) {
      covered += w;
      stems.push(stem);
    }
  }
  return { share: total === 0 ? 0 : covered / total, stems };
}

const odds = (p: number) => p / (1 - p);

/** Bayes' rule: the text's chance, floored at the prior, with its odds multiplied by the lift. */
function posterior(text: number, lift: number): number {
  const chance = PRIOR + (1 - PRIOR) * text;
  if (chance >= 1) return 1;
  const o = odds(chance) * lift;
  return o / (1 + o);
}

/**
 * How much more likely the reader's clues name the article's category (and source) than the
 * corpus's articles have it: the reader's share, smoothed toward the corpus's, over the corpus's.
 * A kind counts only when the reader's clues use it; 1 (no evidence) otherwise.
 */
function facetLift(article: ArticleInput, facets: (string | undefined)[], corpus: Corpus): number {
  const named = facets.filter((facet): facet is string => facet !== undefined);
  let lift = 1;
  for (const kind of FACET_KINDS) {
    const value = article[kind] && facetKey(article[kind]);
    if (!value || named.length === 0) continue;
    const known = corpus.facets[kind];
    const ofKind = named.filter((facet) => facet === value || known.has(facet));
    if (ofKind.length === 0) continue;
    let total = 0;
    for (const count of known.values()) total += count;
    const base = ((known.get(value) ?? 0) + 1) / (total + known.size + 1);
    const count = ofKind.filter((facet) => facet === value).length;
    lift *= (count + FACET_SMOOTHING * base) / (ofKind.length + FACET_SMOOTHING) / base;
  }
  return lift;
}

const rounded = (score: number) => Math.round(score * 1000) / 1000;

/** Rates one article against any number of clue sets (an article meets several audiences). */
export function articleRater(
  article: ArticleInput,
  { corpus, vectors }: Ranker,
): (clues: string[]) => RelevanceAnswer {
  const weight = (stem: string) => idf(corpus, stem);
  const title = terms(article.title);
  const summary = terms(article.summary);
  // The title says what the article is about: it counts twice.
  const articleTerms = [...title, ...title, ...summary];
  const present = new Set(articleTerms.map((term) => term.stem));
  const pairs = new Set([...bigrams(title), ...bigrams(summary)]);
  const articleVector = textVector(vectors, articleTerms, weight, corpus.centroid).vector;
  const facets = new Set(
    FACET_KINDS.flatMap((kind) => (article[kind] ? [facetKey(article[kind])] : [])),
  );

  return (clues) => {
    const scored = clues
      .map((clue) => {
        const { terms: all, bare, facet } = analysed(clue);
        // A suffix the corpus knows as a category or source is the reader's taste, not a topic.
        const taste = !!facet && FACET_KINDS.some((kind) => corpus.facets[kind].has(facet));
        const list = taste ? bare : all;
        const words = coverage(weighted(list, weight), present);
        const phrases = bigrams(list).filter((pair) => pairs.has(pair)).length;
        const lexical = Math.min(1, words.share + PHRASE_BONUS * phrases);
        // Topic evidence counts for the share of the clue's weight the word vectors know: a clue
        // whose rare words they miss ("DeFi") is not judged by its common ones alone.
        const { vector, known } = textVector(vectors, list, weight, corpus.centroid);
        const closeness = Math.min(1, Math.max(0, cosine(vector, articleVector) / SAME_TOPIC));
        const topic = known * closeness;
        const text = 1 - (1 - lexical) * (1 - topic);
        return { clue, facet, text, stems: words.stems };
      })
      .sort((a, b) => b.text - a.text);
    const [best, ...rest] = scored;
    const others = rest.reduce((sum, s) => sum + s.text, 0) / (rest.length || 1);
    const profile = 1 - (1 - best!.text) * (1 - others);
    const lift = facetLift(
      article,
      scored.map((s) => s.facet),
      corpus,
    );
    const score = rounded(posterior(profile, lift));
    const label = labelOf(score);
    // A story rated from 'Slightly Relevant' up names the clues that earn that much on their own
    // (a clue of the story's category with the reader's taste for it): the best one at least.
    const own = scored
      .map((s) => ({
        ...s,
        own: rounded(posterior(s.text, s.facet && facets.has(s.facet) ? lift : 1)),
      }))
      .sort((a, b) => b.own - a.own);
    const earned = own.filter((s) => labelOf(s.own) !== 'Not Relevant');
    const named = label === 'Not Relevant' ? [] : earned.length > 0 ? earned : own.slice(0, 1);
    const lead = named[0] ?? best!;
    const topic = topicOf(article, { direct: new Set(lead.stems), related: new Set() });
    return {
      label,
      score,
      reason: reasonFor({
        label,
        clues: named.map((s) => s.clue),
        nearest: best!.clue,
        topic,
      }),
      relevantClues: named.map((s) => s.clue),
    };
  };
}

export function rateArticle(
  article: ArticleInput,
  clues: string[],
  ranker: Ranker,
): RelevanceAnswer {
  return articleRater(article, ranker)(clues);
}
