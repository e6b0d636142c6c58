// BM25 weights from wink-nlp's vectorizer, learned over the background corpus plus the texts of
// one request, so a word's weight reflects how rare it is in web3 news and in this request.
import bm25Vectorizer from 'wink-nlp/utilities/bm25-vectorizer.js';
import { BACKGROUND } from './background';
import { terms, wink, type Term } from './text';

/** Length normalisation kept mild: a summary names its topic once, and that should count. */
const BM25_CONFIG = { k: 1, k1: 1.2, b: 0.3, norm: 'none' } as const;

let background: Term[][] | undefined;

/** The background corpus as terms, analysed once per process. */
export function backgroundTerms(): Term[][] {
  background ??= BACKGROUND.map((line) => terms(line));
  return background;
}

export type Weights = {
  /** Inverse document frequency of a stem (unseen stems get the highest). */
  idf(stem: string): number;
  /** The highest IDF: that of a word seen in one document only. */
  maxIdf: number;
  /** BM25 weight of each stem in each learned document, in learning order. */
  docs: Record<string, number>[];
};

/** The background corpus's document frequency per stem, and how many stems have each one. */
type BackgroundCounts = { docs: number; df: Map<string, number>; stemsByDf: Map<number, number> };
let backgroundCounts: BackgroundCounts | undefined;

function countBackground(): BackgroundCounts {
  const lines = backgroundTerms();
  const df = new Map<string, number>();
  for (const line of lines) {
    for (const stem of new Set(line.map((term) => term.stem)))
      df.set(stem, (df.get(stem) ?? 0) + 1);
  }
  const stemsByDf = new Map<number, number>();
  for (const count of df.values()) stemsByDf.set(count, (stemsByDf.get(count) ?? 0) + 1);
  return { docs: lines.length, df, stemsByDf };
}

/** IDF as wink's BM25 vectorizer computes it (Robertson & Zaragoza, eq. 3.3, plus k; 6 decimals). */
const idfOf = (docs: number, df: number) =>
  +Math.log((docs - df + 0.5) / (df + 0.5) + BM25_CONFIG.k).toFixed(6);

/**
 * The IDF that `bm25([document])` gives, without learning the background corpus again on every
 * call (an assessment's main cost): its document frequencies are counted once per process.
 */
export function idfWithDocument(
  document: string[],
): Pick<Weights, 'idf' | 'maxIdf'> & { inBackground(stem: string): boolean } {
  const background = (backgroundCounts ??= countBackground());
  const docs = background.docs + 1;
  const stems = new Set(document);
  const df = (stem: string) => (background.df.get(stem) ?? 0) + (stems.has(stem) ? 1 : 0);
  // The highest IDF is the rarest stem's: one of the document's, or a background stem it lacks.
  let rarest = Infinity;
  const heldByDf = new Map<number, number>();
  for (const stem of stems) {
    rarest = Math.min(rarest, df(stem));
    const count = background.df.get(stem);
    if (count) heldByDf.set(count, (heldByDf.get(count) ?? 0) + 1);
  }
  for (const [count, stemsWithIt] of background.stemsByDf) {
    if (stemsWithIt > (heldByDf.get(count) ?? 0)) rarest = Math.min(rarest, count);
  }
  const maxIdf = idfOf(docs, rarest);
  return {
    idf: (stem) => (df(stem) > 0 ? idfOf(docs, df(stem)) : maxIdf),
    maxIdf,
    /** Whether the web3 background corpus uses the stem: a word of the domain. */
    inBackground: (stem) => background.df.has(stem),
  };
}

export function bm25(documents: string[][]): Weights {
  const backgroundStems = backgroundTerms().map((line) => line.map((term) => term.stem));
  const vectorizer = bm25Vectorizer(BM25_CONFIG);
  for (const stems of [...backgroundStems, ...documents]) vectorizer.learn(stems);
  const { its } = wink();
  const idf = new Map(vectorizer.out(its.idf) as unknown as [string, number][]);
  const top = Math.max(...idf.values());
  const docs = documents.map(
    (_, i) => vectorizer.doc(backgroundStems.length + i).out(its.bow) as Record<string, number>,
  );
  return { idf: (stem) => idf.get(stem) ?? top, maxIdf: top, docs };
}
