// Picking one audience's content card. The model chooses among the candidates; the decision is
// recorded (a PickRun keyed by run and audience) before anything it decides is written, then each
// story is claimed with its Pick, gets its picked Post, and the card is written last. Every write is
// conditional or keyed by the run, so a retried or redelivered run finishes the same card and
// creates nothing twice; an answer that cannot be used is recorded and the audience skipped.
import type { EntityItem } from 'electrodb';
import { createWriteTransaction } from 'electrodb';
import * as v from 'valibot';
import {
  ai as defaultAi,
  AiBadAnswer,
  AiError,
  configured,
  NO_USAGE,
  pickBestContent,
  type Ai,
  type AiModelRef,
  type AiUsage,
  type PickAnswer,
  type PickCandidate,
} from '#core/ai';
import type { Article } from '#core/articles';
import type { Audience } from '#core/audiences';
import { parse } from '#core/common';
import * as ContentCards from '#core/content-cards';
import { isConditionFailure } from '#core/db';
import type { Logger } from '#core/logs';
import * as Posts from '#core/posts';
import * as Prompts from '#core/prompts';
import { articlesByIds, candidatesFor, type Candidate, type ScoredStory } from './candidates';
import { PickEntity } from './entity';
import { contentCardIdFor, postIdFor } from './ids';
import { PickRunEntity } from './pick-run-entity';
import { PickedArticleEntity } from './picked-article-entity';
import { pickedPost } from './post';
import { cut, plainText } from './text';

export type PickRun = EntityItem<typeof PickRunEntity>;

export const AUTOMATION_ID = 'pick-best-content';
export const NO_CANDIDATES = "no scored articles from 'Moderately Relevant' up that are not picked";

export type PickOptions = {
  /** The run (a process id): one card per run and audience. */
  processId: string;
  log: Logger;
  /** The AI port and model to use; default: the port and the configured gpt model. */
  ai?: Ai;
  model?: AiModelRef;
};

/** What a run did for one audience. */
export type AudiencePicks = {
  audienceId: string;
  outcome: 'picked' | 'skipped' | 'failed';
  /** Why it was skipped or failed, or what was picked, in a sentence for the job log. */
  note: string;
  contentCardId?: string;
  /** The picked articles on the card, primary first. */
  articleIds: string[];
  usage: AiUsage;
};

const Options = v.object({
  processId: v.pipe(v.string(), v.trim(), v.nonEmpty('A run needs its process id')),
});

/** Picks the best recent stories of one audience into a content card (once per run). */
export async function pickForAudience(
  audience: Pick<Audience, 'id' | 'title'>,
  options: PickOptions,
): Promise<AudiencePicks> {
  const { processId } = parse(Options, options);
  const log = options.log.child({ audienceId: audience.id });
  let run = await runOf(audience.id, processId);
  if (!run) {
    const candidates = await candidatesFor(audience);
    if (candidates.length === 0) {
      return {
        ...nothing(audience.id, 'skipped'),
        note: `Skipped ${audience.title}: ${NO_CANDIDATES}`,
      };
    }
    const decided = await decide(audience, candidates, { ...options, processId });
    if ('skipped' in decided) {
      log.error(decided.skipped);
      return { ...nothing(audience.id, 'skipped'), note: decided.skipped };
    }
    run = await record(decided);
  }
  const usage = usageOf(run);
  if (run.outcome === 'failed') {
    const note = `Skipped ${audience.title}: ${run.error ?? 'the answer could not be used'}`;
    log.error(note, { raw: run.raw });
    return { ...nothing(audience.id, 'failed'), note, usage };
  }
  const articleIds = await writePicks(audience, run, log);
  if (articleIds.length === 0) {
    return {
      ...nothing(audience.id, 'skipped'),
      note: `Skipped ${audience.title}: its picked articles were picked by another run or removed`,
      usage,
    };
  }
  const note = `Picked ${articleIds.length} ${articleIds.length === 1 ? 'story' : 'stories'} for ${audience.title}`;
  log.info(note, { contentCardId: run.contentCardId });
  return {
    audienceId: audience.id,
    outcome: 'picked',
    note,
    contentCardId: run.contentCardId,
    articleIds,
    usage,
  };
}

const nothing = (audienceId: string, outcome: AudiencePicks['outcome']) => ({
  audienceId,
  outcome,
  articleIds: [],
  usage: NO_USAGE,
});

