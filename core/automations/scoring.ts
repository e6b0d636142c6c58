// The scoring automations (ADR 0033): 'Score unscored articles' scores articles against every
// active audience and every reader with clues, and the 'Score articles experiment' scores into its
// own run. Both fan out into chunks of articles x targets that run in parallel and checkpoint one
// by one (core/jobs), so a crash or a redelivered chunk scores nothing twice. A run covers every
// target (schedule, on demand, after an import), or the targets whose clues just changed (a new
// reader, a clue edit) only: for each, the articles imported after its watermark (ADR 0065), or
// the newest window, looked up pair by pair, for a target without one.
import * as v from 'valibot';
import * as Ai from '#core/ai';
import * as Articles from '#core/articles';
import * as Experiments from '#core/experiments';
import * as Feed from '#core/feed';
import * as Audiences from '#core/audiences';
import { isVisibleError, mapPool } from '#core/common';
import * as Jobs from '#core/jobs';
import * as Prompts from '#core/prompts';
import * as Scoring from '#core/scoring';
import * as Users from '#core/users';

/** Audiences are scored over the newest articles only: a run's work is bounded however big the table. */
export const SCORING_ARTICLE_LIMIT = 500;
/** Readers' feeds are made of the newest articles: a window run scores these for each reader. */
export const READER_ARTICLE_LIMIT = 100;
/** Articles per chunk. */
export const ARTICLES_PER_CHUNK = 10;
/** Targets per chunk, and the most their clues may weigh, so a chunk stays far under the item limit. */
export const TARGETS_PER_CHUNK = 40;
const TARGET_BYTES_PER_CHUNK = 64_000;
/** Readers' feed lists built at once after a scoring run. */
const FEED_BUILDS_AT_ONCE = 4;
/** Articles whose unscored pairs are looked up at once while planning. */
const PLAN_CONCURRENCY = 16;
/**
 * An import stamps an article's time before its transaction commits: a planner may miss an
 * article stamped up to this long before it looked, so the next run looks those up (ADR 0065).
 */
export const IMPORT_SETTLE_MS = 30_000;
/** A failed pair is planned again by every run while its article's import is this recent. */
export const FAILURE_RETRY_MS = 48 * 3600_000;
/** Most failed pairs one run plans again. */
const FAILURES_RETRIED = 1_000;

/** Everything a chunk needs, fixed when the run is planned, so every chunk scores alike. */
type ScoringChunk = {
  articleIds: string[];
  targets: Scoring.MatchingTarget[];
  prompt: { id: string; prompt: string };
  model: Ai.AiModelRef;
};

const TargetRef = v.object({
  type: v.picklist(Scoring.MATCHING_TYPES),
  id: v.pipe(v.string(), v.regex(/^[0-9A-Za-z_-]{1,64}$/, 'Not an id')),
});
type TargetRef = v.InferOutput<typeof TargetRef>;

export const ScoringInput = v.object({
  /** Only these targets (a new reader, changed clues), against the newest articles. */
  targets: v.optional(v.pipe(v.array(TargetRef), v.maxLength(100))),
});
type ScoringInput = v.InferOutput<typeof ScoringInput>;

