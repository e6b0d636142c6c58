// Local relevance: how much of each clue's topic the article covers. A clue's content words are
// weighted by rarity (BM25 IDF) and by part of speech (nouns and names carry a topic, verbs like
// "build" little); each is credited by its BM25 term-frequency factor in the article, where the
// title counts twice. A clue scores the covered share of its weight, plus a bonus for phrases
// ("generative art") found intact. Because readers write "DeFi" where articles write "lending",
// each clue is also expanded by pseudo-relevance feedback: the topic words of the background
// lines that share the clue's topic words, which count for part of the rest. The article scores
// its best clue, a little more per other matched clue.
import { labelOf, type ArticleInput, type RelevanceAnswer } from '../tasks';
import { backgroundTerms, bm25 } from './bm25';
import { bigrams, terms, topicWeight, type Term } from './text';

/** A clue counts as matched from this share of its weighted words. */
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
  const words: string[] = [];
  for (const [stem, { weight, word }] of weights) {
    total += weight;
    const inArticle = article[stem] ?? 0;
    if (inArticle > 0) {
      covered += weight * Math.min(1, inArticle / idf(stem));
      words.push(word);
    }
  }
  return { share: total === 0 ? 0 : covered / total, words };
}

type ClueScore = { clue: string; score: number; words: string[]; related: string[] };

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
  return { score, words: direct.words, related: related.words };
}

const quote = (clue: string) => `"${clue}"`;
const list = (words: string[]) =>
  words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;

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
  const score = Math.min(1, best.score + EXTRA_CLUE_BONUS * Math.max(0, matched.length - 1));
  const rounded = Math.round(score * 1000) / 1000;

  let reason: string;
  if (matched.length > 0) {
    const others = matched.length > 1 ? ` and ${matched.length - 1} more clue(s)` : '';
    const through = best.words.length > 0 ? best.words : best.related;
    reason = `The article covers ${quote(best.clue)} through ${list(through)}${others}.`;
  } else if (best.words.length + best.related.length > 0) {
    const words = [...best.words, ...best.related].slice(0, 4);
    reason = `The article only touches ${quote(best.clue)} in passing (${list(words)}).`;
  } else {
    reason = 'None of the key words of the clues appear in the title or summary.';
  }
  return {
    label: labelOf(rounded),
    score: rounded,
    reason,
    relevantClues: matched.map((s) => s.clue),
  };
}
