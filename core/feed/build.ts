// Building a reader's feed list (ADR 0039): read their scores for their current clues by
// production's setup (best label first), their articles and their feedback; lower the stories the
// reader does not want (negative.ts, ADR 0045); order the stories (taste.ts); keep one entry per
// story, with its other sources, moving up the stories that grew since the list held them
// (story-entries.ts, ADR 0063); then write only what changed since the published list
// (list-diff.ts, ADR 0066) and publish the build by pointing the reader's record at it. Until the
// pointer moves, a reader reads the previous build's stories in its order, none twice and none
// missing; an entry that keeps its place but shows other fields (a like, a growth note) is
// rewritten in place, so those fields can show a moment before the build is published.
// A build is a job's work (the reader's scoring run, a feedback, a schedule): it reads whole
// partitions, which no request does.
import { decodeTime, encodeTime } from 'ulid';
import * as Ai from '#core/ai';
import * as Articles from '#core/articles';
import { RELEVANCE_LABELS, type RelevanceLabel } from '#core/ai';
import { committed } from '#core/db';
import { logger } from '#core/logs';
import * as Scoring from '#core/scoring';
import * as Stories from '#core/stories';
import * as Users from '#core/users';
import { ulid } from '#core/ids';
import { FeedbackEntity } from './entities';
import {
  changesOf,
  deleteEntries,
  isEmpty,
  putEntries,
  shownIn,
  storedEntries,
  type Entry,
  type NewEntry,
} from './list-diff';
import { marksOf, orderOf } from './list-order';
import { judge } from './negative';
import { storyEntries, type Listed, type StoryFields } from './story-entries';
import { readingOrder, tasteOf, type FeedbackKind } from './taste';

/** Most stories a feed list holds: the best of the reader's scores. */
export const FEED_MAX_STORIES = 2_000;
/** The feed's excerpt (spec §9): this many characters, then an ellipsis. */
export const EXCERPT_LENGTH = 450;
/** Most feedback a build weighs: the reader's newest. */
export const FEEDBACK_WEIGHED = 500;

/** The excerpt of a story: its text, whitespace collapsed, cut at 450 characters with an ellipsis. */
export function excerptOf(text: string): string {
  const plain = text.replace(/\s+/g, ' ').trim();
  return plain.length <= EXCERPT_LENGTH ? plain : `${plain.slice(0, EXCERPT_LENGTH).trimEnd()}…`;
}

/** The setup a list was built by, so a promoted prompt or model rebuilds it. */
export const setupName = (keys: Scoring.SetupKeys) => `${keys.promptId}#${keys.modelId}`;

type Reader = Pick<Users.User, 'id' | 'descriptors' | 'feedBuild'>;

async function scoresOf(reader: Reader, keys: Scoring.SetupKeys): Promise<Scoring.Score[]> {
  const target = Scoring.userTarget(reader);
  const scores: Scoring.Score[] = [];
  let cursor: string | null = null;
  do {
    const page: { scores: Scoring.Score[]; cursor: string | null } = await Scoring.ranked(
      target,
      keys,
      { limit: Math.min(500, FEED_MAX_STORIES - scores.length), cursor },
    );
    scores.push(...page.scores);
    cursor = page.cursor;
  } while (cursor && scores.length < FEED_MAX_STORIES);
  return scores;
}

async function articlesOf(ids: string[]): Promise<Map<string, Articles.Article>> {
  const found = new Map<string, Articles.Article>();
  for (let start = 0; start < ids.length; start += 100) {
    for (const article of await Articles.byIds(ids.slice(start, start + 100))) {
      found.set(article.id, article);
    }
  }
  return found;
}

/** The articles of `ids` the reader's scored ones do not hold, read (none read when none is missing). */
async function articlesBesides(
  ids: Iterable<string>,
  scored: Map<string, Articles.Article>,
): Promise<Map<string, Articles.Article>> {
  const missing = [...new Set(ids)].filter((id) => !scored.has(id));
  return missing.length > 0 ? articlesOf(missing) : new Map();
}

/** The stories of the reader's newest dislikes (their mutes), in their order. */
function dislikedStories(
  reader: Pick<Users.User, 'mutes'>,
  known: Map<string, Articles.Article>,
): Map<string, Articles.Article> {
  const found = new Map<string, Articles.Article>();
  for (const mute of reader.mutes ?? []) {
    const article = mute.articleId ? known.get(mute.articleId) : undefined;
    if (article) found.set(article.id, article);
  }
  return found;
}

