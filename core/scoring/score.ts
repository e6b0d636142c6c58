// Scoring's engine: rating articles for targets with a setup and storing what the model said.
// Its own file so the concept's parts (prompt tests) read it without reading back the index.
import * as Ai from '#core/ai';
import * as Articles from '#core/articles';
import type { Audience } from '#core/audiences';
import { mapPool } from '#core/common';
import type { Logger } from '#core/logs';
import * as Prompts from '#core/prompts';
import { productionSetup } from './production';
import * as Store from './store';
import type { MatchingTarget, ScoreStore, SetupKeys } from './store';

/** The prompt and model a run scores with, the run itself, and where its scores go. */
export type ScoringSetup = {
  prompt: { id: string; prompt: string };
  model: Ai.AiModelRef;
  processId: string;
  log?: Logger;
  /** An experiment's (or prompt test's) scores stay with its run, out of production's store. */
  experiment?: boolean;
};

/** Targets per model call: one call rates an article for several audiences or readers at once. */
export const AUDIENCES_PER_CALL = 8;

/** Numbers a scoring chunk reports; a run's totals are their sums. */
export type ScoringTotals = {
  scored: number;
  alreadyScored: number;
  failed: number;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** Calls to a model whose price is not known: their cost is not in costUsd. */
  unpricedCalls: number;
};

export const noTotals = (): ScoringTotals => ({
  scored: 0,
  alreadyScored: 0,
  failed: 0,
  calls: 0,
  inputTokens: 0,
  outputTokens: 0,
  costUsd: 0,
  unpricedCalls: 0,
});

/** An audience is scored by its phrase: the clue that completes "I am one of those who…". */
export function audienceTarget(audience: Pick<Audience, 'id' | 'title'>): MatchingTarget {
  const clues = [audience.title];
  return {
    type: 'audience',
    id: audience.id,
    title: audience.title,
    clues,
    cluesHash: Store.cluesHash(clues),
  };
}

/** A reader as a scoring target: their own descriptors are the clues (matchingType 'user'). */
export function userTarget(user: { id: string; descriptors?: { clue: string }[] }): MatchingTarget {
  const clues = (user.descriptors ?? []).map((descriptor) => descriptor.clue);
  // The clues stand for the reader; their name is never sent to a model.
  return {
    type: 'user',
    id: user.id,
    title: clues.join('; ').slice(0, 500),
    clues,
    cluesHash: Store.cluesHash(clues),
  };
}

/** The prompt and model a scoring run uses when none is chosen: the production setup. */
export async function defaultSetup(processId: string, log?: Logger): Promise<ScoringSetup> {
  const { prompt, model } = await productionSetup();
  return { prompt, model, processId, log };
}

/** The keys production's scores are read by: its scoring setup's prompt version and model. */
export async function productionKeys(): Promise<SetupKeys> {
  const { prompt, model } = await productionSetup();
  return { promptId: prompt.id, modelId: model.id };
}

const keysOf = (setup: ScoringSetup): SetupKeys => ({
  promptId: setup.prompt.id,
  modelId: setup.model.id,
});
const storeOf = (setup: ScoringSetup): ScoreStore =>
  setup.experiment ? { experiment: { processId: setup.processId } } : {};

/** Which targets this article still lacks a score for, by this setup: one BatchGetItem. */
export async function unscoredTargets(
  articleId: string,
  targets: MatchingTarget[],
  setup: ScoringSetup,
): Promise<MatchingTarget[]> {
  return Store.unscoredTargets(articleId, targets, keysOf(setup), storeOf(setup));
}

/** Most scores and failures the admin's article page shows. */
export const ARTICLE_PAGE_LIMIT = 500;

/**
 * An article's production scores and failures for these audiences (the admin's article page):
 * BatchGetItem of the pairs' keys, best first.
 */
export async function forArticle(
  articleId: string,
  audiences: Pick<Audience, 'id' | 'title'>[],
): Promise<{ scores: Store.Score[]; failures: Store.ScoreFailure[] }> {
  const keys = await productionKeys();
  const { scores, failures } = await Store.forPairs(
    [articleId],
    audiences.slice(0, ARTICLE_PAGE_LIMIT).map(audienceTarget),
    keys,
  );
  return { scores: scores.sort((a, b) => b.score - a.score), failures };
}

