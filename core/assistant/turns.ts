// The assistant's turns as the reader's screens take them, each one operation its route calls
// once: the feed's side panel (a conversation about the reader's clues or a story, named in the
// URL: never the onboarding interview) and the get-started interview. Each answers what its screen
// shows: the messages as bubbles (clue JSON is never shown) and, in the panel, the clues review.
import * as v from 'valibot';
import { VisibleError } from '#core/common';
import { logger } from '#core/logs';
import {
  ASSISTANT_MESSAGES,
  CHAT_CHIP,
  initializeThread,
  isOnboardingThreadOf,
  messagesOf,
  retrieveClues,
  sendMessage,
  storySuggestions,
  AssistantThreadEntity,
  type CluesPayload,
  type Message,
  type Thread,
  type ThreadCategory,
} from './conversation';
import { isHiddenJson, parseClues, splitMessage } from './messages';

/** A message as the chat log shows it: its bubbles, each said by the reader or the curator. */
export type ChatBubble = { id: string; role: 'user' | 'assistant'; bubbles: string[] };

/** The reader as a turn reads them: their clues, and what they asked not to see (ADR 0045). */
export type ChatReader = {
  id: string;
  descriptors?: { clue: string }[];
  mutes?: { mute: string; from: string }[];
};

const cluesOf = (reader: ChatReader) => (reader.descriptors ?? []).map((d) => d.clue);

/** A thread's messages as the chat shows them; JSON about clues is never shown. */
export function bubbles(messages: Message[]): ChatBubble[] {
  return messages
    .filter((message) => !isHiddenJson(message.message))
    .map((message) => ({
      id: message.id,
      role: message.role,
      bubbles: splitMessage(message.message),
    }));
}

/** The chips a like or dislike's answer offers: the chat first, then the story's clues. */
export const feedbackChips = (suggestions: string[]): string[] => [CHAT_CHIP, ...suggestions];

// The feed's side panel.

export type FeedCategory = Exclude<ThreadCategory, 'onboarding'>;
export type ClueReviewView = {
  toAdd: string[];
  toRemove: string[];
  toKeep: string[];
  /** What the reader asked not to see, and what to show again (ADR 0045). */
  mutesToAdd: string[];
  mutesToRemove: string[];
};
export type FeedPanel = {
  threadId: string;
  category: FeedCategory;
  messages: ChatBubble[];
  review?: ClueReviewView;
};

export const FEED_CHAT_MESSAGES = {
  noReview: 'Please ask the assistant for your clues first',
} as const;

const ThreadId = v.pipe(v.string(), v.regex(/^[0-9A-Z]{26}$/));
type FeedThread = Thread & { category: FeedCategory };

/**
 * The reader's own conversation from their feed, or a 404: another reader's thread, the
 * onboarding interview and a malformed id are all answered like a missing one.
 */
export async function feedThread(userId: string, threadId: string): Promise<FeedThread> {
  const missing = () =>
    new VisibleError('assistant.thread_not_found', ASSISTANT_MESSAGES.threadNotFound, 404);
  if (!v.is(ThreadId, threadId)) throw missing();
  const { data } = await AssistantThreadEntity.get({ id: threadId }).go({ consistent: true });
  if (!data || data.userId !== userId || data.category === 'onboarding') throw missing();
  return data as FeedThread;
}

/** The clues review a thread ends with, if its last message is one. */
function lastReview(messages: Message[]): CluesPayload | undefined {
  const last = messages.at(-1);
  return last?.template === 'clues review' ? last.payload : undefined;
}

