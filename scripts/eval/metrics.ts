// Ranking-quality metrics for the relevance evaluation: per group of candidates scored against one
// reader's clues, how well the scores order the labelled gains (0 = not relevant .. 3 = very).
// Ties are ranked pessimistically (a relevant candidate after an irrelevant one of equal score),
// so a model that gives everything the same score gains nothing from the order of the file.

export type Gains = Record<string, number>;
export type Scores = Record<string, number>;

/** Candidates best first by score; equal scores put the lower gain first (pessimistic). */
export function ranked(scores: Scores, gains: Gains): string[] {
  return Object.keys(scores).sort(
    (a, b) => scores[b]! - scores[a]! || (gains[a] ?? 0) - (gains[b] ?? 0) || a.localeCompare(b),
  );
}

/**
 * Area under the ROC curve with relevant = gain > 0: the chance that a random relevant candidate
 * scores above a random irrelevant one, a tie counting half. Undefined without both kinds.
 */
export function auc(scores: Scores, gains: Gains): number | undefined {
  const ids = Object.keys(scores);
  const relevant = ids.filter((id) => (gains[id] ?? 0) > 0);
  const irrelevant = ids.filter((id) => (gains[id] ?? 0) <= 0);
  if (relevant.length === 0 || irrelevant.length === 0) return undefined;
  let wins = 0;
  for (const r of relevant) {
    for (const i of irrelevant) {
      wins += scores[r]! > scores[i]! ? 1 : scores[r] === scores[i] ? 0.5 : 0;
    }
  }
  return wins / (relevant.length * irrelevant.length);
}

/** 1 / the rank of the first relevant candidate; undefined when none is relevant. */
export function reciprocalRank(scores: Scores, gains: Gains): number | undefined {
  const order = ranked(scores, gains);
  const first = order.findIndex((id) => (gains[id] ?? 0) > 0);
  return first === -1 ? undefined : 1 / (first + 1);
}

const dcg = (gains: number[], k: number) =>
  gains.slice(0, k).reduce((sum, gain, i) => sum + (2 ** gain - 1) / Math.log2(i + 2), 0);

/**
 * Normalised discounted cumulative gain of the top k, with exponential gains (2^gain - 1) and the
 * ideal order of the group's own candidates as the normaliser. Undefined when none is relevant.
 */
export function ndcgAt(k: number, scores: Scores, gains: Gains): number | undefined {
  const ids = Object.keys(scores);
  const ideal = dcg(
    ids.map((id) => gains[id] ?? 0).sort((a, b) => b - a),
    k,
  );
  if (ideal === 0) return undefined;
  return (
    dcg(
      ranked(scores, gains).map((id) => gains[id] ?? 0),
      k,
    ) / ideal
  );
}

/** How many relevant (gain > 0) candidates the first k hold, and how many exist in the group. */
function relevantInTop(k: number, scores: Scores, gains: Gains) {
  const order = ranked(scores, gains);
  const isRelevant = (id: string) => (gains[id] ?? 0) > 0;
  return {
    hits: order.slice(0, k).filter(isRelevant).length,
    relevant: order.filter(isRelevant).length,
    shown: Math.min(k, order.length),
  };
}

/**
 * Precision@k: the share of the reader's top k that is relevant (of the whole group when it has
 * fewer than k candidates). Undefined when none is relevant, like nDCG.
 */
export function precisionAt(k: number, scores: Scores, gains: Gains): number | undefined {
  const { hits, relevant, shown } = relevantInTop(k, scores, gains);
  return relevant === 0 ? undefined : hits / shown;
}

/**
 * Relevant share@k: the relevant candidates in the top k over as many as could be there,
 * min(k, relevant count); 1 when the top k is as full of relevant stories as the labels allow.
 * Unlike precision it does not punish a reader who has only three relevant stories.
 */
export function relevantShareAt(k: number, scores: Scores, gains: Gains): number | undefined {
  const { hits, relevant } = relevantInTop(k, scores, gains);
  return relevant === 0 ? undefined : hits / Math.min(k, relevant);
}

export type Summary = {
  groups: number;
  /** Groups each metric was defined for (and averaged over). */
  counted: { auc: number; mrr: number; ndcg: number };
  auc: number;
  mrr: number;
  ndcg5: number;
  ndcg10: number;
  precision10: number;
  share10: number;
  /** Groups in the labels that the output lacks, or the other way round. */
  missing: string[];
};

const mean = (values: (number | undefined)[]) => {
  const defined = values.filter((value): value is number => value !== undefined);
  return { mean: defined.reduce((s, v) => s + v, 0) / (defined.length || 1), n: defined.length };
};

/** Mean of each metric over the groups both files have. */
export function summarise(
  labels: { id: string; relevant: Gains }[],
  outputs: { id: string; scores: Scores }[],
): Summary {
  const byId = new Map(outputs.map((output) => [output.id, output.scores]));
  const pairs = labels.flatMap((label) => {
    const scores = byId.get(label.id);
    return scores ? [{ scores, gains: label.relevant }] : [];
  });
  const labelled = new Set(labels.map((label) => label.id));
  const missing = [
    ...labels.filter((label) => !byId.has(label.id)).map((label) => label.id),
    ...outputs.filter((output) => !labelled.has(output.id)).map((output) => output.id),
  ];
  const aucs = mean(pairs.map(({ scores, gains }) => auc(scores, gains)));
  const mrr = mean(pairs.map(({ scores, gains }) => reciprocalRank(scores, gains)));
  const ndcg5 = mean(pairs.map(({ scores, gains }) => ndcgAt(5, scores, gains)));
  const ndcg10 = mean(pairs.map(({ scores, gains }) => ndcgAt(10, scores, gains)));
  const precision10 = mean(pairs.map(({ scores, gains }) => precisionAt(10, scores, gains)));
  const share10 = mean(pairs.map(({ scores, gains }) => relevantShareAt(10, scores, gains)));
  return {
    groups: pairs.length,
    counted: { auc: aucs.n, mrr: mrr.n, ndcg: ndcg5.n },
    auc: aucs.mean,
    mrr: mrr.mean,
    ndcg5: ndcg5.mean,
    ndcg10: ndcg10.mean,
    precision10: precision10.mean,
    share10: share10.mean,
    missing,
  };
}
