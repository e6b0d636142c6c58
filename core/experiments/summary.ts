// A run's output from its kept results: per matching entity its count per label and a Total, what
// its kind makes (picks, stories, texts, vectors), and always usage, prompt and model. A chain's
// output is its last step's, with every step's summary in order.
import * as Ai from '#core/ai';
import type { Frozen } from './datasets';
import { addUsage, DEFAULT_THRESHOLD, type Step, type UnitResult } from './engine';
import type { RunOutput, StepOutput, Usage } from './types';

/** A text in a run's output is cut here (the whole is in the run's results). */
export const OUTPUT_TEXT = 1_500;
/** Lists a step's summary keeps inside a chain (its last step keeps them all). */
const CHAIN_LIST = 20;

export const ASSIGNED = 'Assigned';

function stepOutput(step: Step, results: UnitResult[], names: Map<string, string>): StepOutput {
  const kind = step.implementation.kind as StepOutput['kind'];
  const perEntity = new Map<string, Record<string, number>>();
  const threshold = step.settings.threshold ?? DEFAULT_THRESHOLD.categorize;
  for (const entry of results.flatMap((result) => result.entries)) {
    const groups = perEntity.get(entry.entity) ?? { Total: 0 };
    groups[entry.label] = (groups[entry.label] ?? 0) + 1;
    groups.Total! += 1;
    if (kind === 'categorize' && entry.score >= threshold)
      groups[ASSIGNED] = (groups[ASSIGNED] ?? 0) + 1;
    perEntity.set(entry.entity, groups);
  }
  const usage = results.reduce<Usage>((total, result) => addUsage(total, result.usage), {
    calls: 0,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
  });
  const name = (id: string) => names.get(id) ?? id;
  const order = [...names.keys()];
  const rank = (id: string) => (order.includes(id) ? order.indexOf(id) : order.length);
  const picks = results.flatMap((result) => result.picks ?? []);
  const clusters = results.flatMap((result) => result.clusters ?? []);
  const texts = results.flatMap((result) => result.texts ?? []);
  const vectors = results.flatMap((result) => (result.vectors ? [result.vectors] : []));
  const similarities = vectors.reduce((sum, summary) => sum + summary.similarities, 0);
  return {
    implementation: step.implementation.name,
    kind,
    // In the dataset's order, whatever order the chunks ended in.
    resultsPerMatchingEntity: [...perEntity]
      .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
      .map(([entity, groups]) => ({
        matchingEntity: name(entity),
        groupByMetricPerMatchingEntity: groups,
      })),
    ...(kind === 'pick' && {
      picks: [...picks]
        .sort((a, b) => rank(a.matchingEntity) - rank(b.matchingEntity))
        .map((pick) => ({ ...pick, matchingEntity: name(pick.matchingEntity) })),
    }),
    ...(kind === 'cluster' && {
      clusters: clusters.map((cluster) => ({
        ...cluster,
        articles: cluster.articles.map((title) => title.slice(0, 160)),
      })),
    }),
    ...(kind === 'preprocess' && {
      texts: texts.map((text) => ({ ...text, text: text.text.slice(0, OUTPUT_TEXT) })),
    }),
    ...(vectors.length > 0 && {
      vectors: {
        vectors: vectors.reduce((sum, summary) => sum + summary.vectors, 0),
        dimensions: Math.max(...vectors.map((summary) => summary.dimensions)),
        meanSimilarity:
          similarities === 0
            ? 0
            : vectors.reduce((sum, summary) => sum + summary.similaritySum, 0) / similarities,
      },
    }),
    usage,
    failed: results.reduce((sum, result) => sum + (result.failed ?? 0), 0),
    ...(step.prompt && { prompt: step.prompt }),
    model: { id: step.model.id, name: Ai.displayName(step.model) },
    items:
      kind === 'preprocess'
        ? texts.length
        : kind === 'pick'
          ? picks.length
          : results.reduce((sum, result) => sum + result.entries.length, 0),
  };
}

/** A step's summary inside a chain: its counts and usage, its lists cut short. */
const brief = (output: StepOutput): StepOutput => ({
  ...output,
  ...(output.picks && { picks: output.picks.slice(0, CHAIN_LIST) }),
  ...(output.clusters && { clusters: output.clusters.slice(0, CHAIN_LIST) }),
  ...(output.texts && { texts: output.texts.slice(0, CHAIN_LIST) }),
});

export function summarise(
  steps: Step[],
  kept: Map<number, UnitResult[]>,
  frozen: Frozen,
  durationMs: number,
): RunOutput {
  const names = new Map(frozen.targets.map((target) => [target.id, target.name]));
  const outputs = steps.map((step) => stepOutput(step, kept.get(step.index) ?? [], names));
  const last = outputs.at(-1)!;
  const usage = outputs.reduce<Usage>((total, output) => addUsage(total, output.usage), {
    calls: 0,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
  });
  return fitted({
    ...last,
    usage,
    // The last step's lists are the run's own: its summary here is brief like the others.
    ...(steps.length > 1 && { steps: outputs.map(brief) }),
    durationMs,
    dataset: { id: frozen.dataset.id, name: frozen.dataset.name, group: frozen.dataset.group },
  });
}

/** An output is kept in one item (400 KB): it is kept well under, whatever the texts' scripts. */
export const OUTPUT_BYTES = 300_000;

const bytesOf = (output: RunOutput) => Buffer.byteLength(JSON.stringify(output));

/**
 * The output cut to fit one item: first its texts shorter, then its lists shorter (the counts,
 * usage, prompt and model always stay; the whole results stay with the run's chunks).
 */
export function fitted(output: RunOutput): RunOutput {
  let fitting = output;
  for (const [text, list] of [
    [500, Number.MAX_SAFE_INTEGER],
    [200, 100],
    [100, 20],
  ] as const) {
    if (bytesOf(fitting) <= OUTPUT_BYTES) return fitting;
    const cut = (step: StepOutput): StepOutput => ({
      ...step,
      ...(step.texts && {
        texts: step.texts.slice(0, list).map((t) => ({ ...t, text: t.text.slice(0, text) })),
      }),
      ...(step.clusters && {
        clusters: step.clusters
          .slice(0, list)
          .map((c) => ({ ...c, articles: c.articles.map((title) => title.slice(0, text)) })),
      }),
      ...(step.picks && { picks: step.picks.slice(0, list) }),
      ...(step.prompt && {
        prompt: { ...step.prompt, prompt: step.prompt.prompt.slice(0, text * 20) },
      }),
    });
    fitting = {
      ...fitting,
      ...cut(fitting),
      ...(fitting.steps && { steps: fitting.steps.map(cut) }),
    };
  }
  return fitting;
}