function reviewView(review: CluesPayload): ClueReviewView {
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
export async function feedPanel(
  userId: string,
  threadId: string | null,
  { review = true } = {},
): Promise<FeedPanel | undefined> {
  if (!threadId) return undefined;
  const thread = await feedThread(userId, threadId).catch(() => undefined);
  if (!thread) return undefined;
  const messages = await messagesOf(thread.id);
  const last = review ? lastReview(messages) : undefined;
  return {
    threadId: thread.id,
    category: thread.category,
    messages: bubbles(messages),
    ...(review ? { review: last && reviewView(last) } : {}),
  };
}

/** 'I want to change some of my clues': a conversation about the reader's clues as they are. */
export async function openFeedChat(reader: ChatReader): Promise<{ threadId: string }> {
  const { threadId } = await initializeThread({
    userId: reader.id,
    category: 'change_clues',
    currentClues: cluesOf(reader),
  });
  return { threadId };
}

/** The reader's message in their panel, answered by the assistant. */
export async function sendFeedMessage(input: {
  userId: string;
  threadId: string;
  message: string;
}): Promise<{ threadId: string }> {
  const thread = await feedThread(input.userId, input.threadId);
  await sendMessage({ userId: input.userId, threadId: thread.id, message: input.message });
  return { threadId: thread.id };
}

/** 'Review my clues': the changes the assistant heard, from the reader's clues and mutes as now. */
export async function reviewFeedChat(
  reader: ChatReader,
  threadId: string,
): Promise<{ threadId: string }> {
  const thread = await feedThread(reader.id, threadId);
  await retrieveClues({
    userId: reader.id,
    threadId: thread.id,
    currentClues: cluesOf(reader),
    // What the reader asked not to see, so "show me Solana again" can take one back.
    currentMutes: (reader.mutes ?? [])
      .filter((mute) => mute.from === 'request')
      .map((mute) => mute.mute),
  });
  return { threadId: thread.id };
}

/** The review 'Apply these changes' applies (core/feed's applyReview), or a 409 when none. */
export async function feedReview(
  userId: string,
  threadId: string,
): Promise<{ category: FeedCategory; review: CluesPayload }> {
  const thread = await feedThread(userId, threadId);
  const review = lastReview(await messagesOf(thread.id));
  if (!review) throw new VisibleError('clues.no_review', FEED_CHAT_MESSAGES.noReview, 409);
  return { category: thread.category, review };
}

/**
 * The conversation a feedback opened, if it is still the reader's, with its chips: what the feed
 * shows again after a like posted without JavaScript.
 */
export async function feedbackChat(
  userId: string,
  threadId: string,
): Promise<{ threadId: string; chips: string[] } | undefined> {
  const thread = await feedThread(userId, threadId).catch(() => undefined);
  return thread && { threadId: thread.id, chips: feedbackChips(storySuggestions(thread)) };
}

// The get-started interview (the ip variant), for the reader its invitation names.

/** The interview so far, only the reader's own onboarding thread's; null for any other. */
export async function interview(
  userId: string,
  threadId: string,
): Promise<{ threadId: string; messages: ChatBubble[] } | null> {
  if (!(await isOnboardingThreadOf(userId, threadId))) return null;
  return { threadId, messages: bubbles(await messagesOf(threadId)) };
}

/** The interview starts: the curator's opening, for the reader's clues so far. */
export async function startInterview(
  reader: ChatReader,
): Promise<{ threadId: string; messages: ChatBubble[] }> {
  const thread = await initializeThread({
    userId: reader.id,
    category: 'onboarding',
    currentClues: cluesOf(reader),
  });
  return { threadId: thread.threadId, messages: bubbles(thread.messages) };
}

/** The reader's answer in the interview, with the curator's next question. */
export async function interviewMessage(input: {
  userId: string;
  threadId: string;
  message: string;
}): Promise<{ messages: ChatBubble[] }> {
  return { messages: bubbles(await sendMessage(input)) };
}

/** 'Complete Interview': the clues the curator read out of it, and its word on them. */
export async function interviewClues(input: {
  userId: string;
  threadId: string;
}): Promise<{ clues: string[]; suggestion: string }> {
  const messages = await retrieveClues(input);
  const review = parseClues(messages.at(-1)?.message ?? '', (message, text) =>
    logger.error(message, { text }),
  );
  return { clues: review?.clues ?? [], suggestion: review?.suggestion ?? '' };
}
