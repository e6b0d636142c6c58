// Runs side by side: two or more successful runs of one implementation, their label
// distributions per matching entity, how far they agree (share of identical labels and Cohen's
// kappa over the items both labelled), the items whose label or pick differs, and what each cost.
import { RELEVANCE_LABELS } from '#core/ai';
import { csvText, VisibleError, type CsvValue } from '#core/common';
import { namesIn } from './datasets';
import { ABOVE, BELOW, NOT_PICKED, PICKED, type Entry } from './engine';
import { chunksOf } from './results';
import { readRun } from './run-store';
import { viewOf } from './runs';
import type { Agreement, Comparison, RunOutput, RunView } from './types';

export const COMPARE_LIMITS = { runs: 6, differences: 500 } as const;

export const COMPARE_MESSAGES = {
  tooFew: 'Please choose at least two runs to compare',
  tooMany: `Please choose at most ${COMPARE_LIMITS.runs} runs to compare`,
  unknown: 'One of these runs no longer exists',
  notDone: 'Only runs that ended Success can be compared',
  mixed: 'Only runs of one implementation can be compared',
} as const;

const LABEL_ORDER: string[] = [...RELEVANCE_LABELS, PICKED, NOT_PICKED, ABOVE, BELOW];

/** Cohen's kappa of two raters' labels of the same items; null when chance agreement is total. */
export function cohensKappa(pairs: [string, string][]): number | null {
  const n = pairs.length;
  if (n === 0) return null;
  const observed = pairs.filter(([a, b]) => a === b).length / n;
  const countA = new Map<string, number>();
  const countB = new Map<string, number>();
  for (const [a, b] of pairs) {
    countA.set(a, (countA.get(a) ?? 0) + 1);
    countB.set(b, (countB.get(b) ?? 0) + 1);
  }
  let expected = 0;
  for (const [label, count] of countA) expected += (count / n) * ((countB.get(label) ?? 0) / n);
  if (expected >= 1) return null;
  return (observed - expected) / (1 - expected);
}

type Loaded = { view: RunView & { output: RunOutput }; entries: Map<string, Entry> };

async function load(id: string): Promise<Loaded> {
  const item = await readRun(id);
  if (!item) throw new VisibleError('experiment.unknown_run', COMPARE_MESSAGES.unknown, 404);
  const view = await viewOf(item, true);
  if (view.status !== 'Success' || !view.output || !item.processId) {
    throw new VisibleError('experiment.not_done', COMPARE_MESSAGES.notDone, 409);
  }
  const kept = await chunksOf(item.processId);
  const last = Math.max(-1, ...kept.keys());
  const entries = new Map(
    (kept.get(last) ?? [])
      .flatMap((result) => result.entries)
      .map((entry) => [`${entry.entity}|${entry.item}`, entry]),
  );
  return { view: view as Loaded['view'], entries };
}

/**
 * Compares runs; `differences` bounds the differing items listed (the page shows the first 500,
 * the CSV asks for them all: a dataset's items, at most 200 articles for 100 targets).
 */
