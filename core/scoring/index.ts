// Scoring: how relevant each article is to each audience (and later each user), by a prompt and a
// model. A pair is scored once per prompt and model: before a call, the article's stored scores
// say which pairs are left; a score is written with a condition, so a redelivered chunk stores
// nothing twice. A pair the model could not score is recorded as a failure and stays unscored,
// so the next run tries it again; one bad answer never stops a run.
import type { EntityItem } from 'electrodb';
import * as Ai from '#core/ai';
import * as Articles from '#core/articles';
import type { Audience } from '#core/audiences';
import { mapPool } from '#core/common';
import { deleteAll, isConditionFailure } from '#core/db';
import type { Logger } from '#core/logs';
import * as Prompts from '#core/prompts';
import { ArticleScoreEntity, MATCHING_TYPES } from './entity';
import { productionSetup } from './production';
import { ScoreFailureEntity } from './score-failure-entity';

export { ArticleScoreEntity, ScoreFailureEntity, MATCHING_TYPES };
export {
  testPrompts,
  PROMPT_TESTING_MESSAGE,
  PROMPT_TEST_ARTICLES,
  type PromptTestResult,
} from './prompt-testing';
export {
  productionSetup,
  promote,
  ProductionScoringEntity,
  PRODUCTION_MESSAGES,
  type ProductionSetup,
} from './production';
export type ArticleScore = EntityItem<typeof ArticleScoreEntity>;
export type ScoreFailure = EntityItem<typeof ScoreFailureEntity>;
export type MatchingType = (typeof MATCHING_TYPES)[number];

/** What an article is scored against: an audience (its phrase) or a user (their clues). */
export type MatchingTarget = { type: MatchingType; id: string; title: string; clues: string[] };

/** The prompt and model a run scores with, and the run itself. */
export type ScoringSetup = {
  prompt: { id: string; prompt: string };
  model: Ai.AiModelRef;
  processId: string;
  log?: Logger;
};

/** Audiences per model call: one call rates an article for several audiences at once. */
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
  return { type: 'audience', id: audience.id, title: audience.title, clues: [audience.title] };
}

/** A reader as a scoring target: their own descriptors are the clues (matchingType 'user'). */
export function userTarget(user: { id: string; descriptors?: { clue: string }[] }): MatchingTarget {
  const clues = (user.descriptors ?? []).map((descriptor) => descriptor.clue);
  // The clues stand for the reader; their name is never sent to a model.
  return { type: 'user', id: user.id, title: clues.join('; ').slice(0, 500), clues };
}

/** The prompt and model a scoring run uses when none is chosen: the production setup. */
export async function defaultSetup(processId: string, log?: Logger): Promise<ScoringSetup> {
  const { prompt, model } = await productionSetup();
  return { prompt, model, processId, log };
}

const pairKey = (target: Pick<MatchingTarget, 'type' | 'id'>) => `${target.type}#${target.id}`;

/** Which targets this article still lacks a score for, by this prompt and model: one Query. */
export async function unscoredTargets(
  articleId: string,
  targets: MatchingTarget[],
  keys: { promptId: string; modelId: string },
): Promise<MatchingTarget[]> {
  const scored = await pairsWith(ArticleScoreEntity, articleId, keys);
  return targets.filter((target) => !scored.has(pairKey(target)));
}

/** The pairs of an article that have an item of this kind (score or failure), by prompt and model. */
async function pairsWith(
  entity: typeof ArticleScoreEntity | typeof ScoreFailureEntity,
  articleId: string,
  { promptId, modelId }: { promptId: string; modelId: string },
): Promise<Set<string>> {
  const { data } = await (entity as typeof ArticleScoreEntity).query
    .byArticle({ articleId, promptId, modelId })
    .go({ pages: 'all', attributes: ['matchingType', 'matchingId'] });
  return new Set(data.map((item) => pairKey({ type: item.matchingType, id: item.matchingId })));
}

