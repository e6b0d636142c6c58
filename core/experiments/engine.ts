// The engine: what one step of a run does, one kind at a time, on a dataset's frozen items. A step
// is split into units (a few articles, targets or stories) that chunks run; each unit answers the
// entries it labelled (an item for a matching entity), what its kind makes (picks, stories, texts,
// vectors) and the calls' usage. A chain feeds each step's outcome to the next (`advance`).
import * as Ai from '#core/ai';
import * as Prompts from '#core/prompts';
import * as Scoring from '#core/scoring';
import type { Implementation } from './catalog';
import {
  scoringTarget,
  type FrozenArticle,
  type FrozenTarget,
  type Frozen,
  type PoolEntry,
} from './datasets';
import { clusterByVectors, cosine, embedAll, type Story } from './stories';
import type { ClusterResult, PickResult, StepSettings, TextResult, Usage } from './types';

/** What a step reads: the dataset's items, narrowed by the steps before it in a chain. */
export type State = {
  frozen: Frozen;
  stories: Story[];
  /** Per target, the items the step before passed on (its pool); else the dataset's own. */
  pool?: Map<string, PoolEntry[]>;
};

export type Step = {
  index: number;
  implementation: Implementation;
  settings: StepSettings;
  prompt?: { id: string; title: string; prompt: string };
  model: Ai.AiModelRef;
};

/** One item labelled for one matching entity (an audience, a reader, a category, or all). */
export type Entry = { entity: string; item: string; label: string; score: number };

export type UnitResult = {
  entries: Entry[];
  picks?: PickResult[];
  clusters?: ClusterResult[];
  texts?: TextResult[];
  /** Stories this unit made or rewrote (clustering, preprocessing): the next step's stories. */
  stories?: Story[];
  vectors?: { vectors: number; dimensions: number; similaritySum: number; similarities: number };
  /** Pairs the model could not score (an outage, a bad answer): left out of the counts. */
  failed?: number;
  usage: Usage;
};

/** Items per scoring unit, targets per pick or embedding unit, stories per preprocessing unit. */
export const UNIT_SIZE = { score: 10, categorize: 10, pick: 5, embed: 5, preprocess: 5 } as const;
/** Candidates a pick reads (the pick task's limit). */
export const PICK_CANDIDATES = 20;
/** When a run gives no threshold: scores and similarities from this pass on; categories are assigned. */
export const DEFAULT_THRESHOLD = { score: 0, categorize: 0.5, embed: 0.5, cluster: 0.5 } as const;

export const ABOVE = 'Above threshold';
export const BELOW = 'Below threshold';
export const PICKED = 'Picked';
export const NOT_PICKED = 'Not picked';

const noUsage = (): Usage => ({ calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 });

export function addUsage(total: Usage, more: Usage): Usage {
  return {
    calls: total.calls + more.calls,
    inputTokens: total.inputTokens + more.inputTokens,
    outputTokens: total.outputTokens + more.outputTokens,
    costUsd: total.costUsd === null || more.costUsd === null ? null : total.costUsd + more.costUsd,
  };
}

const usageOf = (usage: Ai.AiUsage, calls = 1): Usage => ({
  calls,
  inputTokens: usage.inputTokens,
  outputTokens: usage.outputTokens,
  costUsd: usage.costUsd ?? null,
});

/** The stories' articles, or the articles, a step works on: the newest `articleLimit`. */
function material(
  step: Step,
  state: State,
): { id: string; title: string; summary: string; publishedAt: string; source?: string }[] {
  const limit = step.settings.articleLimit ?? Number.MAX_SAFE_INTEGER;
  if (step.implementation.material === 'stories') return state.stories.slice(0, limit);
  return state.frozen.articles.slice(0, limit);
}

function targets(step: Step, state: State): FrozenTarget[] {
  const type = step.implementation.subject === 'user' ? 'user' : 'audience';
  return state.frozen.targets.filter((target) => target.type === type);
}

/** Per target, the items it may see: everything, or in a chain the pool the step before passed on. */
function allowed(state: State, target: FrozenTarget): Set<string> | undefined {
  const pool = state.pool?.get(target.id);
  return pool && new Set(pool.map((entry) => entry.itemId));
}