function usageOf(run: PickRun): AiUsage {
  const inputTokens = run.inputTokens ?? 0;
  const outputTokens = run.outputTokens ?? 0;
  return {
    inputTokens,
    outputTokens,
    totalTokens: inputTokens + outputTokens,
    costUsd: run.costUsd,
  };
}

async function runOf(audienceId: string, processId: string): Promise<PickRun | undefined> {
  const { data } = await PickRunEntity.get({ audienceId, processId }).go({ consistent: true });
  return data ?? undefined;
}

/** Stores a decision once; a concurrent attempt of the same run that recorded first wins. */
async function record(run: PickRun): Promise<PickRun> {
  try {
    await PickRunEntity.create(run).go();
    return run;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return (await runOf(run.audienceId, run.processId)) ?? run;
  }
}

const SUMMARY_CHARS = 600;

/** The clues the candidates matched, as the scoring wrote them; the audience's title if none. */
function cluesOf(audience: Pick<Audience, 'title'>, candidates: Candidate[]): string[] {
  const clues = [
    ...new Set(candidates.flatMap((c) => c.relevantClues.map((clue) => cut(clue.trim(), 300)))),
  ].filter(Boolean);
  return clues.length > 0 ? clues.slice(0, 100) : [audience.title];
}

/** The model sees each candidate under its number in the list, which it copies more reliably. */
function numbered(candidates: Candidate[]): PickCandidate[] {
  return candidates.map((candidate, index) => ({
    id: String(index + 1),
    title: cut(candidate.article.title, 300),
    summary: cut(plainText(candidate.article.summary ?? ''), SUMMARY_CHARS),
    score: Math.round(candidate.score * 100) / 100,
  }));
}

const listed = (candidates: PickCandidate[]) =>
  candidates
    .map((c) => `${c.id}. ${c.title} (id ${c.id}, score ${c.score.toFixed(2)})\n${c.summary}`)
    .join('\n\n');

/**
 * The model's choice checked against the candidates: unknown, repeated or extra secondary ids are
 * dropped; a primary that is not a candidate makes the answer unusable (a string saying why).
 */
export function usableChoice(
  answer: PickAnswer,
  candidates: PickCandidate[],
): { primaryId: string; secondaryIds: string[]; dropped: string[] } | string {
  const known = new Set(candidates.map((c) => c.id));
  const primaryId = answer.primaryId.trim();
  if (!known.has(primaryId)) {
    return `the primary story "${primaryId}" is not among the ${candidates.length} candidates`;
  }
  const secondaryIds: string[] = [];
  const dropped: string[] = [];
  for (const id of answer.secondaryIds.map((s) => s.trim())) {
    if (known.has(id) && id !== primaryId && !secondaryIds.includes(id) && secondaryIds.length < 3)
      secondaryIds.push(id);
    else dropped.push(id);
  }
  return { primaryId, secondaryIds, dropped };
}

type Decided = PickRun | { skipped: string };

async function decide(
  audience: Pick<Audience, 'id' | 'title'>,
  candidates: Candidate[],
  options: PickOptions,
): Promise<Decided> {
  const model = options.model ?? (await configured('gpt'));
  const prompt = await Prompts.current(AUTOMATION_ID);
  const offered = numbered(candidates);
  const clues = cluesOf(audience, candidates);
  const user = Prompts.render(prompt, {
    audience: audience.title,
    clues,
    articles: listed(offered),
  });
  const base = {
    audienceId: audience.id,
    processId: options.processId,
    promptId: prompt.id,
    modelId: model.id,
    contentCardId: contentCardIdFor(options.processId, audience.id),
    pickedAt: new Date().toISOString(),
  };
  const failed = (error: string, raw: string, usage: AiUsage = NO_USAGE): PickRun => ({
    ...base,
    outcome: 'failed',
    error,
    raw: cut(raw, 20_000),
    stories: [],
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    costUsd: usage.costUsd,
  });

  let completion;
  try {
    completion = await (options.ai ?? defaultAi()).complete({
      model,
      task: pickBestContent,
      input: { audience: audience.title, clues, candidates: offered },
      user,
    });
  } catch (error) {
    if (error instanceof AiBadAnswer) return failed(error.message, error.raw);
    if (error instanceof AiError) {
      return { skipped: `Skipped ${audience.title}: ${error.message}; a later run tries again` };
    }
    throw error;
  }
  const { answer, raw, usage } = completion;
  const choice = usableChoice(answer, offered);
  if (typeof choice === 'string') return failed(`The answer is unusable: ${choice}`, raw, usage);
  if (choice.dropped.length > 0) {
    options.log.info(
      `Dropped secondary stories the candidates do not have: ${choice.dropped.join(', ')}`,
      {
        audienceId: audience.id,
      },
    );
  }
  const byNumber = new Map(offered.map((c, index) => [c.id, candidates[index]!]));
  const stories: ScoredStory[] = [choice.primaryId, ...choice.secondaryIds].map((id) => {
    const { article: _article, ...story } = byNumber.get(id)!;
    return story;
  });
  return {
    ...base,
    outcome: 'picked',
    stories,
    primaryStoriesHeader: answer.primaryStoriesHeader,
    secondaryStoriesHeader: answer.secondaryStoriesHeader,
    verbalDescriptor: answer.verbalDescriptor,
    raw: cut(raw, 20_000),
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    costUsd: usage.costUsd,
  };
}

