// A reader's like or dislike of a story in their feed (spec: Feed feedback). It is stored with the
// mark that their list must be rebuilt, in one transaction; the build (job.ts) then moves the
// story's source and topics up or down (taste.ts). A dislike is also one of what the reader does
// not want (ADR 0045): the same write names the story in their mutes, under their clues' revision,
// and the build puts it in 'Not Relevant' and lowers its neighbours (negative.ts). One feedback per
// story: liking a disliked story turns it round; withdrawing it (Undo) removes it. Each real
// change records `story_liked` or `story_disliked` in the same write.
import { createWriteTransaction, type EntityItem } from 'electrodb';
import * as v from 'valibot';
import * as Analytics from '#core/analytics';
import * as Articles from '#core/articles';
import * as Assistant from '#core/assistant';
import { parse, VisibleError } from '#core/common';
import { committed, committedOrRaced, getTogether, type ItemRead } from '#core/db';
import * as Jobs from '#core/jobs';
import * as RateLimit from '#core/rate-limit';
import * as Users from '#core/users';
import { FEEDBACK_KINDS, FeedbackEntity } from './entities';
import { buildSlot, buildWith, requestBuild, sendBuild } from './job';

export const FEEDBACK_MESSAGES = {
  storyRequired: 'Please choose a story',
  storyNotFound: 'This story is no longer available',
  kindRequired: 'Please choose like or dislike',
  busy: 'Your feedback changed at the same time somewhere else. Please try again.',
} as const;

/** A reader gives feedback at reading speed; a script far faster (each one queues a build). */
export const FEEDBACK_LIMIT: RateLimit.Limit = {
  bucket: 'feed-feedback',
  max: 60,
  windowSeconds: 60,
};

export const FeedbackInput = v.object({
  articleId: v.pipe(
    v.string(FEEDBACK_MESSAGES.storyRequired),
    v.trim(),
    v.regex(/^[0-9A-Za-z_-]{1,64}$/, FEEDBACK_MESSAGES.storyNotFound),
  ),
  kind: v.picklist(FEEDBACK_KINDS, FEEDBACK_MESSAGES.kindRequired),
});

export type Feedback = { articleId: string; kind: (typeof FEEDBACK_KINDS)[number] };

/**
 * The conversation a feedback opens, as the feed shows it: its id, the story's clue suggestions,
 * and the chips its answer offers (the chat first).
 */
export type FeedbackThread = { threadId: string; suggestions: string[]; chips: string[] };

/** Tries of a feedback whose write found the state it was decided from changed meanwhile. */
const FEEDBACK_TRIES = 3;

type Given = {
  article: Articles.Article;
  kind: Feedback['kind'];
  changed: boolean;
  thread: FeedbackThread;
};

/**
 * Stores the reader's feedback on a story, with the conversation it opens and the mark that their
 * list must be rebuilt, in one transaction, then queues the rebuild, unless a build of the reader's
 * list holds its slot while the transaction commits: that build, or the look it takes once its
 * slot is free (job.ts), sees the mark, so a burst of feedback is one or two rebuilds.
 * Conditioned on the feedback it replaces (none, or the other kind), so two at once never both
 * count; the same feedback again, or given at the same moment elsewhere, changes nothing and
 * answers the conversation it opened.
 */
export async function giveFeedback(
  userId: string,
  rawInput: v.InferInput<typeof FeedbackInput>,
): Promise<Given> {
  const { articleId, kind } = parse(FeedbackInput, rawInput);
  // Each try reads again, so one that lost a race decides from what the winner wrote: the same
  // feedback given meanwhile (a double click, two tabs) is then this one, and changes nothing.
  let decidedFrom: Feedback['kind'] | 'none' | undefined;
  for (let tries = 0; tries < FEEDBACK_TRIES; tries++) {
    const given = await tryFeedback(userId, articleId, kind, decidedFrom);
    if (given && 'changed' in given) return given;
    if (!given) break;
    decidedFrom = given.decidedFrom;
  }
  throw new VisibleError('feed.feedback_busy', FEEDBACK_MESSAGES.busy, 409);
}

/**
 * One try. When its write found something it was decided from changed, it answers the feedback it
 * decided from, for the next try; that try refuses (undefined) if the feedback itself changed to
 * the other kind meanwhile: the reader clicked both at once, and one of them must be told.
 */