/** The units a step splits into: lists of item or target ids (a clustering is one unit). */
export function unitsOf(step: Step, state: State): string[][] {
  const kind = step.implementation.kind;
  const split = (ids: string[], size: number) => {
    const units: string[][] = [];
    for (let start = 0; start < ids.length; start += size)
      units.push(ids.slice(start, start + size));
    return units;
  };
  switch (kind) {
    case 'score':
    case 'categorize':
      return split(
        material(step, state).map((item) => item.id),
        UNIT_SIZE[kind],
      );
    case 'pick':
    case 'embed':
      return split(
        targets(step, state).map((target) => target.id),
        UNIT_SIZE[kind],
      );
    case 'preprocess':
      return split(
        material(step, state).map((story) => story.id),
        UNIT_SIZE.preprocess,
      );
    case 'cluster':
      return material(step, state).length > 0 ? [[]] : [];
    case 'chain':
      throw new Error('A chain is not a step');
  }
}

export async function runUnit(
  step: Step,
  state: State,
  ids: string[],
  storeKey: string,
): Promise<UnitResult> {
  switch (step.implementation.kind) {
    case 'score':
    case 'categorize':
      return scoreUnit(step, state, ids, storeKey);
    case 'pick':
      return pickUnit(step, state, ids);
    case 'embed':
      return embedUnit(step, state, ids);
    case 'cluster':
      return clusterUnit(step, state);
    case 'preprocess':
      return preprocessUnit(step, state, ids);
    case 'chain':
      throw new Error('A chain is not a step');
  }
}

/**
 * Rates each item for each target (several targets per call) through scoring's own code, into
 * this run's store: a unit done again reads what it stored instead of asking the model again.
 */
async function scoreUnit(
  step: Step,
  state: State,
  ids: string[],
  storeKey: string,
): Promise<UnitResult> {
  const items = material(step, state).filter((item) => ids.includes(item.id));
  const all = targets(step, state);
  const setup: Scoring.ScoringSetup = {
    prompt: step.prompt!,
    model: step.model,
    processId: storeKey,
    experiment: true,
  };
  const totals = Scoring.noTotals();
  for (const item of items) {
    const mine = all.filter((target) => allowed(state, target)?.has(item.id) ?? true);
    if (mine.length === 0) continue;
    Scoring.addTotals(totals, await Scoring.scoreArticle(item, mine.map(scoringTarget), setup));
  }
  const stored = await Scoring.experimentScoresOf(
    storeKey,
    items.map((item) => item.id),
    all.map(scoringTarget),
    { promptId: step.prompt!.id, modelId: step.model.id },
  );
  return {
    entries: stored.map((score) => ({
      entity: score.matchingId,
      item: score.articleId,
      label: score.label,
      score: score.score,
    })),
    // Pairs the model could not rate: counted, never labelled (a run shows how many).
    failed: totals.failed,
    usage: {
      calls: totals.calls,
      inputTokens: totals.inputTokens,
      outputTokens: totals.outputTokens,
      costUsd: totals.unpricedCalls > 0 ? null : totals.costUsd,
    },
  };
}

/** Each target's candidates (its pool, by the chosen labels and threshold, best first) and the model's picks. */
async function pickUnit(step: Step, state: State, ids: string[]): Promise<UnitResult> {
  const { settings } = step;
  const items = new Map(material(step, state).map((item) => [item.id, item]));
  const labels = new Set(settings.selectionOfRelevance ?? []);
  const threshold = settings.threshold ?? DEFAULT_THRESHOLD.score;
  const result: UnitResult = { entries: [], picks: [], usage: noUsage() };
  for (const target of targets(step, state).filter((candidate) => ids.includes(candidate.id))) {
    const pool = state.pool?.get(target.id) ?? state.frozen.pools.get(target.id) ?? [];
    const candidates = pool
      .filter(
        (entry) => items.has(entry.itemId) && labels.has(entry.label) && entry.score >= threshold,
      )
      .sort((a, b) => b.score - a.score)
      .slice(0, Math.min(settings.articleLimit ?? PICK_CANDIDATES, PICK_CANDIDATES));
    if (candidates.length === 0) {
      result.picks!.push({ matchingEntity: target.id, picks: [] });
      continue;
    }
    const numbered = candidates.map((entry, index) => {
      const item = items.get(entry.itemId)!;
      return `${index + 1}. [${item.id}] ${item.title} (score ${entry.score.toFixed(2)})\n${item.summary.slice(0, 500)}`;
    });
    const answer = await Ai.ai().complete({
      model: step.model,
      task: Ai.pickBestContent,
      input: {
        audience: target.name.slice(0, 300),
        clues: target.clues.map((clue) => clue.slice(0, 300)).slice(0, 100),
        candidates: candidates.map((entry) => ({
          id: entry.itemId,
          title: items.get(entry.itemId)!.title.slice(0, 1000),
          summary: items.get(entry.itemId)!.summary.slice(0, 5000),
          score: Math.max(0, Math.min(1, entry.score)),
        })),
      },
      user: Prompts.render(step.prompt!, {
        audience: target.name,
        clues: target.clues,
        articles: numbered.join('\n\n'),
      }),
    });
    result.usage = addUsage(result.usage, usageOf(answer.usage));
    const known = new Set(candidates.map((entry) => entry.itemId));
    const chosen = [...new Set([answer.answer.primaryId, ...answer.answer.secondaryIds])]
      .filter((id) => known.has(id))
      .slice(0, settings.numOfPicks ?? 1);
    const scores = new Map(candidates.map((entry) => [entry.itemId, entry.score]));
    result.picks!.push({
      matchingEntity: target.id,
      header: answer.answer.primaryStoriesHeader,
      reason: answer.answer.verbalDescriptor,
      picks: chosen.map((id) => ({
        articleId: id,
        title: items.get(id)!.title,
        score: scores.get(id)!,
      })),
    });
    for (const entry of candidates) {
      result.entries.push({
        entity: target.id,
        item: entry.itemId,
        label: chosen.includes(entry.itemId) ? PICKED : NOT_PICKED,
        score: entry.score,
      });
    }
  }
  return result;
}