/**
 * Writes what a run decided and answers the articles on its card, primary first. A story whose
 * article another run claimed (or that was removed) is left out; the card is written last, so it
 * never names a post that does not exist.
 */
async function writePicks(
  audience: Pick<Audience, 'id' | 'title'>,
  run: PickRun,
  log: Logger,
): Promise<string[]> {
  const stories: ScoredStory[] = (run.stories ?? []).map((story) => ({
    ...story,
    relevantClues: story.relevantClues ?? [],
  }));
  const articles = await articlesByIds(stories.map((story) => story.articleId));
  const kept: { story: ScoredStory; postId: string }[] = [];
  for (const story of stories) {
    const article = articles.get(story.articleId);
    if (!article) {
      log.error(`The picked article ${story.articleId} is gone`);
      continue;
    }
    const postId = postIdFor(audience.id, story.articleId);
    if (!(await claim(run, story, postId))) {
      log.info(`The article ${story.articleId} was picked by another run`);
      continue;
    }
    await ensurePost(postId, audience, article, { at: run.pickedAt, reason: story.reason });
    kept.push({ story, postId });
  }
  const [primary, ...secondary] = kept;
  if (!primary) return [];
  await ensureCard({
    id: run.contentCardId,
    date: run.pickedAt,
    audienceId: audience.id,
    primaryStoryId: primary.postId,
    secondaryStoryIds: secondary.map((s) => s.postId),
    postArticles: kept.map(({ story, postId }) => ({ postId, articleId: story.articleId })),
    primaryStoriesHeader: run.primaryStoriesHeader ?? cut(`Top story for ${audience.title}`, 120),
    secondaryStoriesHeader: run.secondaryStoriesHeader ?? cut(`More for ${audience.title}`, 120),
    verbalDescriptor: run.verbalDescriptor ?? cut(`Picked for those who ${audience.title}`, 300),
    createdAt: run.pickedAt,
  });
  return kept.map(({ story }) => story.articleId);
}

/**
 * Claims the article for the audience and records its Pick in one transaction. True when the
 * claim is this run's (just now, or by an earlier attempt of the same run).
 */
async function claim(run: PickRun, story: ScoredStory, postId: string): Promise<boolean> {
  const key = { audienceId: run.audienceId, articleId: story.articleId };
  const written = await createWriteTransaction(
    { claim: PickedArticleEntity, pick: PickEntity },
    (entities) => [
      entities.claim.create({ ...key, processId: run.processId, pickedAt: run.pickedAt }).commit(),
      entities.pick
        .create({
          ...key,
          postId,
          contentCardId: run.contentCardId,
          processId: run.processId,
          score: story.score,
          label: story.label,
          reason: story.reason,
          relevantClues: story.relevantClues ?? [],
          publishedAt: story.publishedAt,
          pickedAt: run.pickedAt,
          isArchived: false,
          isPickedForFeed: true,
        })
        .commit(),
    ],
  )
    .go()
    .catch((error: unknown) => {
      if (isConditionFailure(error)) return { canceled: true };
      throw error;
    });
  if (!written.canceled) return true;
  const { data } = await PickedArticleEntity.get(key).go({ consistent: true });
  return data?.processId === run.processId;
}

async function ensurePost(
  postId: string,
  audience: Pick<Audience, 'id' | 'title'>,
  article: Article,
  picked: { at: string; reason: string },
): Promise<void> {
  if (await Posts.byId(postId)) return;
  await Posts.create(pickedPost(postId, audience.id, article, picked));
}

async function ensureCard(card: v.InferInput<typeof ContentCards.ContentCardInput>): Promise<void> {
  try {
    await ContentCards.create(card);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}