async function tryFeedback(
  userId: string,
  articleId: string,
  kind: Feedback['kind'],
  decidedFrom: Feedback['kind'] | 'none' | undefined,
): Promise<Given | { decidedFrom: Feedback['kind'] | 'none' } | undefined> {
  // The story, the feedback it may have, the reader (its tracking values go with the event), a
  // build of their list on its way, and their rate limit's windows, in one read.
  const [article, before, reader, building, windows] = await getTogether(
    Articles.articleRead(articleId),
    feedbackRead(userId, articleId),
    Users.userRead(userId),
    Jobs.slotRead(buildSlot(userId)),
    RateLimit.windowsRead(FEEDBACK_LIMIT, userId),
  );
  if (!reader) throw new VisibleError('user.not_found', Users.USER_MESSAGES.notFound, 404);
  if (!article)
    throw new VisibleError('feed.story_not_found', FEEDBACK_MESSAGES.storyNotFound, 404);
  const opened = Assistant.feedbackThread({
    userId,
    kind,
    article,
    currentClues: (reader.descriptors ?? []).map((descriptor) => descriptor.clue),
  });
  const started = feedbackThreadOf(opened.started);
  const previous = before?.kind;
  if (previous === kind) {
    // Nothing changes, so nothing is counted: the same click again costs the reader no room.
    const thread = before?.threadId
      ? { ...started, threadId: before.threadId }
      : await openThreadFor(userId, articleId, kind, opened, started);
    return thread ? { article, kind, changed: false, thread } : { decidedFrom: kind };
  }
  if (decidedFrom && (previous ?? 'none') !== decidedFrom) return undefined;
  const counted = RateLimit.countIn(FEEDBACK_LIMIT, userId, windows);
  const at = new Date().toISOString();
  const named = (reader.mutes ?? []).some(
    (mute) => mute.from === 'dislike' && mute.articleId === articleId,
  );
  // A dislike adds the story to the reader's mutes, a like of a disliked story takes it out: both
  // are decided from the mutes as read, so they are written under the revision they were read at.
  const mutes =
    kind === 'dislike'
      ? Users.mutesWithDislike(reader, { articleId, title: article.title }, at)
      : named
        ? Users.mutesWithoutDislike(reader, articleId)
        : undefined;
  const revision = reader.cluesRevision ?? 0;
  const threadId = opened.thread.id;
  // No build on its way: this write queues one (its slot taken here, its message sent after).
  const build = building ? undefined : buildWith(userId);
  const stored = await committedOrRaced(
    createWriteTransaction(
      {
        feedback: FeedbackEntity,
        users: Users.UserEntity,
        event: Analytics.AnalyticsEventEntity,
        thread: Assistant.AssistantThreadEntity,
        message: Assistant.ChatMessageEntity,
        slot: Jobs.ActiveProcessEntity,
        process: Jobs.ProcessEntity,
        rate: RateLimit.RateLimitWindowEntity,
      },
      ({ feedback, users, event, thread, message, slot, process, rate }) => [
        counted(rate),
        previous
          ? feedback
              .patch({ userId, articleId })
              .set({ kind, threadId, updatedAt: at })
              .where((attr, op) => op.eq(attr.kind, previous))
              .commit()
          : feedback
              .create({
                userId,
                articleId,
                kind,
                source: article.source,
                title: article.title,
                threadId,
                createdAt: at,
                updatedAt: at,
              })
              .commit(),
        mutes
          ? users
              .patch({ id: userId })
              .set({ mutes, cluesRevision: revision + 1, feedRequestedAt: at })
              .where(Users.atRevision(revision))
              .commit()
          : users.patch({ id: userId }).set({ feedRequestedAt: at }).commit(),
        event
          .create(
            Users.readerEvent(
              reader,
              {
                name: kind === 'like' ? 'story_liked' : 'story_disliked',
                key: `${userId}:${articleId}:${at}`,
                path: '/feed',
                articleId,
              },
              at,
            ),
          )
          .commit(),
        thread.create(opened.thread).commit(),
        message.create(opened.opening).commit(),
        // The build that holds the slot still holds it: it will see this mark. Otherwise the
        // slot is taken for a new build, which fails the write if a build took it meanwhile.
        ...(building
          ? [
              slot
                .check({ name: buildSlot(userId) })
                .where((attr, op) => op.eq(attr.id, building.id))
                .commit(),
            ]
          : build!.writes({ process, active: slot })),
      ],
    ),
  );
  if (!stored) return { decidedFrom: previous ?? 'none' };
  if (build) await sendBuild(build, userId);
  return { article, kind, changed: true, thread: started };
}