/** Each target's clues and the items as embeddings; an item passes when its similarity reaches the threshold. */
async function embedUnit(step: Step, state: State, ids: string[]): Promise<UnitResult> {
  const items = material(step, state);
  const mine = targets(step, state).filter((target) => ids.includes(target.id));
  const threshold = step.settings.threshold ?? DEFAULT_THRESHOLD.embed;
  const texts = [
    ...items,
    ...mine.map((target) => ({ title: target.clues.join('\n'), summary: '' })),
  ];
  const { vectors, usage, calls } = await embedAll(texts, step.model);
  const entries: Entry[] = [];
  let similaritySum = 0;
  mine.forEach((target, t) => {
    const own = vectors[items.length + t]!;
    const seen = allowed(state, target);
    items.forEach((item, i) => {
      if (seen && !seen.has(item.id)) return;
      const similarity = Math.max(0, Math.min(1, cosine(own, vectors[i]!)));
      similaritySum += similarity;
      entries.push({
        entity: target.id,
        item: item.id,
        label: similarity >= threshold ? ABOVE : BELOW,
        score: similarity,
      });
    });
  });
  return {
    entries,
    vectors: {
      vectors: vectors.length,
      dimensions: vectors[0]?.length ?? 0,
      similaritySum,
      similarities: entries.length,
    },
    usage: usageOf(usage, calls),
  };
}

export const ALL_ARTICLES = 'All articles';
export const ALL_STORIES = 'All stories';
export const IN_A_STORY = 'In a story with others';
export const ON_ITS_OWN = 'On its own';

/** Articles embedded and grouped into stories. */
async function clusterUnit(step: Step, state: State): Promise<UnitResult> {
  const articles = material(step, state);
  const { vectors, usage, calls } = await embedAll(articles, step.model);
  const stories = clusterByVectors(
    articles,
    vectors,
    step.settings.threshold ?? DEFAULT_THRESHOLD.cluster,
  );
  const titles = new Map(articles.map((article) => [article.id, article.title]));
  return {
    entries: stories.flatMap((story) =>
      story.articleIds.map((item) => ({
        entity: ALL_ARTICLES,
        item,
        label: story.articleIds.length > 1 ? IN_A_STORY : ON_ITS_OWN,
        score: story.articleIds.length,
      })),
    ),
    clusters: stories.map((story) => ({
      storyId: story.id,
      title: story.title,
      articles: story.articleIds.map((id) => titles.get(id) ?? id),
    })),
    // Without their texts (a result item stays small): `advance` joins them from the dataset.
    stories: stories.map((story) => ({ ...story, summary: '' })),
    vectors: {
      vectors: vectors.length,
      dimensions: vectors[0]?.length ?? 0,
      similaritySum: 0,
      similarities: 0,
    },
    usage: usageOf(usage, calls),
  };
}

const firstParagraph = (article: FrozenArticle) =>
  (
    article.content.split(/\n\s*\n/).find((paragraph) => paragraph.trim()) ?? article.summary
  ).trim();