/** Most scores and failures the admin's article page reads (one page of each Query). */
export const ARTICLE_PAGE_LIMIT = 500;

/** An article's scores and failures, newest first (the admin's article page): bounded reads. */
export async function forArticle(
  articleId: string,
): Promise<{ scores: ArticleScore[]; failures: ScoreFailure[] }> {
  const [scores, failures] = await Promise.all([
    ArticleScoreEntity.query.byArticle({ articleId }).go({ limit: ARTICLE_PAGE_LIMIT }),
    ScoreFailureEntity.query.byArticle({ articleId }).go({ limit: ARTICLE_PAGE_LIMIT }),
  ]);
  const newest = <T extends { createdAt?: string; lastTriedAt?: string }>(items: T[]) =>
    items.sort((a, b) =>
      (b.createdAt ?? b.lastTriedAt ?? '').localeCompare(a.createdAt ?? a.lastTriedAt ?? ''),
    );
  return { scores: newest(scores.data), failures: newest(failures.data) };
}

/** An article's best audience score, for the latest articles list: one bounded, projected Query. */
export async function bestFor(
  articleId: string,
): Promise<Pick<ArticleScore, 'label' | 'score' | 'matchingId'> | undefined> {
  const { data } = await ArticleScoreEntity.query
    .byArticle({ articleId })
    .where(({ matchingType }, { eq }) => eq(matchingType, 'audience'))
    .go({ limit: 100, attributes: ['label', 'score', 'matchingId', 'matchingType'] });
  return data.sort((a, b) => b.score - a.score)[0];
}

/** An audience's or user's scores by one prompt and model, newest published first, bounded. */
export async function recentFor(
  target: Pick<MatchingTarget, 'type' | 'id'>,
  { promptId, modelId }: { promptId: string; modelId: string },
  limit: number,
): Promise<ArticleScore[]> {
  const { data } = await ArticleScoreEntity.query
    .byMatching({ matchingType: target.type, matchingId: target.id, promptId, modelId })
    .go({ order: 'desc', limit });
  return data;
}

/** Most scored articles User Management shows for one reader. */
export const READER_SCORES_SHOWN = 20;

export type ReaderScore = Pick<
  ArticleScore,
  'articleId' | 'label' | 'score' | 'reason' | 'relevantClues' | 'publishedAt'
> & { title: string; source: string };

/**
 * A reader's articles as scored by the production scoring prompt and model, newest published first,
 * with each article's title and source: what their feed is made from (User Management shows them,
 * so an operator can tell why a feed is empty). One bounded Query of the reader's scores and one
 * BatchGet of their articles.
 */
export async function forReader(
  userId: string,
  limit = READER_SCORES_SHOWN,
): Promise<ReaderScore[]> {
  const { prompt, model } = await productionSetup();
  const scores = await recentFor(
    { type: 'user', id: userId },
    { promptId: prompt.id, modelId: model.id },
    limit,
  );
  const articles = new Map(
    (await Articles.byIds(scores.map((score) => score.articleId))).map((article) => [
      article.id,
      article,
    ]),
  );
  return scores.flatMap(({ articleId, label, score, reason, relevantClues, publishedAt }) => {
    const article = articles.get(articleId);
    // Cleared meanwhile (Clear table: Articles forgets the scores right after).
    if (!article) return [];
    const { title, source } = article;
    return [{ articleId, label, score, reason, relevantClues, publishedAt, title, source }];
  });
}

/** Deletes every score and failure of these articles (Clear table: Articles). */
export async function forgetArticles(articleIds: string[]): Promise<void> {
  await mapPool(articleIds, 8, async (articleId) => {
    const [scores, failures] = await Promise.all([
      ArticleScoreEntity.query.byArticle({ articleId }).go({
        pages: 'all',
        attributes: ['articleId', 'promptId', 'modelId', 'matchingType', 'matchingId'],
      }),
      ScoreFailureEntity.query.byArticle({ articleId }).go({
        pages: 'all',
        attributes: ['articleId', 'promptId', 'modelId', 'matchingType', 'matchingId'],
      }),
    ]);
    await Promise.all([
      deleteAll(ArticleScoreEntity, scores.data),
      deleteAll(ScoreFailureEntity, failures.data),
    ]);
  });
}