/**
 * Feedback stored before it kept its conversation, given again: the conversation is written now,
 * with the feedback naming it, in one transaction.
 */
async function openThreadFor(
  userId: string,
  articleId: string,
  kind: Feedback['kind'],
  opened: ReturnType<typeof Assistant.feedbackThread>,
  started: FeedbackThread,
): Promise<FeedbackThread | undefined> {
  const stored = await committedOrRaced(
    createWriteTransaction(
      {
        feedback: FeedbackEntity,
        thread: Assistant.AssistantThreadEntity,
        message: Assistant.ChatMessageEntity,
      },
      ({ feedback, thread, message }) => [
        feedback
          .patch({ userId, articleId })
          .set({ threadId: opened.thread.id })
          .where((attr, op) => op.eq(attr.kind, kind))
          .commit(),
        thread.create(opened.thread).commit(),
        message.create(opened.opening).commit(),
      ],
    ),
  );
  // The feedback changed meanwhile: the next try decides again.
  return stored ? started : undefined;
}

const feedbackThreadOf = ({ threadId, suggestions }: Assistant.StartedThread): FeedbackThread => ({
  threadId,
  suggestions,
  chips: Assistant.feedbackChips(suggestions),
});

function feedbackRead(
  userId: string,
  articleId: string,
): ItemRead<EntityItem<typeof FeedbackEntity>> {
  return {
    key: FeedbackEntity.get({ userId, articleId }).params().Key,
    parse: (item) => FeedbackEntity.parse({ Item: item }).data ?? undefined,
  };
}

export type Withdrawal = { changed: boolean };

/**
 * Withdraws the reader's feedback on a story (Undo): it is removed, with the story's place in
 * their mutes, and their list rebuilt without it. Conditioned on the feedback being this kind (a
 * like given meanwhile elsewhere is not undone by an Undo of the dislike: 409) and on the mutes as
 * read; feedback already withdrawn changes nothing.
 */
export async function withdrawFeedback(
  userId: string,
  rawInput: v.InferInput<typeof FeedbackInput>,
): Promise<Withdrawal> {
  const { articleId, kind } = parse(FeedbackInput, rawInput);
  const [before, reader] = await Promise.all([
    FeedbackEntity.get({ userId, articleId }).go({ consistent: true }),
    Users.mustGet(userId),
  ]);
  if (!before.data) return { changed: false };
  if (before.data.kind !== kind) {
    throw new VisibleError('feed.feedback_busy', FEEDBACK_MESSAGES.busy, 409);
  }
  await RateLimit.hit(FEEDBACK_LIMIT, userId);
  const at = new Date().toISOString();
  const named = (reader.mutes ?? []).some(
    (mute) => mute.from === 'dislike' && mute.articleId === articleId,
  );
  const revision = reader.cluesRevision ?? 0;
  const write = createWriteTransaction(
    { feedback: FeedbackEntity, users: Users.UserEntity },
    ({ feedback, users }) => [
      feedback
        .delete({ userId, articleId })
        .where((attr, op) => op.eq(attr.kind, kind))
        .commit(),
      named
        ? users
            .patch({ id: userId })
            .set({
              mutes: Users.mutesWithoutDislike(reader, articleId),
              cluesRevision: revision + 1,
              feedRequestedAt: at,
            })
            .where(Users.atRevision(revision))
            .commit()
        : users.patch({ id: userId }).set({ feedRequestedAt: at }).commit(),
    ],
  );
  if (!(await committed(write))) {
    const now = await FeedbackEntity.get({ userId, articleId }).go({ consistent: true });
    if (!now.data) return { changed: false };
    throw new VisibleError('feed.feedback_busy', FEEDBACK_MESSAGES.busy, 409);
  }
  await requestBuild(userId);
  return { changed: true };
}
