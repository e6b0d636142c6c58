// Local embeddings: hashed sentence vectors. Each content-word stem (weighted by part of speech)
// and each adjacent stem pair is hashed (FNV-1a) into one of DIMENSIONS signed buckets; the
// vector is L2-normalised, so cosine similarity measures shared vocabulary. No model, no network.
import { bigrams, terms, topicWeight } from './text';

export const DIMENSIONS = 256;

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function add(vector: number[], feature: string, weight: number) {
  const hash = fnv1a(feature);
  const sign = hash & 0x80000000 ? -1 : 1;
  vector[hash % DIMENSIONS]! += sign * weight;
}

export function embedText(text: string): number[] {
  const vector = new Array<number>(DIMENSIONS).fill(0);
  const list = terms(text);
  for (const term of list) add(vector, term.stem, topicWeight(term.pos));
  for (const pair of bigrams(list)) add(vector, pair, 0.5);
  const norm = Math.hypot(...vector);
  return norm === 0 ? vector : vector.map((x) => Math.round((x / norm) * 1e6) / 1e6);
}