/** The reader's newest feedback, each with its story's topics. */
/** How long a build waits before it reads a reader's feedback again (see buildFeed). */
const FEEDBACK_LOOKS_AGAIN_MS = 100;

export async function feedbackOf(userId: string) {
  const { data } = await FeedbackEntity.query
    .byReader({ userId })
    .go({ pages: 'all', limit: FEEDBACK_WEIGHED, consistent: true });
  return data.map((item) => ({ ...item, topics: Ai.topicsOf(item.title) }));
}

/**
 * Whether the reader's list is behind: never built, a change waits for it, or their scores (their
 * clues, production's setup, the number scored) moved since it was built. One BatchGetItem.
 */
export async function needsBuild(
  reader: Pick<
    Users.User,
    | 'id'
    | 'descriptors'
    | 'feedBuild'
    | 'feedRequestedAt'
    | 'feedCluesHash'
    | 'feedSetup'
    | 'feedScored'
    | 'feedMarks'
  >,
  keys: Scoring.SetupKeys,
): Promise<boolean> {
  const target = Scoring.userTarget(reader);
  // A list built before its entries had places (ADR 0066) has no marks: it is built anew.
  if (!reader.feedBuild || !reader.feedMarks || reader.feedRequestedAt) return true;
  if (reader.feedCluesHash !== target.cluesHash || reader.feedSetup !== setupName(keys))
    return true;
  return (await scoredCount(target, keys)) !== reader.feedScored;
}

/** How many scores a target has for its clues by this setup, whatever the list's cap. */
async function scoredCount(target: Scoring.MatchingTarget, keys: Scoring.SetupKeys) {
  return Object.values(await Scoring.labelCounts(target, keys)).reduce((a, n) => a + n, 0);
}

export type BuildOutcome =
  | { built: false; reason: 'no-reader' | 'superseded' | 'busy' }
  | { built: true; build: string; stories: number; current: boolean; written: number };

/** How long a build may hold the reader's list: past it, another build takes the list over. */
const WRITING_LEASE_MS = 120_000;
/** A build past this much of its lease publishes nothing: another may take the list over soon. */
const WRITING_DEADLINE_MS = WRITING_LEASE_MS / 2;
/** Entries written between two looks at the hold's deadline. */
const PUTS_AT_ONCE = 500;
/** Tries of a build that finds another one writing the list, and the wait before the next. */
const BUSY_TRIES = 5;
const BUSY_WAIT_MS = 1_000;

/**
 * Builds the reader's feed list and publishes it, writing only what changed (ADR 0066). `current`
 * says whether the list shows every change requested before the build began (the 'updating your
 * feed' notice goes then); a change requested meanwhile leaves it for the next build. When
 * another build writes the list or published it meanwhile, this one waits and builds again from it.
 */
export async function buildFeed(userId: string): Promise<BuildOutcome> {
  for (let attempt = 1; ; attempt++) {
    const outcome = await buildOnce(userId);
    if (outcome.built || outcome.reason !== 'busy' || attempt === BUSY_TRIES) return outcome;
    await new Promise((resolve) => setTimeout(resolve, BUSY_WAIT_MS * attempt));
  }
}

