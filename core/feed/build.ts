// Building a reader's feed list (ADR 0039): read their scores for their current clues by
// production's setup (best label first), their articles and their feedback; lower the stories the
// reader does not want (negative.ts, ADR 0045); order the stories (taste.ts); write them under a
// new build id; then publish the build by pointing the reader's
// record at it, conditioned on the build it replaces, and delete the older builds' items. A
// reader never sees half a list: until the pointer moves, they read the previous build whole.
// A build is a job's work (the reader's scoring run, a feedback, a schedule): it reads whole
// partitions, which no request does.
import { ulid } from 'ulid';
import * as Ai from '#core/ai';
import * as Articles from '#core/articles';
import { RELEVANCE_LABELS } from '#core/ai';
import { committed } from '#core/db';
import * as Scoring from '#core/scoring';
import * as Users from '#core/users';
import { FeedbackEntity, FeedStoryEntity } from './entities';
import { judge } from './negative';
import { readingOrder, tasteOf } from './taste';

/** Most stories a feed list holds: the best of the reader's scores. */
export const FEED_MAX_STORIES = 2_000;
/** The feed's excerpt (spec §9): this many characters, then an ellipsis. */
export const EXCERPT_LENGTH = 450;
/** Most feedback a build weighs: the reader's newest. */
export const FEEDBACK_WEIGHED = 500;
const SLOT_DIGITS = 4;

/** The excerpt of a story: its text, whitespace collapsed, cut at 450 characters with an ellipsis. */
export function excerptOf(text: string): string {
  const plain = text.replace(/\s+/g, ' ').trim();
  return plain.length <= EXCERPT_LENGTH ? plain : `${plain.slice(0, EXCERPT_LENGTH).trimEnd()}…`;
}

export const slotOf = (band: number, position: number) =>
  `${band}#${String(position).padStart(SLOT_DIGITS, '0')}`;

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

/** The stories of the reader's newest dislikes (their mutes), from the list's or read anew. */
async function dislikedStories(
  reader: Pick<Users.User, 'mutes'>,
  listed: Map<string, Articles.Article>,
): Promise<Map<string, Articles.Article>> {
  const ids = (reader.mutes ?? []).flatMap((mute) => (mute.articleId ? [mute.articleId] : []));
  const missing = ids.filter((id) => !listed.has(id));
  const read = missing.length > 0 ? await articlesOf(missing) : new Map();
  const found = new Map<string, Articles.Article>();
  for (const id of ids) {
    const article = listed.get(id) ?? read.get(id);
    if (article) found.set(id, article);
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

async function putAll(items: Parameters<typeof FeedStoryEntity.put>[0] & unknown[]) {
  let pending = items;
  for (let attempt = 1; pending.length > 0; attempt++) {
    if (attempt > 5) throw new Error(`Could not write ${pending.length} feed item(s)`);
    if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** attempt));
    const { unprocessed } = await FeedStoryEntity.put(pending).go();
    pending = unprocessed as typeof pending;
  }
}

/** Deletes the reader's list items of the builds `doomed` names (never a newer build's). */
async function forgetBuilds(userId: string, doomed: (build: string) => boolean): Promise<void> {
  let cursor: string | null = null;
  do {
    const page: { data: { build: string; slot: string }[]; cursor: string | null } =
      await FeedStoryEntity.query
        .byPosition({ userId })
        .go({ cursor, limit: 500, attributes: ['build', 'slot'] });
    const gone = page.data.filter((item) => doomed(item.build));
    for (let start = 0; start < gone.length; start += 25) {
      let pending = gone
        .slice(start, start + 25)
        .map(({ build, slot }) => ({ userId, build, slot }));
      for (let attempt = 1; pending.length > 0 && attempt <= 5; attempt++) {
        ({ unprocessed: pending } = (await FeedStoryEntity.delete(pending).go()) as {
          unprocessed: typeof pending;
        });
      }
    }
    cursor = page.cursor;
  } while (cursor);
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
  >,
  keys: Scoring.SetupKeys,
): Promise<boolean> {
  const target = Scoring.userTarget(reader);
  if (!reader.feedBuild || reader.feedRequestedAt) return true;
  if (reader.feedCluesHash !== target.cluesHash || reader.feedSetup !== setupName(keys))
    return true;
  return (await scoredCount(target, keys)) !== reader.feedScored;
}

/** How many scores a target has for its clues by this setup, whatever the list's cap. */
async function scoredCount(target: Scoring.MatchingTarget, keys: Scoring.SetupKeys) {
  return Object.values(await Scoring.labelCounts(target, keys)).reduce((a, n) => a + n, 0);
}

export type BuildOutcome =
  | { built: false; reason: 'no-reader' | 'superseded' }
  | { built: true; build: string; stories: number; current: boolean };

/**
 * Builds and publishes the reader's feed list. `current` says whether the list shows every
 * change requested before the build began (the 'updating your feed' notice goes then); a change
 * requested meanwhile leaves it for the next build.
 */
export async function buildFeed(userId: string): Promise<BuildOutcome> {
  const reader = await Users.byId(userId);
  if (!reader) return { built: false, reason: 'no-reader' };
  const requestedAt = reader.feedRequestedAt;
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
  const candidates = scores.flatMap((score) => {
    const article = articles.get(score.articleId);
    if (!article) return [];
    return [{ ...score, source: article.source, article, topics: Ai.topicsOf(article.title) }];
  });
  const build = ulid();
  const judged = await judge(candidates, {
    mutes: reader.mutes ?? [],
    disliked: new Set(
      feedback.flatMap((item) => (item.kind === 'dislike' ? [item.articleId] : [])),
    ),
    dislikedStories: await dislikedStories(reader, articles),
  });
  const ordered = readingOrder(judged, tasteOf(feedback));
  const counts = RELEVANCE_LABELS.map(() => 0);
  for (const story of ordered) counts[RELEVANCE_LABELS.indexOf(story.label)]!++;
  await putAll(
    ordered.map(
      ({ article, band, position, label, modelLabel, relevantClues, reason, lowered }) => ({
        userId,
        build,
        slot: slotOf(band, position),
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
        ...(given.has(article.id) ? { feedback: given.get(article.id) } : {}),
      }),
    ),
  );
  const published = await committed(
    Users.UserEntity.patch({ id: userId })
      .set({
        feedBuild: build,
        feedCounts: counts,
        feedScored: scored,
        feedCluesHash: Scoring.userTarget(reader).cluesHash,
        feedSetup: setupName(keys),
        feedBuiltAt: new Date().toISOString(),
      })
      .where((attr, op) =>
        reader.feedBuild ? op.eq(attr.feedBuild, reader.feedBuild) : op.notExists(attr.feedBuild),
      ),
  );
  if (!published) {
    // Another build was published meanwhile (from a later read): this one is never read.
    await forgetBuilds(userId, (other) => other === build);
    return { built: false, reason: 'superseded' };
  }
  const current = requestedAt ? await settle(userId, requestedAt) : true;
  // Builds are ULIDs: the older ones are replaced; a newer one still being written is left alone.
  await forgetBuilds(userId, (other) => other < build);
  return { built: true, build, stories: ordered.length, current };
}

/** Removes the 'updating' mark this build answers, unless a newer request replaced it. */
async function settle(userId: string, requestedAt: string): Promise<boolean> {
  return committed(
    Users.UserEntity.patch({ id: userId })
      .remove(['feedRequestedAt'])
      .where((attr, op) => op.eq(attr.feedRequestedAt, requestedAt)),
  );
}
