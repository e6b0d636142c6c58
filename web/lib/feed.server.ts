// The reader's feed page (spec: Feed, Feed feedback): what its loader reads and what its actions
// do (posted without JavaScript, each is answered by a redirect: POST/redirect/GET). Reading a page is one Query of the reader's feed list (core/feed); the reader's record,
// read by their session, carries the list's counts and the image toggle. The side panel's
// conversation is named in the URL (`?thread=`), so it works without JavaScript and Back closes it.
import * as v from 'valibot';
import * as Assistant from '#core/assistant';
import { RELEVANCE_LABELS, type RelevanceLabel } from '#core/ai';
import { parse, VisibleError } from '#core/common';
import * as Feed from '#core/feed';
import * as Users from '#core/users';
import { MUTE_CHIPS } from './feed-texts';

/** The chat's failures on our side as the spec words them (§8), by the action that failed. */
export const CHAT_FAILURES: Record<string, string> = {
  'open-assistant': Assistant.CHAT_ERRORS.initializeThread,
  send: Assistant.CHAT_ERRORS.sendMessage,
  review: Assistant.CHAT_ERRORS.retrieveClues,
};

export type ChatBubble = { id: string; role: 'user' | 'assistant'; bubbles: string[] };
export type ClueReviewView = {
  toAdd: string[];
  toRemove: string[];
  toKeep: string[];
  /** What the reader asked not to see, and what to show again (ADR 0045). */
  mutesToAdd: string[];
  mutesToRemove: string[];
};
export type Panel = {
  threadId: string;
  category: Assistant.ThreadCategory;
  messages: ChatBubble[];
  review?: ClueReviewView;
};

const ThreadId = v.pipe(v.string(), v.regex(/^[0-9A-Z]{26}$/));

/** The ratings the reader chose in the URL, or their default when none. */
export function chosenRatings(url: URL, reader: Feed.FeedReader): RelevanceLabel[] {
  const asked = url.searchParams
    .getAll('rating')
    .filter((label): label is RelevanceLabel =>
      (RELEVANCE_LABELS as readonly string[]).includes(label),
    );
  return asked.length > 0 ? [...new Set(asked)] : Feed.defaultRatings(reader);
}

/** The labels the filter offers: the two best, and every label the reader's list holds. */
export function ratingOptions(reader: Feed.FeedReader): { label: RelevanceLabel; count: number }[] {
  const counts = Feed.countsOf(reader);
  return [...RELEVANCE_LABELS]
    .reverse()
    .filter((label) => Feed.DEFAULT_RATINGS.includes(label) || counts[label] > 0)
    .map((label) => ({ label, count: counts[label] }));
}

function bubbles(messages: Assistant.Message[]): ChatBubble[] {
  return messages
    .filter((message) => !Assistant.isHiddenJson(message.message))
    .map((message) => ({
      id: message.id,
      role: message.role,
      bubbles: Assistant.splitMessage(message.message),
    }));
}

/** The reader's own thread, or a 404 (another reader's thread is answered like a missing one). */
async function ownThread(userId: string, threadId: string) {
  if (!v.is(ThreadId, threadId)) throw notFound();
  const { data } = await Assistant.AssistantThreadEntity.get({ id: threadId }).go({
    consistent: true,
  });
  if (!data || data.userId !== userId || data.category === 'onboarding') throw notFound();
  return data;
}

const notFound = () =>
  new VisibleError('assistant.thread_not_found', 'This conversation was not found', 404);

/** A review's mutes: optional, as an assistant that hears no "stop showing me" leaves them out. */
type MutesPayload = {
  mutesToBeAdded?: { mute: string; kind?: Users.MuteKind }[];
  mutesToBeRemoved?: { mute: string }[];
};

/** The clues review a thread ends with, if its last message is one. */
function lastReview(messages: Assistant.Message[]) {
  const last = messages.at(-1);
  if (last?.template !== 'clues review' || !last.payload) return undefined;
  return last.payload as Assistant.CluesPayload & MutesPayload;
}