async function buildOnce(userId: string): Promise<BuildOutcome> {
  const reader = await Users.byId(userId);
  if (!reader) return { built: false, reason: 'no-reader' };
  const requestedAt = reader.feedRequestedAt;
  const published = reader.feedBuild;
  const keys = await Scoring.productionKeys();
  // Counted before the scores are read: a score stored meanwhile makes the next run rebuild.
  const scored = await scoredCount(Scoring.userTarget(reader), keys);
  const [scores, firstFeedback] = await Promise.all([scoresOf(reader, keys), feedbackOf(userId)]);
  // A like's mark and its feedback land in one transaction, but a read made while it lands can
  // see the mark alone: when no feedback is as new as the mark, look once more, a moment later.
  const feedback =
    requestedAt && !firstFeedback.some((item) => item.updatedAt >= requestedAt)
      ? await new Promise((resolve) => setTimeout(resolve, FEEDBACK_LOOKS_AGAIN_MS)).then(() =>
          feedbackOf(userId),
        )
      : firstFeedback;
  const articles = await articlesOf(scores.map((score) => score.articleId));
  const given = new Map(feedback.map((item) => [item.articleId, item.kind]));
  const disliked = new Set(
    feedback.flatMap((item) => (item.kind === 'dislike' ? [item.articleId] : [])),
  );
  // Disliked articles no longer scored for the reader still take their stories out.
  const known = new Map([
    ...articles,
    ...(await articlesBesides(
      [...disliked, ...(reader.mutes ?? []).flatMap((mute) => mute.articleId ?? [])],
      articles,
    )),
  ]);
  const [storyOf, stored] = await Promise.all([
    Stories.ofArticles([...known.values()]),
    storedEntries(userId),
  ]);
  const candidates = scores.flatMap((score) => {
    const article = articles.get(score.articleId);
    if (!article) return [];
    return [{ ...score, source: article.source, article, topics: Ai.topicsOf(article.title) }];
  });
  const judged = await judge(candidates, {
    mutes: reader.mutes ?? [],
    disliked,
    dislikedStories: dislikedStories(reader, known),
  });
  const entries = storyEntries(readingOrder(judged, tasteOf(feedback)), storyOf, {
    disliked,
    listed: listedOf(stored, published),
    now: new Date(),
  });
  const counts = RELEVANCE_LABELS.map(() => 0);
  for (const story of entries) counts[RELEVANCE_LABELS.indexOf(story.label)]!++;
  // A story's feedback is its lead's, or a like of another member (a dislike leads its story).
  const storyFeedback = (articleId: string) =>
    given.get(articleId) ??
    storyOf
      .get(articleId)
      ?.sources.map((source) => given.get(source.articleId))
      .find((kind) => kind !== undefined);
  const next = entries
    .map((entry) => entryOf(userId, entry, storyFeedback(entry.article.id)))
    .sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
  const build = buildAfter(published);
  const changes = changesOf(stored, next, published, build);
  const facts = {
    feedScored: scored,
    feedCluesHash: Scoring.userTarget(reader).cluesHash,
    feedSetup: setupName(keys),
  };
  if (published && reader.feedMarks && isEmpty(changes)) {
    // The list is as published: its build (the private feed's validator) stays.
    const same = Object.entries(facts).every(
      ([name, value]) => reader[name as keyof typeof facts] === value,
    );
    if (!same) {
      await committed(
        Users.UserEntity.patch({ id: userId })
          .set(facts)
          .where((attr, op) => op.eq(attr.feedBuild, published)),
      );
    }
    const current = requestedAt ? await settle(userId, requestedAt) : true;
    return { built: true, build: published, stories: next.length, current, written: 0 };
  }
  // Another build held the list when the reader was read: it may have been deleting what its list
  // left, and this build's reads may hold some of that, which it would delete again once it took the
  // list. Build again from fresh reads instead.
  if (reader.feedWriting && reader.feedWriting >= oldestHold()) {
    return { built: false, reason: 'busy' };
  }
  const began = Date.now();
  // Another build writes the list, or published it since it was read: build again from it.
  if (!(await takeList(userId, published, build))) return { built: false, reason: 'busy' };
  // A build that stops writing lets the list go at once, so the next build need not wait for its
  // hold to lapse; what it wrote is unpublished, and the next build clears it.
  const letGo = () =>
    committed(
      Users.UserEntity.patch({ id: userId })
        .remove(['feedWriting'])
        .where((attr, op) => op.eq(attr.feedWriting, build)),
    );
  try {
    await deleteEntries(changes.stale);
    // Written a part at a time, each while the hold lasts: past it, another build may take over.
    for (let start = 0; start < changes.puts.length; start += PUTS_AT_ONCE) {
      if (Date.now() - began > WRITING_DEADLINE_MS) {
        logger.info('A feed build outlasted its hold on the list and stopped', { userId });
        await letGo();
        return { built: false, reason: 'busy' };
      }
      await putEntries(changes.puts.slice(start, start + PUTS_AT_ONCE));
    }
  } catch (error) {
    await letGo().catch(() => false);
    throw error;
  }
  const publishedNow = await committed(
    Users.UserEntity.patch({ id: userId })
      .set({
        ...facts,
        feedBuild: build,
        feedCounts: counts,
        feedMarks: marksOf(next.map((entry) => entry.order)),
        feedBuiltAt: new Date().toISOString(),
      })
      .where((attr, op) => op.eq(attr.feedWriting, build)),
  );
  // Another build took the list over (this one outlasted its hold): it owns what is stored now.
  if (!publishedNow) return { built: false, reason: 'superseded' };
  await deleteEntries(changes.leaving);
  await letGo();
  const current = requestedAt ? await settle(userId, requestedAt) : true;
  // Entries put or deleted: what the rebuild cost the table, besides the reader's record.
  const written = changes.stale.length + changes.puts.length + changes.leaving.length;
  return { built: true, build, stories: next.length, current, written };
}

