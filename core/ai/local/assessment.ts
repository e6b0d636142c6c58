// Local audience-name assessment: a clue is insightful when it names topics narrowly. Each content
// word counts by how specific it is, weighted by part of speech: a word of the web3 background
// corpus by its rarity there (BM25 IDF, scaled 0..1, so "crypto" is broad and "liquidation"
// narrow), any other English word by its rarity in English (GloVe's frequency rank: "things",
// "internet" and "news" say nothing), a name the reader capitalised as specific. Words no
// vocabulary knows ("asdf qwer") are no words: they count for nothing, and a clue made of them is
// not insightful. Suggestions make the reader's own words more specific with words of the closest
// background lines (suggestions.ts), else give concrete examples from those lines.
import type { AssessmentAnswer, AssessmentScore } from '../tasks';
import { backgroundTerms, idfWithDocument } from './bm25';
import { storedCorpus } from '../corpus';
import { lexiconProfiles } from './domain';
import { englishRanks } from './english';
import { isKnown } from './phrases';
import { concreteExamples, moreSpecific } from './suggestions';
import { terms, topicWeight, type Term } from './text';
import { cosine, textVector, wordVectors } from './vectors';

const BANDS: [number, AssessmentScore][] = [
  [3.2, 'super insightful'],
  [2.3, 'very insightful'],
  [1.5, 'moderately insightful'],
  [0.8, 'slightly insightful'],
];

/** Ranks of the English words that are too common to name a topic, and of those rare enough to. */
const COMMON_RANK = 1_000;
const RARE_RANK = 20_000;

/** How specific a noun or adjective must be for the reasoning to call it a topic. */
const TOPIC_SPECIFICITY = 0.5;

/** 0 for the thousand most frequent English words, rising with the log of the rank to 1. */
const englishRarity = (rank: number) =>
  Math.min(1, Math.max(0, Math.log(rank / COMMON_RANK) / Math.log(RARE_RANK / COMMON_RANK)));

/** Written as a name: a capital ("Firedancer", "EigenLayer") or a digit ("v4") in the word. */
const writtenAsName = (word: string, text: string) => {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const written = new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'iu').exec(text);
  return !!written && /[\p{Lu}\p{N}]/u.test(written[0]);
};

/** A rare English word outside the web3 field ("zephyr") says this much of its rarity. */
const OFF_FIELD = 0.5;

/** How specific a word is (0..1), or undefined for a word no vocabulary knows. */
type Specificity = (term: Term) => number | undefined;

/**
 * `domain` rates the background's words; `field` says whether the web3 field knows a stem (its
 * topics, or the names the product's articles use), and `inField` whether the clue has such a
 * word: rare English off the field narrows little for web3 stories.
 */
function specificityOf(
  text: string,
  domain: (stem: string) => number | undefined,
  field: (stem: string) => boolean,
  english: ReadonlyMap<string, number>,
  inField: boolean,
): Specificity {
  const englishOf = (word: string) => {
    // A compound is as specific as its rarest known part ("co-processor").
    const ranks = [word, ...word.split('-')].flatMap((part) => english.get(part) ?? []);
    if (ranks.length > 0) return englishRarity(Math.max(...ranks));
    // The tagger's lexicon knows it, GloVe's 50,000 most frequent words do not: a rare word.
    return isKnown(word) ? 1 : undefined;
  };
  return (term) => {
    const background = domain(term.stem);
    if (background !== undefined) return background;
    if (field(term.stem)) return 1;
    const rarity = englishOf(term.word);
    if (rarity !== undefined) return rarity * OFF_FIELD;
    // A capitalised word nobody knows is a name beside words of the field ("perpetuals on
    // Hyperliquid"), and keyboard mashing without them ("Asdf Qwer").
    return writtenAsName(term.word, text) && inField ? 1 : undefined;
  };
}

let lineVectors: Promise<Float64Array[]> | undefined;

/** The background lines' word vectors, weighted by the corpus's IDF, once per process. */
function backgroundVectors(): Promise<Float64Array[]> {
  lineVectors ??= wordVectors().then((vectors) => {
    const { idf } = idfWithDocument([]);
    return backgroundTerms().map((line) => textVector(vectors, line, idf, vectors.centroid).vector);
  });
  return lineVectors;
}