/** Each article's best score by this setup among these audiences (the latest articles list): one BatchGetItem per 100 pairs. */
export async function bestFor(
  articleIds: string[],
  audiences: Pick<Audience, 'id' | 'title'>[],
  keys: SetupKeys,
): Promise<Map<string, Pick<Store.Score, 'label' | 'score' | 'matchingId'>>> {
  const { scores } = await Store.forPairs(articleIds, audiences.map(audienceTarget), keys);
  const best = new Map<string, Store.Score>();
  for (const score of scores) {
    const known = best.get(score.articleId);
    if (!known || known.score < score.score) best.set(score.articleId, score);
  }
  return best;
}

/** Most scored articles User Management shows for one reader. */
export const READER_SCORES_SHOWN = 20;

export type ReaderScore = Pick<
  Store.Score,
  'articleId' | 'label' | 'score' | 'reason' | 'relevantClues' | 'publishedAt'
> & { title: string; source: string };

/**
 * A reader's feed list: their articles scored by production's setup for their current clues,
 * best label first and newest within a label, with the counts per label. One Query of the
 * reader's ranked entries (one page), one BatchGetItem of their count shards and one of the
 * page's articles, however many scores the reader has.
 */
export async function forReader(
  user: { id: string; descriptors?: { clue: string }[] },
  { limit = READER_SCORES_SHOWN, cursor }: { limit?: number; cursor?: string | null } = {},
): Promise<{ scores: ReaderScore[]; counts: Store.LabelCounts; cursor: string | null }> {
  const target = userTarget(user);
  const keys = await productionKeys();
  const [page, counts] = await Promise.all([
    Store.ranked(target, keys, { limit, cursor }),
    Store.labelCounts(target, keys),
  ]);
  const articles = new Map(
    (await Articles.byIds(page.scores.map((score) => score.articleId))).map((article) => [
      article.id,
      article,
    ]),
  );
  const scores = page.scores.flatMap(
    ({ articleId, label, score, reason, relevantClues, publishedAt }) => {
      const article = articles.get(articleId);
      // Cleared meanwhile (Clear table: Articles forgets the scores right after).
      if (!article) return [];
      const { title, source } = article;
      return [{ articleId, label, score, reason, relevantClues, publishedAt, title, source }];
    },
  );
  return { scores, counts, cursor: page.cursor };
}

/** Deletes every score of every audience and reader (Clear table: Articles). */
export async function forgetAll(targets: Pick<MatchingTarget, 'type' | 'id'>[]): Promise<number> {
  const deleted = await mapPool(targets, 8, (target) => Store.forgetTarget(target));
  return deleted.reduce((sum, n) => sum + n, 0);
}

type ArticleForScoring = Pick<Articles.Article, 'id' | 'title' | 'summary' | 'publishedAt'> & {
  category?: string;
  source?: string;
  importedAt?: string;
};

/**
 * Scores one article against every target it lacks a score for, several targets per call.
 * Answers what it did; never throws for a model's bad answer or outage (those become failures),
 * only for configuration errors and storage failures, which stop the chunk so it is retried.
 */
export async function scoreArticle(
  article: ArticleForScoring,
  targets: MatchingTarget[],
  setup: ScoringSetup,
): Promise<ScoringTotals> {
  const totals = noTotals();
  const left = await unscoredTargets(article.id, targets, setup);
  const failedBefore = setup.experiment
    ? new Set<string>()
    : await Store.failedTargets(article.id, left, keysOf(setup));
  totals.alreadyScored = targets.length - left.length;
  for (let start = 0; start < left.length; start += AUDIENCES_PER_CALL) {
    const group = left.slice(start, start + AUDIENCES_PER_CALL);
    addTotals(totals, await scoreGroup(article, group, setup, failedBefore));
  }
  return totals;
}

