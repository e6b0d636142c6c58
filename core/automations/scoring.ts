// The scoring automations: 'Score unscored articles' (after each import and on demand) and the
// 'Score articles experiment', both fanned out into chunks of articles that run in parallel and
// checkpoint one by one (core/jobs), so a crash or a redelivered chunk scores nothing twice.
import * as v from 'valibot';
import * as Ai from '#core/ai';
import * as Articles from '#core/articles';
import * as Audiences from '#core/audiences';
import { isVisibleError, mapPool } from '#core/common';
import * as Jobs from '#core/jobs';
import * as Prompts from '#core/prompts';
import * as Scoring from '#core/scoring';

/** Scoring looks at the newest articles only: a run's work is bounded however big the table. */
export const SCORING_ARTICLE_LIMIT = 500;
/** Articles per chunk message. */
export const ARTICLES_PER_CHUNK = 10;

/** Everything a chunk needs, fixed when the run is planned, so every chunk scores alike. */
type ScoringChunk = {
  articleIds: string[];
  targets: Scoring.MatchingTarget[];
  prompt: { id: string; prompt: string };
  model: Ai.AiModelRef;
};

function chunksOf(articleIds: string[], rest: Omit<ScoringChunk, 'articleIds'>): ScoringChunk[] {
  const chunks: ScoringChunk[] = [];
  for (let start = 0; start < articleIds.length; start += ARTICLES_PER_CHUNK)
    chunks.push({ articleIds: articleIds.slice(start, start + ARTICLES_PER_CHUNK), ...rest });
  return chunks;
}

async function activeAudienceTargets(audienceIds?: string[]): Promise<Scoring.MatchingTarget[]> {
  const audiences = audienceIds ? await Audiences.byIds(audienceIds) : await Audiences.list();
  return audiences
    .filter((audience) => audienceIds || audience.state === 'active')
    .map(Scoring.audienceTarget);
}

/** Scores a chunk's articles; the totals are the chunk's checkpoint. */
async function scoreChunk(
  chunk: ScoringChunk,
  context: Jobs.ChunkContext,
): Promise<Jobs.ChunkTotals> {
  const setup = {
    prompt: chunk.prompt,
    model: chunk.model,
    processId: context.processId,
    log: context.log,
  };
  const totals = Scoring.noTotals();
  for (const article of await Articles.byIds(chunk.articleIds)) {
    const done = await Scoring.scoreArticle(article, chunk.targets, setup);
    Scoring.addTotals(totals, done);
  }
  return totals;
}

export const scoreArticles = Jobs.defineChunkedJob({
  name: 'score-articles',
  title: 'Scoring articles',
  slot: 'scoring',
  input: v.object({}),
  async plan(_input, context): Promise<ScoringChunk[]> {
    const [targets, setup] = await Promise.all([
      activeAudienceTargets(),
      Scoring.defaultSetup(context.processId),
    ]);
    if (targets.length === 0) {
      context.log.info('No active audience to score articles for');
      return [];
    }
    const articles = await Articles.latest(SCORING_ARTICLE_LIMIT);
    const keys = { promptId: setup.prompt.id, modelId: setup.model.id };
    // Only articles with a pair left go into chunks: a run after a run has nothing to send.
    const left = await mapPool(articles, 16, async (article) =>
      (await Scoring.unscoredTargets(article.id, targets, keys)).length > 0 ? article.id : [],
    );
    const articleIds = left.flat();
    context.log.info(`Scoring ${articleIds.length} article(s) for ${targets.length} audience(s)`, {
      prompt: setup.prompt.id,
      model: setup.model.id,
    });
    return chunksOf(articleIds, {
      targets,
      prompt: { id: setup.prompt.id, prompt: setup.prompt.prompt },
      model: setup.model,
    });
  },
  runChunk: (chunk, _input, context) => scoreChunk(chunk, context),
});