type ArticleForScoring = Pick<Articles.Article, 'id' | 'title' | 'summary' | 'publishedAt'> & {
  category?: string;
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
  const keys = { promptId: setup.prompt.id, modelId: setup.model.id };
  const [left, failedBefore] = await Promise.all([
    unscoredTargets(article.id, targets, keys),
    pairsWith(ScoreFailureEntity, article.id, keys),
  ]);
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
});

/** The user message: the editor's prompt, filled for one target or for a group of them. */
function render(
  setup: ScoringSetup,
  article: ArticleForScoring & { source?: string },
  group: MatchingTarget[],
) {
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
  article: ArticleForScoring & { source?: string },
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
    await Promise.all(group.map((target) => recordFailure(article, target, setup, rated.error)));
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
        await recordFailure(article, target, setup, NO_RATING);
        return 'failed' as const;
      }
      const stored = await storeScore(article, target, setup, rating, {
        inputTokens: share(usage.inputTokens),
        outputTokens: share(usage.outputTokens),
        ...(usage.costUsd !== undefined && { costUsd: usage.costUsd / group.length }),
      });
      if (stored && failedBefore.has(pairKey(target))) await forgetFailure(article, target, setup);
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

/**
 * The clues a score names: those the model copied. A target with a single clue (an audience's
 * title) that the model rated from 'Slightly Relevant' up matched that clue, named or not.
 */
function namedClues(rating: Rating, target: MatchingTarget): string[] {
  const named = matchedClues(rating.relevantClues, target.clues);
  if (named.length > 0 || rating.label === 'Not Relevant' || target.clues.length !== 1) {
    return named;
  }
  return target.clues;
}

async function storeScore(
  article: ArticleForScoring,
  target: MatchingTarget,
  setup: ScoringSetup,
  rating: Rating,
  usage: { inputTokens: number; outputTokens: number; costUsd?: number },
): Promise<boolean> {
  const keys = {
    articleId: article.id,
    matchingType: target.type,
    matchingId: target.id,
    promptId: setup.prompt.id,
    modelId: setup.model.id,
  };
  try {
    await ArticleScoreEntity.create({
      ...keys,
      label: rating.label,
      score: Math.max(0, Math.min(1, rating.score)),
      reason: rating.reason.trim().slice(0, 1000) || `${rating.label}.`,
      relevantClues: namedClues(rating, target),
      publishedAt: article.publishedAt,
      processId: setup.processId,
      ...usage,
      createdAt: new Date().toISOString(),
    }).go();
  } catch (error) {
    // Scored already (a redelivered chunk, a second worker): the first score stands.
    if (isConditionFailure(error)) return false;
    throw error;
  }
  return true;
}

/** A pair that failed before and is scored now: its failure goes. */
async function forgetFailure(
  article: ArticleForScoring,
  target: MatchingTarget,
  setup: ScoringSetup,
) {
  await ScoreFailureEntity.delete({
    articleId: article.id,
    matchingType: target.type,
    matchingId: target.id,
    promptId: setup.prompt.id,
    modelId: setup.model.id,
  }).go();
}

async function recordFailure(
  article: ArticleForScoring,
  target: MatchingTarget,
  setup: ScoringSetup,
  error: string,
) {
  await ScoreFailureEntity.upsert({
    articleId: article.id,
    matchingType: target.type,
    matchingId: target.id,
    promptId: setup.prompt.id,
    modelId: setup.model.id,
    error: error.slice(0, 1000),
    processId: setup.processId,
    lastTriedAt: new Date().toISOString(),
  })
    .add({ attempts: 1 })
    .go();
}