/** Adds `more` into `totals` (a chunk's articles, a prompt test's prompts). */
export function addTotals(totals: ScoringTotals, more: ScoringTotals): void {
  for (const key of Object.keys(totals) as (keyof ScoringTotals)[]) totals[key] += more[key];
}

const articleInput = (article: ArticleForScoring): Ai.ArticleInput => ({
  title: article.title.slice(0, 1000),
  summary: (article.summary ?? '').slice(0, 20_000),
  ...(article.category && { category: article.category }),
  // The local ranker weighs a reader's taste for sources; a model reads it in the prompt.
  ...(article.source && { source: article.source.slice(0, 200) }),
});

/** The user message: the editor's prompt, filled for one target or for a group of them. */
function render(setup: ScoringSetup, article: ArticleForScoring, group: MatchingTarget[]) {
  const single = group.length === 1 ? group[0] : undefined;
  return Prompts.render(setup.prompt, {
    title: article.title,
    summary: article.summary ?? '',
    category: article.category,
    source: article.source,
    audience: single
      ? single.title
      : 'several audiences; rate the article once for each audience id below',
    clues: single
      ? single.clues
      : group.map((target) => `[${target.id}] ${target.clues.join('; ')}`),
  });
}

export type Rating = Ai.RelevanceAnswer;
export type Ratings = { ratings: Map<string, Rating>; usage: Ai.AiUsage } | { error: string };

/**
 * Asks the model how relevant a text is to each target of a group: one call, several targets.
 * A bad answer or an outage comes back as `error` (the caller records it); a configuration
 * error throws, because it fails every call alike.
 */
export async function rate(
  article: ArticleForScoring,
  group: MatchingTarget[],
  setup: ScoringSetup,
): Promise<Ratings> {
  const user = render(setup, article, group);
  try {
    if (group.length === 1) {
      const target = group[0]!;
      const answer = await Ai.ai().complete({
        model: setup.model,
        task: Ai.articleRelevance,
        input: { article: articleInput(article), clues: target.clues },
        user,
      });
      return { ratings: new Map([[target.id, answer.answer]]), usage: answer.usage };
    }
    const answer = await Ai.ai().complete({
      model: setup.model,
      task: Ai.articleRelevanceBatch,
      input: {
        article: articleInput(article),
        audiences: group.map(({ id, clues }) => ({ id, clues })),
      },
      user,
    });
    return {
      ratings: new Map(
        answer.answer.results.map(({ audienceId, ...rating }) => [audienceId, rating]),
      ),
      usage: answer.usage,
    };
  } catch (error) {
    if (!Ai.isAiError(error) || failsEveryCall(error)) throw error;
    setup.log?.error(`Could not rate "${article.title}"`, { articleId: article.id, error });
    return { error: error.message };
  }
}

async function scoreGroup(
  article: ArticleForScoring,
  group: MatchingTarget[],
  setup: ScoringSetup,
  failedBefore: ReadonlySet<string>,
): Promise<ScoringTotals> {
  const totals = { ...noTotals(), calls: 1 };
  const rated = await rate(article, group, setup);
  if ('error' in rated) {
    await Promise.all(group.map((target) => failed(article, target, setup, rated.error)));
    totals.failed = group.length;
    return totals;
  }
  const { ratings, usage } = rated;
  totals.inputTokens = usage.inputTokens;
  totals.outputTokens = usage.outputTokens;
  totals.costUsd = usage.costUsd ?? 0;
  totals.unpricedCalls = usage.costUsd === undefined ? 1 : 0;
  const share = (n: number) => Math.round(n / group.length);
  const outcomes = await Promise.all(
    group.map(async (target) => {
      const rating = ratings.get(target.id);
      if (!rating) {
        await failed(article, target, setup, NO_RATING);
        return 'failed' as const;
      }
      const stored = await storeScore(article, target, setup, rating, {
        inputTokens: share(usage.inputTokens),
        outputTokens: share(usage.outputTokens),
        ...(usage.costUsd !== undefined && { costUsd: usage.costUsd / group.length }),
      });
      if (stored && failedBefore.has(target.id)) {
        await Store.forgetFailure(article.id, target, keysOf(setup));
      }
      return stored ? ('scored' as const) : ('alreadyScored' as const);
    }),
  );
  for (const outcome of outcomes) totals[outcome]++;
  return totals;
}