function reviewOf(messages: Assistant.Message[]): ClueReviewView | undefined {
  const review = lastReview(messages);
  if (!review) return undefined;
  const clues = (items?: { clue: string }[]) => (items ?? []).map((item) => item.clue);
  const mutes = (items?: { mute: string }[]) => (items ?? []).map((item) => item.mute);
  return {
    toAdd: clues(review.cluesToBeAdded),
    toRemove: clues(review.cluesToBeRemoved),
    toKeep: clues(review.cluesToRemain),
    mutesToAdd: mutes(review.mutesToBeAdded),
    mutesToRemove: mutes(review.mutesToBeRemoved),
  };
}

/** The side panel for `?thread=`: the reader's own conversation, or nothing. */
export async function panelOf(
  userId: string,
  threadId: string | null,
  { review = true } = {},
): Promise<Panel | undefined> {
  if (!threadId) return undefined;
  const thread = await ownThread(userId, threadId).catch(() => undefined);
  if (!thread) return undefined;
  const messages = await Assistant.messagesOf(thread.id);
  return {
    threadId: thread.id,
    category: thread.category,
    messages: bubbles(messages),
    ...(review ? { review: reviewOf(messages) } : {}),
  };
}

const cluesOf = (user: Users.User) => (user.descriptors ?? []).map((d) => d.clue);

/** The story a feedback posted without JavaScript was about, named in the URL after its redirect. */
const ArticleId = v.pipe(v.string(), v.regex(/^[\w-]{1,64}$/));

/**
 * What a like, a dislike or a chip posted without JavaScript answered, read again after its
 * redirect (`?feedback=` / `?thanked=`): the reader's own feedback on the story (its kind: the
 * list is rebuilt with it only later), and the conversation it opened with its chips, or the
 * chip's thanks. Nothing for a story they gave no feedback on.
 */
export async function answeredFeedback(
  user: Users.User,
  url: URL,
): Promise<(Feed.Feedback & { title: string; answer?: ActionResult }) | undefined> {
  const thanked = url.searchParams.get('thanked');
  const articleId = url.searchParams.get('feedback') ?? thanked;
  if (!v.is(ArticleId, articleId)) return undefined;
  const { data } = await Feed.FeedbackEntity.get({ userId: user.id, articleId }).go({
    consistent: true,
  });
  if (!data) return undefined;
  const { kind, threadId, title } = data;
  if (thanked) return { articleId, kind, title, answer: { intent: 'add-clue', articleId } };
  const thread = threadId ? await ownThread(user.id, threadId).catch(() => undefined) : undefined;
  if (!thread) return { articleId, kind, title };
  const chips = [Assistant.CHAT_CHIP, ...Assistant.storySuggestions(thread)];
  return {
    articleId,
    kind,
    title,
    answer: { intent: 'feedback', articleId, kind, threadId: thread.id, chips },
  };
}

const Intent = v.picklist(
  [
    'images',
    'feedback',
    'withdraw',
    'unmute',
    'add-clue',
    'open-assistant',
    'send',
    'review',
    'apply',
  ],
  'Unknown action',
);

export type ActionResult =
  | { intent: 'images'; showImages: boolean }
  | {
      intent: 'feedback';
      articleId: string;
      kind: 'like' | 'dislike';
      threadId: string;
      chips: string[];
    }
  | { intent: 'withdraw'; articleId: string; changed: boolean }
  | { intent: 'unmute'; muteId: string; changed: boolean }
  | { intent: 'add-clue'; articleId: string }
  | { intent: 'send' | 'review'; threadId: string }
  | { intent: 'apply'; banner: 'clues' | 'feed' }
  | { intent: 'open-assistant'; threadId: string };