export async function compare(
  ids: string[],
  { differences: shown = COMPARE_LIMITS.differences }: { differences?: number } = {},
): Promise<Comparison> {
  const unique = [...new Set(ids.filter((id) => typeof id === 'string' && id))];
  if (unique.length < 2)
    throw new VisibleError('experiment.compare_few', COMPARE_MESSAGES.tooFew, 400);
  if (unique.length > COMPARE_LIMITS.runs) {
    throw new VisibleError('experiment.compare_many', COMPARE_MESSAGES.tooMany, 400);
  }
  const runs: Loaded[] = [];
  for (const id of unique) runs.push(await load(id));
  const implementation = runs[0]!.view.expImplementationId;
  if (runs.some((run) => run.view.expImplementationId !== implementation)) {
    throw new VisibleError('experiment.compare_mixed', COMPARE_MESSAGES.mixed, 400);
  }

  const seen = new Set<string>();
  for (const run of runs) {
    for (const group of run.view.output.resultsPerMatchingEntity) {
      for (const label of Object.keys(group.groupByMetricPerMatchingEntity)) seen.add(label);
    }
  }
  seen.delete('Total');
  const labels = [
    ...LABEL_ORDER.filter((label) => seen.has(label)),
    ...[...seen].filter((label) => !LABEL_ORDER.includes(label)).sort(),
  ];

  const entities = [
    ...new Set(
      runs.flatMap((run) =>
        run.view.output.resultsPerMatchingEntity.map((group) => group.matchingEntity),
      ),
    ),
  ];
  const distributions = entities.map((matchingEntity) => ({
    matchingEntity,
    perRun: Object.fromEntries(
      runs.map((run) => [
        run.view.id,
        run.view.output.resultsPerMatchingEntity.find(
          (group) => group.matchingEntity === matchingEntity,
        )?.groupByMetricPerMatchingEntity ?? {},
      ]),
    ),
  }));

  const agreement: Agreement[] = [];
  for (let i = 0; i < runs.length; i++) {
    for (let j = i + 1; j < runs.length; j++) {
      const a = runs[i]!;
      const b = runs[j]!;
      const pairs: [string, string][] = [];
      for (const [key, entry] of a.entries) {
        const other = b.entries.get(key);
        if (other) pairs.push([entry.label, other.label]);
      }
      const identical = pairs.filter(([x, y]) => x === y).length;
      agreement.push({
        a: a.view.id,
        b: b.view.id,
        shared: pairs.length,
        identical,
        share: pairs.length === 0 ? null : identical / pairs.length,
        kappa: cohensKappa(pairs),
      });
    }
  }

  // Names for the differing items: the datasets' titles and targets' names (one item each). A
  // story a run's own clustering made is named as the dataset never knew it: by its id,
  // 'story-{newest article}', and its title, that article's (clusterByVectors).
  const titles = new Map<string, string>();
  const names = new Map<string, string>();
  for (const datasetId of new Set(runs.map((run) => run.view.input.dataset))) {
    const known = await namesIn(datasetId);
    for (const [id, title] of Object.entries(known.titles)) titles.set(id, title);
    for (const [id, name] of Object.entries(known.names)) names.set(id, name);
  }
  const keys = [...new Set(runs.flatMap((run) => [...run.entries.keys()]))].sort();
  const differing = keys.filter((key) => {
    const labelsOf = runs.map((run) => run.entries.get(key)?.label ?? '—');
    return new Set(labelsOf).size > 1;
  });
  const differences = differing.slice(0, shown).map((key) => {
    const [entity, item] = key.split('|') as [string, string];
    return {
      matchingEntity: names.get(entity) ?? entity,
      item: titles.get(item) ?? titles.get(item.replace(/^story-/, '')) ?? item,
      perRun: Object.fromEntries(
        runs.map((run) => [run.view.id, run.entries.get(key)?.label ?? '—']),
      ),
    };
  });

  return {
    implementation,
    runs: runs.map(({ view }) => ({
      id: view.id,
      name: view.name,
      usage: view.output.usage,
      model: view.output.model,
      ...(view.output.prompt && { prompt: view.output.prompt }),
      items: view.output.items,
      durationMs: view.output.durationMs,
    })),
    labels,
    distributions,
    agreement,
    differences,
    differencesTotal: differing.length,
  };
}

/** What the comparison shows, as one CSV: a section column, then its rows. */
export function comparisonCsv(comparison: Comparison): string {
  const nameOf = new Map(comparison.runs.map((run) => [run.id, run.name]));
  const rows: CsvValue[][] = [['section', 'run', 'matching entity', 'item', 'label', 'value']];
  for (const run of comparison.runs) {
    rows.push(['run', run.name, '', '', 'model', run.model.name]);
    rows.push(['run', run.name, '', '', 'prompt', run.prompt?.title ?? '']);
    rows.push(['run', run.name, '', '', 'input tokens', run.usage.inputTokens]);
    rows.push(['run', run.name, '', '', 'output tokens', run.usage.outputTokens]);
    rows.push(['run', run.name, '', '', 'cost (USD)', run.usage.costUsd ?? 'cost unknown']);
    rows.push(['run', run.name, '', '', 'duration (ms)', run.durationMs]);
  }
  for (const distribution of comparison.distributions) {
    for (const [runId, groups] of Object.entries(distribution.perRun)) {
      for (const label of [...comparison.labels, 'Total']) {
        rows.push([
          'distribution',
          nameOf.get(runId) ?? runId,
          distribution.matchingEntity,
          '',
          label,
          groups[label] ?? 0,
        ]);
      }
    }
  }
  for (const pair of comparison.agreement) {
    const both = `${nameOf.get(pair.a)} / ${nameOf.get(pair.b)}`;
    rows.push(['agreement', both, '', '', 'items both labelled', pair.shared]);
    rows.push(['agreement', both, '', '', 'share identical', pair.share]);
    rows.push(['agreement', both, '', '', "Cohen's kappa", pair.kappa]);
  }
  for (const difference of comparison.differences) {
    for (const [runId, label] of Object.entries(difference.perRun)) {
      rows.push([
        'difference',
        nameOf.get(runId) ?? runId,
        difference.matchingEntity,
        difference.item,
        label,
        '',
      ]);
    }
  }
  return csvText(rows);
}