/** Background lines by the cosine of their word vectors and the clue's, nearest first. */
async function nearestLines(list: Term[], idf: (stem: string) => number): Promise<number[]> {
  const [vectors, lines] = await Promise.all([wordVectors(), backgroundVectors()]);
  const own = textVector(vectors, list, idf, vectors.centroid);
  if (own.known === 0) return [];
  return lines
    .map((line, index) => ({ index, near: cosine(own.vector, line) }))
    .sort((a, b) => b.near - a.near || a.index - b.index)
    .map(({ index }) => index);
}

export async function assessClue(input: {
  prefix: string;
  pointer?: string;
  audienceName: string;
}): Promise<AssessmentAnswer> {
  const text = [input.pointer ?? '', input.audienceName].join(' ');
  const words = terms(text);
  const { idf, maxIdf: top, inBackground } = idfWithDocument(words.map((t) => t.stem));
  const lexicon = lexiconProfiles();
  // Names the product's stored articles use are of the field; without a snapshot, none are.
  const corpus = await storedCorpus().catch(() => undefined);
  const field = (stem: string) => lexicon.has(stem) || (corpus?.df.has(stem) ?? false);
  const specific = specificityOf(
    text,
    (stem) => (inBackground(stem) ? idf(stem) / top : undefined),
    field,
    await englishRanks(),
    words.some((term) => inBackground(term.stem) || field(term.stem)),
  );
  const unique = [...new Map(words.map((t) => [t.stem, t])).values()];
  const known = unique.filter((t) => specific(t) !== undefined);
  const unknown = unique.filter((t) => specific(t) === undefined);
  const specificity = known.reduce((sum, t) => sum + specific(t)! * topicWeight(t.pos), 0);
  // Mostly words nobody uses is keyboard mashing or a typo, however rare the rest.
  const nonsense = known.length === 0 || unknown.length > known.length;
  const score = nonsense
    ? 'not insightful'
    : (BANDS.find(([floor]) => specificity >= floor)?.[1] ?? 'not insightful');

  const topics = known
    .filter((t) => topicWeight(t.pos) >= 0.7 && specific(t)! >= TOPIC_SPECIFICITY)
    .map((t) => t.word);
  const reasoning =
    unique.length === 0
      ? 'The description has no words that name a topic, so it cannot steer which stories you get.'
      : nonsense
        ? `We do not know ${unknown.length === 1 ? 'the word' : 'the words'} ${unknown.map((t) => `"${t.word}"`).join(', ')}, so the description cannot steer which stories you get.`
        : score === 'not insightful' || score === 'slightly insightful'
          ? `"${topics.join(' ') || input.audienceName}" is broad: most web3 news would fit it, so it narrows little.`
          : `It names ${topics.length} specific topic word(s) (${topics.join(', ')}), which lets us tell relevant stories from the rest.`;

  if (score === 'not insightful') return { score, reasoning, suggestions: [] };
  const stems = new Set(known.map((t) => t.stem));
  const closest = backgroundTerms()
    .map((line, index) => ({
      index,
      overlap: line.filter((t) => stems.has(t.stem)).reduce((s, t) => s + idf(t.stem), 0),
    }))
    .filter((line) => line.overlap > 0)
    .sort((a, b) => b.overlap - a.overlap || a.index - b.index)
    .map(({ index }) => index);
  const starter = [input.prefix, input.pointer ?? ''].join(' ');
  const own = moreSpecific(input.audienceName, starter, closest);
  // 'Good start! Can you make it more specific? For example:' must be followed by examples.
  const needsExamples = score === 'slightly insightful' || score === 'moderately insightful';
  if (own.length > 0 || !needsExamples) return { score, reasoning, suggestions: own };
  const rarity = (stem: string) => idf(stem) / top;
  const shared = concreteExamples(input.audienceName, closest, rarity);
  // No line shares a word that leads to a focus: the lines nearest in meaning (word vectors) do.
  const suggestions =
    shared.length > 0
      ? shared
      : concreteExamples(input.audienceName, await nearestLines(known, idf), rarity);
  return { score, reasoning, suggestions };
}