/** One of the feed's actions, for the signed-in reader; a refusal is a VisibleError (4xx). */
export async function feedAction(user: Users.User, form: URLSearchParams): Promise<ActionResult> {
  const intent = parse(Intent, form.get('intent') ?? '');
  switch (intent) {
    case 'images': {
      const showImages = form.get('showImages') === 'true';
      await Users.UserEntity.patch({ id: user.id }).set({ showImages }).go();
      return { intent, showImages };
    }
    case 'feedback': {
      const { article, kind, thread } = await Feed.giveFeedback(user.id, {
        articleId: form.get('articleId') ?? '',
        kind: (form.get('kind') ?? '') as Feed.Feedback['kind'],
      });
      return {
        intent,
        articleId: article.id,
        kind,
        threadId: thread.threadId,
        chips: [Assistant.CHAT_CHIP, ...thread.suggestions],
      };
    }
    case 'withdraw': {
      const articleId = form.get('articleId') ?? '';
      const { changed } = await Feed.withdrawFeedback(user.id, {
        articleId,
        kind: (form.get('kind') ?? '') as Feed.Feedback['kind'],
      });
      return { intent, articleId, changed };
    }
    case 'unmute': {
      const muteId = form.get('muteId') ?? '';
      const { changed } = await Feed.unmute(user.id, { muteId });
      return { intent, muteId, changed };
    }
    case 'add-clue': {
      const category =
        form.get('kind') === 'like' ? 'positive_feeback_on_article' : 'negative_feeback_on_article';
      await Users.applyClueChanges(user.id, {
        category,
        cluesToBeAdded: [{ clue: form.get('clue') ?? '' }],
      });
      return { intent, articleId: form.get('articleId') ?? '' };
    }
    case 'open-assistant': {
      const thread = await Assistant.initializeThread({
        userId: user.id,
        category: 'change_clues',
        currentClues: cluesOf(user),
      });
      return { intent, threadId: thread.threadId };
    }
    case 'send': {
      const thread = await ownThread(user.id, form.get('threadId') ?? '');
      await Assistant.sendMessage({
        userId: user.id,
        threadId: thread.id,
        message: form.get('message') ?? '',
      });
      return { intent, threadId: thread.id };
    }
    case 'review': {
      const thread = await ownThread(user.id, form.get('threadId') ?? '');
      await Assistant.retrieveClues({
        userId: user.id,
        threadId: thread.id,
        currentClues: cluesOf(user),
        // What the reader asked not to see, so "show me Solana again" can take one back.
        currentMutes: (user.mutes ?? [])
          .filter((mute) => mute.from === 'request')
          .map((mute) => mute.mute),
      });
      return { intent, threadId: thread.id };
    }
    case 'apply': {
      const thread = await ownThread(user.id, form.get('threadId') ?? '');
      const review = lastReview(await Assistant.messagesOf(thread.id));
      if (!review) {
        throw new VisibleError(
          'clues.no_review',
          'Please ask the assistant for your clues first',
          409,
        );
      }
      const category = thread.category === 'onboarding' ? 'change_clues' : thread.category;
      await Feed.changePreferences(user.id, {
        category,
        cluesToBeAdded: review.cluesToBeAdded ?? [],
        cluesToBeRemoved: review.cluesToBeRemoved ?? [],
        mutesToBeAdded: review.mutesToBeAdded ?? [],
        mutesToBeRemoved: review.mutesToBeRemoved ?? [],
      });
      return { intent, banner: category === 'change_clues' ? 'clues' : 'feed' };
    }
  }
}

export type MuteChip = { id: string; text: string };

/** The reader's mutes as the sidebar's chips: requests first, then their newest dislikes. */
export function muteChips(user: Pick<Users.User, 'mutes'>): MuteChip[] {
  const mutes = user.mutes ?? [];
  const short = (title: string) => (title.length > 48 ? `${title.slice(0, 47).trimEnd()}…` : title);
  return [
    ...mutes.filter((mute) => mute.from === 'request'),
    ...mutes.filter((mute) => mute.from === 'dislike').reverse(),
  ].map((mute) => ({
    id: mute.id,
    text:
      mute.from === 'dislike'
        ? `${MUTE_CHIPS.dislike}: ${short(mute.mute)}`
        : `${MUTE_CHIPS[mute.kind]}: ${mute.mute}`,
  }));
}

/** The stories the reader disliked that their list may still show above 'Not Relevant'. */
export const dislikedStories = (user: Pick<Users.User, 'mutes'>): string[] =>
  (user.mutes ?? []).flatMap((mute) =>
    mute.from === 'dislike' && mute.articleId ? [mute.articleId] : [],
  );
