// The local ranker as main had it at 266856c (issue 17's starting point), kept verbatim as
// bench:scoring's baseline: BM25 over a hand-written web3 background corpus with pseudo-relevance
// feedback. Only its imports changed; it is not used by the product.
// Local relevance: how much of each clue's topic the article covers. A clue's content words are
// weighted by rarity (BM25 IDF) and by part of speech (nouns and names carry a topic, verbs like
// "build" little); each is credited by its BM25 term-frequency factor in the article, where the
// title counts twice. A clue scores the covered share of its weight, plus a bonus for phrases
// ("generative art") found intact. Because readers write "DeFi" where articles write "lending",
// each clue is also expanded by pseudo-relevance feedback: the topic words of the background
// lines that share the clue's topic words, which count for part of the rest. The article scores
// its best clue, a little more per other matched clue. Every clue from 'Slightly Relevant' up is
// named, and the reason says so in a sentence (reason.ts).
import { labelOf, type ArticleInput, type RelevanceAnswer } from '#core/ai';
import { backgroundTerms, bm25 } from './bm25';
import { reasonFor, topicOf } from './reason';
import { bigrams, terms, topicWeight, type Term } from '../../../core/ai/local/text';

/** A clue counts as matched, for the bonus of matching several, from this share of its weighted words. */
const MATCHED = 0.3;
const PHRASE_BONUS = 0.1;
const EXTRA_CLUE_BONUS = 0.1;
/** Share of the uncovered rest that expansion words can earn. */
const EXPANSION_WEIGHT = 0.6;
const FEEDBACK_LINES = 3;
const EXPANSION_TERMS = 10;
/** Only nouns, names and adjectives decide which background lines share a clue's topic. */
const TOPIC_WORD = 0.7;

type Weighted = Map<string, { weight: number; word: string }>;

function weighted(list: Term[], idf: (stem: string) => number, skip?: Set<string>): Weighted {
  const weights: Weighted = new Map();
  for (const term of list) {
    if (skip?.has(term.stem)) continue;
    const weight = idf(term.stem) * topicWeight(term.pos);
    if ((weights.get(term.stem)?.weight ?? 0) < weight)
      weights.set(term.stem, { weight, word: term.word });
  }
  return weights;
}

/** Pseudo-relevance feedback: topic words of the background lines closest to the clue. */
function expansion(clue: Term[], idf: (stem: string) => number): Weighted {
  const own = new Set(clue.map((term) => term.stem));
  const topic = new Set(clue.filter((t) => topicWeight(t.pos) >= TOPIC_WORD).map((t) => t.stem));
  const lines = backgroundTerms()
    .map((line, index) => {
      const shared = new Set(line.filter((t) => topic.has(t.stem)).map((t) => t.stem));
      return { line, index, overlap: [...shared].reduce((sum, stem) => sum + idf(stem), 0) };
    })
    .filter((candidate) => candidate.overlap > 0)
    .sort((a, b) => b.overlap - a.overlap || a.index - b.index)
    .slice(0, FEEDBACK_LINES);
  const related = lines.flatMap(({ line }) => line.filter((t) => topicWeight(t.pos) >= TOPIC_WORD));
  return new Map(
    [...weighted(related, idf, own)]
      .sort((a, b) => b[1].weight - a[1].weight || a[0].localeCompare(b[0]))
      .slice(0, EXPANSION_TERMS),
  );
}

/** Weighted share of `weights` the article covers, with BM25's term-frequency factor capped at 1. */
function coverage(weights: Weighted, article: Record<string, number>, idf: (s: string) => number) {
  let total = 0;
  let covered = 0;
  const stems: string[] = [];
  for (const [stem, { weight }] of weights) {
    total += weight;
    const inArticle = article[stem] ?? 0;
    if (inArticle > 0) {
      covered += weight * Math.min(1, inArticle / idf(stem));
      stems.push(stem);
    }
  }
  return { share: total === 0 ? 0 : covered / total, stems };
}

/** The stems a clue found in the article: its own words, and the related ones of its topic. */
type ClueScore = { clue: string; score: number; stems: string[]; related: string[] };

function scoreClue(
  clue: Term[],
  article: Record<string, number>,
  articlePairs: Set<string>,
  idf: (stem: string) => number,
): Omit<ClueScore, 'clue'> {
  const direct = coverage(weighted(clue, idf), article, idf);
  const related = coverage(expansion(clue, idf), article, idf);
  const phrases = bigrams(clue).filter((pair) => articlePairs.has(pair)).length;
  const own = Math.min(1, direct.share + PHRASE_BONUS * phrases);
  const score = own + (1 - own) * EXPANSION_WEIGHT * related.share;
  return { score, stems: direct.stems, related: related.stems };
}

const rounded = (score: number) => Math.round(score * 1000) / 1000;

export function rateArticle(article: ArticleInput, clues: string[]): RelevanceAnswer {
  const title = terms(article.title);
  const summary = terms(article.summary);
  // The title says what the article is about: it counts twice.
  const articleTerms = [...title, ...title, ...summary];
  const clueTerms = clues.map((clue) => terms(clue));
  const weights = bm25([
    articleTerms.map((t) => t.stem),
    ...clueTerms.map((t) => t.map((x) => x.stem)),
  ]);
  const bow = weights.docs[0]!;
  const pairs = new Set([...bigrams(title), ...bigrams(summary)]);

  const scored: ClueScore[] = clues
    .map((clue, i) => ({ clue, ...scoreClue(clueTerms[i]!, bow, pairs, weights.idf) }))
    .sort((a, b) => b.score - a.score);
  const matched = scored.filter((s) => s.score >= MATCHED);
  const best = scored[0]!;
  const score = rounded(
    Math.min(1, best.score + EXTRA_CLUE_BONUS * Math.max(0, matched.length - 1)),
  );
  const label = labelOf(score);
  // A story rated from 'Slightly Relevant' up names the clues that earned that much on their own:
  // the best one at least, since only several matched clues add a bonus.
  const named = scored.filter((s) => labelOf(rounded(s.score)) !== 'Not Relevant');
  const topic = topicOf(article, { direct: new Set(best.stems), related: new Set(best.related) });
  return {
    label,
    score,
    reason: reasonFor({ label, clues: named.map((s) => s.clue), nearest: best.clue, topic }),
    relevantClues: named.map((s) => s.clue),
  };
}
