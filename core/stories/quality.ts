// How right the membership rule is on labelled pairs: reports of the same event from another
// source, and reports of the same topic but another event. A pair is put in one story when the
// later report would join the earlier one's story of one: the builder's rule. Two sets: the one
// the threshold was picked on (pairs.json), and a held-out one nobody tuned to
// (held-out-pairs.json), written without sight of the builder.
import heldOut from './held-out-pairs.json' with { type: 'json' };
import tuning from './pairs.json' with { type: 'json' };
import { cosine, profilesOf, SAME_EVENT, withinWindow } from './similarity';

type LabelledReport = { title: string; summary: string; source: string; publishedAt: string };
export type ScoredPair = {
  a: string;
  b: string;
  sameEvent: boolean;
  similarity: number;
  inWindow: boolean;
};
export type Quality = {
  threshold: number;
  pairs: number;
  precision: number;
  recall: number;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
};

type LabelledSet = {
  reports: Record<string, LabelledReport>;
  pairs: { a: string; b: string; sameEvent: boolean }[];
};
const SETS: Record<'tuning' | 'held-out', LabelledSet> = { tuning, 'held-out': heldOut };
export type PairSet = keyof typeof SETS;

/** Every labelled pair of a set with the similarity the builder would see. */
export async function scoredPairs(set: PairSet = 'tuning'): Promise<ScoredPair[]> {
  const { reports, pairs } = SETS[set];
  const ids = Object.keys(reports);
  const profiles = await profilesOf(ids.map((id) => reports[id]!));
  const profileOf = new Map(ids.map((id, index) => [id, profiles[index]!]));
  return pairs.map(({ a, b, sameEvent }) => {
    const [first, second] = [reports[a]!, reports[b]!];
    return {
      a,
      b,
      sameEvent,
      similarity: cosine(profileOf.get(a)!, profileOf.get(b)!),
      inWindow: withinWindow(second.publishedAt, {
        firstAt: first.publishedAt,
        latestAt: first.publishedAt,
      }),
    };
  });
}

/** Precision and recall of "same story" at a threshold. */
export function qualityAt(pairs: readonly ScoredPair[], threshold = SAME_EVENT): Quality {
  const joined = (pair: ScoredPair) => pair.inWindow && pair.similarity >= threshold;
  const truePositives = pairs.filter((pair) => pair.sameEvent && joined(pair)).length;
  const falsePositives = pairs.filter((pair) => !pair.sameEvent && joined(pair)).length;
  const falseNegatives = pairs.filter((pair) => pair.sameEvent && !joined(pair)).length;
  return {
    threshold,
    pairs: pairs.length,
    precision: truePositives / Math.max(1, truePositives + falsePositives),
    recall: truePositives / Math.max(1, truePositives + falseNegatives),
    truePositives,
    falsePositives,
    falseNegatives,
  };
}