/** One article as a preprocess type makes it. */
export function preprocess(
  article: FrozenArticle,
  type: NonNullable<StepSettings['preprocessType']>,
): string {
  const topics = () => Ai.topicsOf(`${article.title}\n${article.summary}`).join(', ');
  const summary = () => article.summary || firstParagraph(article);
  switch (type) {
    case 'FirstParagraph':
      return firstParagraph(article);
    case 'MetadataDescription':
      return article.summary;
    case 'Summary':
      return summary();
    case 'Topics':
      return topics();
    case 'TitleContent':
      return `${article.title}\n${article.content || article.summary}`;
    case 'TitleFirstParagraph':
      return `${article.title}\n${firstParagraph(article)}`;
    case 'TitleSummary':
      return `${article.title}\n${summary()}`;
    case 'TitleTopics':
      return `${article.title}\n${topics()}`;
  }
}

/** The articles' texts joined, numbered or not. */
export function concatenate(
  texts: string[],
  type: NonNullable<StepSettings['concatenationType']>,
): string {
  return texts
    .map((text, index) =>
      type === 'ArticleWithEnumeration' ? `Article ${index + 1}:\n${text}` : text,
    )
    .join('\n\n');
}

/** Each story's articles preprocessed and concatenated, then written as one story by the model. */
async function preprocessUnit(step: Step, state: State, ids: string[]): Promise<UnitResult> {
  const articles = new Map(state.frozen.articles.map((article) => [article.id, article]));
  const result: UnitResult = { entries: [], texts: [], stories: [], usage: noUsage() };
  for (const story of state.stories.filter((candidate) => ids.includes(candidate.id))) {
    const members = story.articleIds.flatMap((id) => articles.get(id) ?? []).slice(0, 50);
    if (members.length === 0) continue;
    const texts = members.map((article) =>
      preprocess(article, step.settings.preprocessType!).slice(0, 20_000),
    );
    const answer = await Ai.ai().complete({
      model: step.model,
      task: Ai.storyFromArticles,
      input: {
        articles: members.map((article, index) => ({
          title: article.title.slice(0, 1000),
          text: texts[index]!,
        })),
      },
      user: Prompts.render(step.prompt!, {
        articles: concatenate(texts, step.settings.concatenationType!),
        count: members.length,
      }),
    });
    result.usage = addUsage(result.usage, usageOf(answer.usage));
    result.texts!.push({ storyId: story.id, title: answer.answer.title, text: answer.answer.text });
    result.stories!.push({ ...story, title: answer.answer.title, summary: answer.answer.text });
    result.entries.push({ entity: ALL_STORIES, item: story.id, label: 'Written', score: 1 });
  }
  return result;
}

/**
 * What the next step of a chain reads after this one: scoring and embeddings pass on the items at
 * or over the threshold; picking its picks; categorization the categories assigned; clustering
 * and preprocessing their stories.
 */
export function advance(step: Step, state: State, results: UnitResult[]): State {
  const entries = results.flatMap((result) => result.entries);
  const kind = step.implementation.kind;
  if (kind === 'cluster' || kind === 'preprocess') {
    const made = results.flatMap((result) => result.stories ?? []);
    if (kind === 'cluster') {
      const articles = new Map(state.frozen.articles.map((article) => [article.id, article]));
      const stories = made.map((story) => ({
        ...story,
        summary: story.articleIds
          .map((id) => articles.get(id)?.summary ?? '')
          .join('\n\n')
          .slice(0, 20_000),
      }));
      return { ...state, stories, pool: undefined };
    }
    const rewritten = new Map(made.map((story) => [story.id, story]));
    return { ...state, stories: state.stories.map((story) => rewritten.get(story.id) ?? story) };
  }
  const threshold =
    step.settings.threshold ??
    (kind === 'categorize'
      ? DEFAULT_THRESHOLD.categorize
      : kind === 'embed'
        ? DEFAULT_THRESHOLD.embed
        : DEFAULT_THRESHOLD.score);
  const passes = (entry: Entry) =>
    kind === 'pick' ? entry.label === PICKED : entry.score >= threshold;
  const pool = new Map<string, PoolEntry[]>();
  for (const target of state.frozen.targets) pool.set(target.id, []);
  for (const entry of entries.filter(passes)) {
    const label = (Ai.RELEVANCE_LABELS as readonly string[]).includes(entry.label)
      ? (entry.label as Ai.RelevanceLabel)
      : Ai.labelOf(entry.score);
    pool.get(entry.entity)?.push({ itemId: entry.item, label, score: entry.score });
  }
  return { ...state, pool };
}