/** A build id after the published one, whatever the clocks of the machines that made them. */
function buildAfter(published: string | undefined): string {
  return ulid(Math.max(Date.now(), published ? decodeTime(published) + 1 : 0));
}

/** The smallest build id whose hold on the list still lasts: one that began earlier has stopped. */
function oldestHold(): string {
  return `${encodeTime(Date.now() - WRITING_LEASE_MS, 10)}${'0'.repeat(16)}`;
}

/**
 * Takes the reader's list for `build`: refused when another build was published since it was read,
 * or another one is writing it (one that began longer than the lease ago has stopped).
 */
async function takeList(userId: string, published: string | undefined, build: string) {
  const stopped = oldestHold();
  return committed(
    Users.UserEntity.patch({ id: userId })
      .set({ feedWriting: build })
      .where(
        (attr, op) =>
          `${published ? op.eq(attr.feedBuild, published) : op.notExists(attr.feedBuild)} AND (${op.notExists(attr.feedWriting)} OR ${op.lt(attr.feedWriting, stopped)})`,
      ),
  );
}

/** What the published list holds of each story: its source count and growth note. */
function listedOf(stored: Entry[], published: string | undefined): Map<string, Listed> {
  const listed = new Map<string, Listed>();
  for (const { storyId, sourceCount, grewBy, grewAt, ...entry } of stored) {
    if (!storyId || sourceCount === undefined || !shownIn(entry, published)) continue;
    listed.set(storyId, {
      sourceCount,
      ...(grewBy !== undefined ? { grewBy } : {}),
      ...(grewAt ? { grewAt } : {}),
    });
  }
  return listed;
}

/** A story of the new list, as story-entries.ts gives it. */
type Built = StoryFields & {
  article: Articles.Article;
  band: number;
  adjusted: number;
  label: RelevanceLabel;
  modelLabel?: RelevanceLabel;
  relevantClues?: string[];
  reason: string;
  lowered?: string;
};

/** The stored entry of a story in the list. */
function entryOf(userId: string, story: Built, feedback: FeedbackKind | undefined): NewEntry {
  const { article, label, modelLabel, relevantClues, reason, lowered, storyId, grewBy } = story;
  return {
    userId,
    order: orderOf({ ...story, publishedAt: article.publishedAt, articleId: article.id }),
    articleId: article.id,
    title: article.title,
    source: article.source,
    link: article.canonicalUrl,
    ...(article.image ? { image: article.image } : {}),
    excerpt: excerptOf(article.summary || article.title),
    publishedAt: article.publishedAt,
    label,
    ...(modelLabel ? { modelLabel } : {}),
    relevantClues,
    // A preference that lowered the story says so before what the model found.
    reason: lowered ? `${lowered} ${reason}` : reason,
    ...(feedback ? { feedback } : {}),
    ...(storyId ? { storyId } : {}),
    sourceCount: story.sourceCount,
    otherSourceCount: story.otherSourceCount,
    alsoCoveredBy: story.alsoCoveredBy,
    ...(grewBy ? { grewBy, grewAt: story.grewAt } : {}),
  };
}

/** Removes the 'updating' mark this build answers, unless a newer request replaced it. */
async function settle(userId: string, requestedAt: string): Promise<boolean> {
  return committed(
    Users.UserEntity.patch({ id: userId })
      .remove(['feedRequestedAt'])
      .where((attr, op) => op.eq(attr.feedRequestedAt, requestedAt)),
  );
}