export const ExperimentInput = v.object({
  promptId: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100))),
  modelId: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200))),
  articleLimit: v.optional(
    v.pipe(
      v.number('Please add article limit'),
      v.integer('Please add article limit'),
      v.minValue(1, 'Please add article limit'),
      v.maxValue(SCORING_ARTICLE_LIMIT, `An article limit is at most ${SCORING_ARTICLE_LIMIT}`),
    ),
    50,
  ),
  audienceIds: v.optional(v.pipe(v.array(v.string()), v.maxLength(100))),
});

/**
 * The experiment's scoring: the newest articles against the chosen audiences with a chosen prompt
 * and model (default: the current ones). Its scores are kept under that prompt and model, and its
 * output counts them per audience and label, the shape the experiments' runs report.
 */
export const scoreArticlesExperiment = Jobs.defineChunkedJob({
  name: 'score-articles-experiment',
  title: 'Scoring articles (experiment)',
  // Same slot as scoring: the two would otherwise pay twice for the same pairs at once.
  slot: 'scoring',
  input: ExperimentInput,
  async plan(input, context): Promise<ScoringChunk[]> {
    const fallback = await Scoring.defaultSetup(context.processId);
    const prompt = input.promptId ? await Prompts.byId(input.promptId) : fallback.prompt;
    if (!prompt) throw new Error(`No prompt ${input.promptId}`);
    const model = input.modelId ? await Ai.byId(input.modelId) : fallback.model;
    if (!model) throw new Error(`No AI model ${input.modelId}`);
    const targets = await activeAudienceTargets(input.audienceIds);
    const articles = await Articles.latest(input.articleLimit);
    return chunksOf(
      articles.map((article) => article.id),
      { targets, prompt: { id: prompt.id, prompt: prompt.prompt }, model },
    );
  },
  async runChunk(chunk, _input, context) {
    const totals = await scoreChunk(chunk, context);
    // Labels per audience for the experiment's report, from the scores the chunk's articles now have.
    const labels: Record<string, number> = {};
    for (const articleId of chunk.articleIds) {
      const { scores } = await Scoring.forArticle(articleId);
      for (const score of scores) {
        if (score.promptId !== chunk.prompt.id || score.modelId !== chunk.model.id) continue;
        if (!chunk.targets.some((target) => target.id === score.matchingId)) continue;
        const key = `${score.matchingId}|${score.label}`;
        labels[key] = (labels[key] ?? 0) + 1;
      }
    }
    return { ...totals, ...prefixed('label:', labels) };
  },
});

const prefixed = (prefix: string, counts: Record<string, number>) =>
  Object.fromEntries(Object.entries(counts).map(([key, n]) => [`${prefix}${key}`, n]));

/** An experiment's output as the experiments report it: per audience, counts per label and Total. */
export function experimentResults(
  output: Record<string, number>,
  titles: ReadonlyMap<string, string>,
): { matchingEntity: string; groupByMetricPerMatchingEntity: Record<string, number> }[] {
  const perAudience = new Map<string, Record<string, number>>();
  for (const [key, count] of Object.entries(output)) {
    if (!key.startsWith('label:')) continue;
    const [audienceId, label] = key.slice('label:'.length).split('|') as [string, string];
    const groups = perAudience.get(audienceId) ?? { Total: 0 };
    groups[label] = (groups[label] ?? 0) + count;
    groups.Total! += count;
    perAudience.set(audienceId, groups);
  }
  return [...perAudience].map(([audienceId, groups]) => ({
    matchingEntity: titles.get(audienceId) ?? audienceId,
    groupByMetricPerMatchingEntity: groups,
  }));
}

/**
 * After an import with new articles: score them. If scoring runs already (its plan was made
 * before these articles), the 'score-articles' schedule scores them within 15 minutes of its end.
 */
export async function scoreAfterImport(
  newArticles: number,
  context: Pick<Jobs.JobContext, 'log' | 'systemUserId'>,
): Promise<void> {
  if (newArticles === 0) return;
  try {
    await Jobs.enqueue(scoreArticles, {}, context.systemUserId);
    context.log.info(`Queued scoring of ${newArticles} new article(s)`);
  } catch (error) {
    if (!isVisibleError(error) || error.code !== 'jobs.busy') throw error;
    context.log.info('Scoring already runs; the scheduled scoring run takes the new articles');
  }
}