/** Groups targets so a chunk's share of them stays under both limits. */
export function targetGroups(targets: Scoring.MatchingTarget[]): Scoring.MatchingTarget[][] {
  const groups: Scoring.MatchingTarget[][] = [];
  let group: Scoring.MatchingTarget[] = [];
  let bytes = 0;
  for (const target of targets) {
    const size = Buffer.byteLength(JSON.stringify(target));
    if (
      group.length > 0 &&
      (group.length >= TARGETS_PER_CHUNK || bytes + size > TARGET_BYTES_PER_CHUNK)
    ) {
      groups.push(group);
      group = [];
      bytes = 0;
    }
    group.push(target);
    bytes += size;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

/**
 * The chunks of a run: for each group of targets, the articles with a pair left in it, ten at a
 * time. `work` maps an article id to the targets it still lacks a score for.
 */
function chunksOf(
  work: Work,
  targets: Scoring.MatchingTarget[],
  setup: Pick<ScoringChunk, 'prompt' | 'model'>,
): ScoringChunk[] {
  const chunks: ScoringChunk[] = [];
  for (const group of targetGroups(targets)) {
    const inGroup = new Set(group.map(Scoring.targetKey));
    const articleIds = [...work]
      .filter(([, left]) => left.some((target) => inGroup.has(Scoring.targetKey(target))))
      .map(([articleId]) => articleId);
    for (let start = 0; start < articleIds.length; start += ARTICLES_PER_CHUNK) {
      chunks.push({
        articleIds: articleIds.slice(start, start + ARTICLES_PER_CHUNK),
        targets: group,
        ...setup,
      });
    }
  }
  return chunks;
}

async function audienceTargets(audienceIds?: string[]): Promise<Scoring.MatchingTarget[]> {
  const audiences = audienceIds ? await Audiences.byIds(audienceIds) : await Audiences.list();
  return audiences
    .filter((audience) => audienceIds || audience.state === 'active')
    .map(Scoring.audienceTarget);
}

/** A reader is scored once they have clues and an account that works. */
const scoresFor = (user: Users.User) =>
  user.isActive && user.status === 'Onboarded' && (user.descriptors ?? []).length > 0;

/** Every user, page by page: a job's read, never a request's. */
async function everyUser(): Promise<Users.User[]> {
  const users: Users.User[] = [];
  let cursor: string | undefined;
  do {
    const page = await Users.list({ cursor, limit: 50 });
    users.push(...page.users);
    cursor = page.next;
  } while (cursor);
  return users;
}

/** Every reader with clues. */
async function readerTargets(): Promise<Scoring.MatchingTarget[]> {
  return (await everyUser()).filter(scoresFor).map(Scoring.userTarget);
}

/** Every audience and user, whatever their state: whose scores a clear removes (a job's read). */
export async function everyTarget(): Promise<Scoring.MatchingTarget[]> {
  const [audiences, users] = await Promise.all([Audiences.list(), everyUser()]);
  return [...audiences.map(Scoring.audienceTarget), ...users.map(Scoring.userTarget)];
}

/** The targets a run names, as they are now (a removed audience or reader is left out). */
async function namedTargets(refs: TargetRef[]): Promise<Scoring.MatchingTarget[]> {
  const audienceIds = refs.filter((ref) => ref.type === 'audience').map((ref) => ref.id);
  const userIds = refs.filter((ref) => ref.type === 'user').map((ref) => ref.id);
  const [audiences, users] = await Promise.all([
    audienceIds.length > 0 ? audienceTargets(audienceIds) : [],
    Promise.all(userIds.map((id) => Users.byId(id))),
  ]);
  const readers = users.filter((user): user is Users.User => !!user && scoresFor(user));
  return [...audiences, ...readers.map(Scoring.userTarget)];
}

/** A target's pairs left to score, by article id. */
type Work = Map<string, Scoring.MatchingTarget[]>;

/** Adds pairs to the run's work, each once. */
function addPairs(work: Work, articleId: string, targets: Scoring.MatchingTarget[]): void {
  const known = work.get(articleId) ?? [];
  const ids = new Set(known.map(Scoring.targetKey));
  work.set(articleId, [
    ...known,
    ...targets.filter((target) => !ids.has(Scoring.targetKey(target))),
  ]);
}

/** Which of these articles lack a score for which of these targets: BatchGetItems of their keys. */
async function pairsLeft(
  articleIds: string[],
  targets: Scoring.MatchingTarget[],
  setup: Scoring.ScoringSetup,
  work: Work,
): Promise<void> {
  if (targets.length === 0) return;
  await mapPool(articleIds, PLAN_CONCURRENCY, async (articleId) => {
    const left = await Scoring.unscoredTargets(articleId, targets, setup);
    if (left.length > 0) addPairs(work, articleId, left);
  });
}

/** The articles a target's planning covers: the newest 100 for a reader, 500 for an audience. */
const windowOf = <T>(target: Scoring.MatchingTarget, newestFirst: T[]): T[] =>
  target.type === 'user' ? newestFirst.slice(0, READER_ARTICLE_LIMIT) : newestFirst;

const newest = (times: string[]) => times.reduce((a, b) => (a > b ? a : b));
const earliest = (times: string[]) => times.reduce((a, b) => (a < b ? a : b));
const settled = (at: string) => new Date(Date.parse(at) - IMPORT_SETTLE_MS).toISOString();

/** The runs among these that ended in Success: a watermark counts only once its run did. */
async function succeededRuns(processIds: Iterable<string>): Promise<Set<string>> {
  const ids = [...new Set(processIds)];
  const runs = await mapPool(ids, PLAN_CONCURRENCY, (id) => Jobs.byId(id));
  return new Set(runs.flatMap((run) => (run?.status === 'Success' ? [run.id] : [])));
}

/**
 * A run's pairs (ADR 0065). A target with a watermark whose run succeeded gets, without a score
 * looked up, every article imported after it; the few imported so shortly before that run looked
 * that an import may not have been visible yet are looked up. After a run that did not succeed,
 * everything it planned is looked up again. A target without a watermark (a new reader, new clues,
 * a new setup) is planned as before any watermark: the newest window, each pair looked up. Failed
 * pairs of recent imports are planned again. Each target that had articles to plan gets its
 * watermark moved.
 */
export async function plannedPairs(
  input: ScoringInput,
  context: Pick<Jobs.JobContext, 'processId'>,
  setup: Scoring.ScoringSetup,
): Promise<{ targets: Scoring.MatchingTarget[]; work: Work; lookedUp: number; marked: number }> {
  const keys = { promptId: setup.prompt.id, modelId: setup.model.id };
  let targets: Scoring.MatchingTarget[];
  if (input.targets) {
    targets = await namedTargets(input.targets);
  } else {
    const [audiences, readers] = await Promise.all([audienceTargets(), readerTargets()]);
    targets = [...audiences, ...readers];
  }
  // Taken before any article is read: an article imported after it is a later run's.
  const plannedAt = new Date().toISOString();
  const marks = await Scoring.watermarks(targets, keys);
  const succeeded = await succeededRuns([...marks.values()].map((mark) => mark.plannedBy));
  const work: Work = new Map();
  const planned = new Map<string, Scoring.PlannedUpTo>();
  const plannedFor = (target: Scoring.MatchingTarget, importedUpTo: string, since: string) =>
    planned.set(Scoring.targetKey(target), {
      importedUpTo,
      plannedAt,
      plannedBy: context.processId,
      since,
    });

  const fresh: Scoring.MatchingTarget[] = [];
  const marked: { target: Scoring.MatchingTarget; mark: Scoring.ScoringWatermark; from: string }[] =
    [];
  for (const target of targets) {
    const mark = marks.get(Scoring.targetKey(target));
    const ok = mark && succeeded.has(mark.plannedBy);
    if (!mark || (!ok && !mark.since)) fresh.push(target);
    else {
      const from = earliest([ok ? mark.importedUpTo : mark.since, settled(mark.plannedAt)]);
      marked.push({ target, mark, from });
    }
  }

  if (fresh.length > 0) {
    const articles = await Articles.latest(SCORING_ARTICLE_LIMIT);
    const ids = articles.map((article) => article.id);
    const of = (type: Scoring.MatchingType) => fresh.filter((target) => target.type === type);
    await pairsLeft(ids, of('audience'), setup, work);
    await pairsLeft(ids.slice(0, READER_ARTICLE_LIMIT), of('user'), setup, work);
    for (const target of fresh) {
      const window = windowOf(target, articles);
      if (window.length > 0) plannedFor(target, newest(window.map((a) => a.importedAt)), '');
    }
  }

  if (marked.length > 0) {
    const imports = await Articles.importedAfter(
      earliest(marked.map(({ from }) => from)),
      SCORING_ARTICLE_LIMIT,
    );
    const toLookUp = new Map<string, Scoring.MatchingTarget[]>();
    for (const { target, mark, from } of marked) {
      const window = windowOf(target, imports).filter((article) => article.importedAt > from);
      if (window.length === 0) continue;
      for (const article of window) {
        if (article.importedAt > mark.importedUpTo) addPairs(work, article.id, [target]);
        else toLookUp.set(article.id, [...(toLookUp.get(article.id) ?? []), target]);
      }
      const upTo = newest([mark.importedUpTo, ...window.map((article) => article.importedAt)]);
      plannedFor(target, upTo, from);
    }
    await mapPool([...toLookUp], PLAN_CONCURRENCY, async ([articleId, unsure]) => {
      const left = await Scoring.unscoredTargets(articleId, unsure, setup);
      if (left.length > 0) addPairs(work, articleId, left);
    });
  }

  const byKey = new Map(targets.map((target) => [Scoring.targetKey(target), target]));
  const retrySince = new Date(Date.now() - FAILURE_RETRY_MS).toISOString();
  for (const failure of await Scoring.failuresSince(keys, retrySince, FAILURES_RETRIED)) {
    const target = byKey.get(
      Scoring.targetKey({ type: failure.matchingType, id: failure.matchingId }),
    );
    if (target?.cluesHash === failure.cluesHash) addPairs(work, failure.articleId, [target]);
  }

  const written = await mapPool([...planned], PLAN_CONCURRENCY, ([key, mark]) =>
    Scoring.markPlanned(byKey.get(key)!, keys, mark),
  );
  return { targets, work, lookedUp: fresh.length, marked: written.filter(Boolean).length };
}

async function planScoring(input: ScoringInput, context: Jobs.JobContext): Promise<ScoringChunk[]> {
  const setup = await Scoring.defaultSetup(context.processId);
  const { targets, work, lookedUp, marked } = await plannedPairs(input, context, setup);
  const pairs = [...work.values()].reduce((n, left) => n + left.length, 0);
  context.log.info(
    `Scoring ${pairs} pair(s): ${work.size} article(s) for ${targets.length} audience(s) and reader(s)`,
    {
      prompt: setup.prompt.id,
      model: setup.model.id,
      plannedFromWindow: lookedUp,
      watermarksMoved: marked,
    },
  );
  return chunksOf(work, targets, {
    prompt: { id: setup.prompt.id, prompt: setup.prompt.prompt },
    model: setup.model,
  });
}

/** Scores a chunk's articles for its targets; the totals are the chunk's checkpoint. */
async function scoreChunk(
  chunk: ScoringChunk,
  context: Jobs.ChunkContext,
  experiment = false,
): Promise<Jobs.ChunkTotals> {
  const setup: Scoring.ScoringSetup = {
    prompt: chunk.prompt,
    model: chunk.model,
    processId: context.processId,
    log: context.log,
    experiment,
  };
  const totals = Scoring.noTotals();
  for (const article of await Articles.byIds(chunk.articleIds)) {
    const done = await Scoring.scoreArticle(article, chunk.targets, setup);
    Scoring.addTotals(totals, done);
  }
  return totals;
}

/**
 * The 'newsfeed is ready' e-mail the funnel promised, once the reader has stories: sent after the
 * run that scored them (once per reader, Users.markFeedReady). A reader whose own first run
 * found nothing, or never ran, is told after the run that does.
 */
async function tellIfReady(user: Users.User | undefined): Promise<void> {
  if (!user || user.feedReadyAt || !scoresFor(user)) return;
  const counts = await Scoring.labelCounts(
    Scoring.userTarget(user),
    await Scoring.productionKeys(),
  );
  if (Object.values(counts).some((n) => n > 0)) await Users.markFeedReady(user.id);
}

/** 'Score unscored articles': every active target over the newest articles. */
export const scoreArticles = Jobs.defineChunkedJob({
  name: 'score-articles',
  title: 'Scoring articles',
  slot: 'scoring',
  input: v.object({}),
  plan: (_input, context) => planScoring({}, context),
  runChunk: (chunk, _input, context) => scoreChunk(chunk, context),
  // Each reader whose scores moved gets their feed list rebuilt (ADR 0039), then the e-mail the
  // funnel promised, once there are stories.
  async succeeded(_input, context) {
    // A run that planned nothing scored nothing: no list moved and no feed became ready, so it
    // reads no user (core/jobs runs this on an empty plan too, before the run's chunks are counted).
    if (!(await Jobs.byId(context.processId))?.chunksTotal) return;
    const keys = await Scoring.productionKeys();
    await mapPool(await everyUser(), FEED_BUILDS_AT_ONCE, async (user) => {
      if (scoresFor(user) && (await Feed.needsBuild(user, keys))) await Feed.buildFeed(user.id);
      await tellIfReady(user);
    });
    // The first scored articles give the experiments their starter datasets (with scored pools).
    const frozen = await Experiments.freezeStarterDatasets(context.systemUserId);
    if (frozen > 0) context.log.info(`Froze ${frozen} starter experiment datasets`);
  },
});

/**
 * The same chunked scoring for the targets whose clues are new. Its own job, so Content
 * Automations' 'Score unscored articles' keeps reporting its own runs; a run for one reader holds
 * a slot of its own, so signups and clue edits never wait on each other.
 */
export const scoreNewClues = Jobs.defineChunkedJob({
  name: 'score-new-clues',
  title: 'Scoring new clues',
  slotFor: (input) =>
    input.targets?.length === 1
      ? `score-new-clues#${input.targets[0]!.type}#${input.targets[0]!.id}`
      : 'score-new-clues',
  input: v.object({ targets: ScoringInput.entries.targets }),
  plan: planScoring,
  runChunk: (chunk, _input, context) => scoreChunk(chunk, context),
  // The reader's old clue sets are never read again; their feed list is rebuilt; the funnel's
  // promised e-mail, once there are stories. A reader who changed their clues again while this run
  // scored the ones before (their new run was refused: this one held the slot) keeps their list
  // and their 'updating' notice: the next scheduled run scores the new clues and rebuilds it.
  async succeeded(input, context) {
    const keys = await Scoring.productionKeys();
    const anyArticle = (await Articles.latest(1)).length > 0;
    for (const target of input.targets ?? []) {
      if (target.type !== 'user') continue;
      const user = await Users.byId(target.id);
      if (!user) continue;
      const current = Scoring.userTarget(user);
      const scored = Object.values(await Scoring.labelCounts(current, keys)).some((n) => n > 0);
      if (anyArticle && !scored) {
        context.log.info("The reader's clues changed during the run: the schedule scores them", {
          userId: user.id,
        });
        continue;
      }
      await Scoring.forgetOtherClues(current);
      await Feed.buildFeed(user.id);
      await tellIfReady(user);
    }
  },
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
 * and model (default: production's). Its scores stay with its run (never production's store,
 * never another run's), and its output counts them per audience and label, the shape the
 * experiments' runs report.
 */
export const scoreArticlesExperiment = Jobs.defineChunkedJob({
  name: 'score-articles-experiment',
  title: 'Scoring articles (experiment)',
  input: ExperimentInput,
  async plan(input, context): Promise<ScoringChunk[]> {
    const fallback = await Scoring.defaultSetup(context.processId);
    const prompt = input.promptId ? await Prompts.byId(input.promptId) : fallback.prompt;
    if (!prompt) throw new Error(`No prompt ${input.promptId}`);
    const model = input.modelId ? await Ai.byId(input.modelId) : fallback.model;
    if (!model) throw new Error(`No AI model ${input.modelId}`);
    const targets = await audienceTargets(input.audienceIds);
    const articles = await Articles.latest(input.articleLimit);
    // A new run has scored nothing: every pair is its work.
    const work = new Map(articles.map((article) => [article.id, targets]));
    return chunksOf(work, targets, { prompt: { id: prompt.id, prompt: prompt.prompt }, model });
  },
  async runChunk(chunk, _input, context) {
    const totals = await scoreChunk(chunk, context, true);
    // Labels per audience for the report, from what this run stored for the chunk's pairs, so a
    // redelivered chunk counts the same.
    const scores = await Scoring.experimentScoresOf(
      context.processId,
      chunk.articleIds,
      chunk.targets,
      { promptId: chunk.prompt.id, modelId: chunk.model.id },
    );
    const labels: Record<string, number> = {};
    for (const score of scores) {
      const key = `${score.matchingId}|${score.label}`;
      labels[key] = (labels[key] ?? 0) + 1;
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