/**
 * Errors that fail every call alike (no key, a refused key, an unknown model): the chunk stops
 * and is retried, then the run ends Failed, instead of a failure recorded against every pair.
 * A 400 may come from one article (too long), so it stays that pair's failure.
 */
function failsEveryCall(error: Ai.AiError): boolean {
  if (error instanceof Ai.AiNotConfigured) return true;
  return error instanceof Ai.AiRejected && [401, 403, 404].includes(error.status ?? 0);
}

export const NO_RATING = 'The model gave no rating for this audience';

/** Keeps only the clues the target has (a model may rephrase them), spelled as the target has them. */
export function matchedClues(said: string[], clues: string[]): string[] {
  const byText = new Map(clues.map((clue) => [clue.trim().toLowerCase(), clue]));
  return [...new Set(said.flatMap((clue) => byText.get(clue.trim().toLowerCase()) ?? []))];
}

/** Lower-case words of three letters or more: what two texts share when they talk of the same. */
const wordsOf = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []);

/**
 * The clue an article most plausibly matched when a model rated it relevant but named none: the
 * one sharing most words with the model's reason, then with the article; the first on a tie.
 */
function nearestClue(clues: string[], reason: string, article: ArticleForScoring): string {
  const said = wordsOf(reason);
  const text = wordsOf(`${article.title} ${article.summary ?? ''}`);
  const shared = (clue: string, words: Set<string>) =>
    [...wordsOf(clue)].filter((word) => words.has(word)).length;
  let best = clues[0]!;
  let bestScore = -1;
  for (const clue of clues) {
    const score = shared(clue, said) * 2 + shared(clue, text);
    if (score > bestScore) [best, bestScore] = [clue, score];
  }
  return best;
}

/**
 * The clues a score names: those the model copied. A story rated from 'Slightly Relevant' up
 * matched a clue, named or not: a target's only clue, or else its nearest (never none).
 */
function namedClues(rating: Rating, target: MatchingTarget, article: ArticleForScoring): string[] {
  const named = matchedClues(rating.relevantClues, target.clues);
  if (named.length > 0 || rating.label === 'Not Relevant' || target.clues.length === 0) {
    return named;
  }
  return [nearestClue(target.clues, rating.reason, article)];
}

/** The model's reason, or, when it gave none, one that names the clue matched. */
function reasonOf(rating: Rating, clues: string[]): string {
  const given = rating.reason.trim().slice(0, 1000);
  if (given) return given;
  const label = rating.label.charAt(0) + rating.label.slice(1).toLowerCase();
  return clues[0] ? `${label} to "${clues[0]}".` : `${label}.`;
}

async function storeScore(
  article: ArticleForScoring,
  target: MatchingTarget,
  setup: ScoringSetup,
  rating: Rating,
  usage: { inputTokens: number; outputTokens: number; costUsd?: number },
): Promise<boolean> {
  const relevantClues = namedClues(rating, target, article);
  return Store.storeScore(
    article.id,
    target,
    keysOf(setup),
    {
      label: rating.label,
      score: Math.max(0, Math.min(1, rating.score)),
      reason: reasonOf(rating, relevantClues),
      relevantClues,
      publishedAt: article.publishedAt,
      processId: setup.processId,
      ...usage,
    },
    storeOf(setup),
  );
}

/** A pair the model could not score: recorded for production (tried again next run); an experiment only counts it. */
async function failed(
  article: ArticleForScoring,
  target: MatchingTarget,
  setup: ScoringSetup,
  error: string,
): Promise<void> {
  if (setup.experiment) return;
  await Store.recordFailure(article.id, target, keysOf(setup), {
    error,
    processId: setup.processId,
    // An article given without its import time (a prompt test's) counts as imported now.
    importedAt: article.importedAt ?? new Date().toISOString(),
  });
}
