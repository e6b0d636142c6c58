// BM25 weights from wink-nlp's vectorizer, learned over the background corpus plus the texts of
// one request, so a word's weight reflects how rare it is in web3 news and in this request.
import bm25Vectorizer from 'wink-nlp/utilities/bm25-vectorizer.js';
import { BACKGROUND } from './background';
import { terms, wink, type Term } from '../../../core/ai/local/text';

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
