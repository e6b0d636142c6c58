// The reader's feed page (spec: Feed, Feed feedback): what its loader reads and what its actions
// do (posted without JavaScript, each is answered by a redirect: POST/redirect/GET). Each action
// is one core operation (a like in core/feed, a panel's turn in core/assistant), its answer mapped
// for the page here. Reading a page is one Query of the reader's feed list (core/feed); the
// reader's record, read by their session, carries the list's counts and the image toggle. The
// side panel's conversation is named in the URL (`?thread=`), so it works without JavaScript and
// Back closes it.
import * as v from 'valibot';
import * as Assistant from '#core/assistant';
import { RELEVANCE_LABELS, type RelevanceLabel } from '#core/ai';
import { parse } from '#core/common';
import * as Feed from '#core/feed';
import * as Users from '#core/users';
import { MUTE_CHIPS } from './feed-texts';

/** The chat's failures on our side as the spec words them (§8), by the action that failed. */
export const CHAT_FAILURES: Record<string, string> = {
  'open-assistant': Assistant.CHAT_ERRORS.initializeThread,
  send: Assistant.CHAT_ERRORS.sendMessage,
  review: Assistant.CHAT_ERRORS.retrieveClues,
};

export type Panel = Assistant.FeedPanel;

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
  const given = await Feed.answeredFeedback(user.id, url.searchParams.get('feedback') ?? thanked, {
    withChat: !thanked,
  });
  if (!given) return undefined;
  const { articleId, kind, title, chat } = given;
  if (thanked) return { articleId, kind, title, answer: { intent: 'add-clue', articleId } };
  if (!chat) return { articleId, kind, title };
  return { articleId, kind, title, answer: { intent: 'feedback', articleId, kind, ...chat } };
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

/**
 * One of the feed's actions, for the signed-in reader: each is one core operation, its answer
 * mapped for the page; a refusal is a VisibleError (4xx).
 */
export async function feedAction(user: Users.User, form: URLSearchParams): Promise<ActionResult> {
  const intent = parse(Intent, form.get('intent') ?? '');
  const field = (name: string) => form.get(name) ?? '';
  switch (intent) {
    case 'images': {
      const showImages = form.get('showImages') === 'true';
      await Users.UserEntity.patch({ id: user.id }).set({ showImages }).go();
      return { intent, showImages };
    }
    case 'feedback': {
      const { article, kind, thread } = await Feed.giveFeedback(user.id, {
        articleId: field('articleId'),
        kind: field('kind') as Feed.Feedback['kind'],
      });
      return {
        intent,
        articleId: article.id,
        kind,
        threadId: thread.threadId,
        chips: thread.chips,
      };
    }
    case 'withdraw': {
      const articleId = field('articleId');
      const { changed } = await Feed.withdrawFeedback(user.id, {
        articleId,
        kind: field('kind') as Feed.Feedback['kind'],
      });
      return { intent, articleId, changed };
    }
    case 'unmute': {
      const muteId = field('muteId');
      const { changed } = await Feed.unmute(user.id, { muteId });
      return { intent, muteId, changed };
    }
    case 'add-clue': {
      await Feed.addStoryClue(user.id, { kind: field('kind'), clue: field('clue') });
      return { intent, articleId: field('articleId') };
    }
    case 'open-assistant': {
      const { threadId } = await Assistant.openFeedChat(user);
      return { intent, threadId };
    }
    case 'send': {
      const { threadId } = await Assistant.sendFeedMessage({
        userId: user.id,
        threadId: field('threadId'),
        message: field('message'),
      });
      return { intent, threadId };
    }
    case 'review': {
      const { threadId } = await Assistant.reviewFeedChat(user, field('threadId'));
      return { intent, threadId };
    }
    case 'apply': {
      const { category } = await Feed.applyReview(user.id, field('threadId'));
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
