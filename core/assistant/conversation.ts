// The assistant (spec §4, §7): conversations a user has with their content curator, stored per
// user, and the clues read out of them. Every model call goes through the AI port: with an OpenAI
// model it is a real conversation under a system prompt from the prompt store; with the local
// provider a deterministic interviewer (core/ai/local/chat.ts, ADR 0022). Feedback on an article
// keeps a snapshot of the story on its thread, and the model reads it with the conversation.
//
//   initializeThread({ userId, category, articleId?, currentClues? })
//                                            -> { threadId, messages, suggestions }
//   sendMessage({ userId, threadId, message })                        -> messages
//   retrieveClues({ userId, threadId, currentClues?, currentMutes? })  -> messages (last: clues JSON)
import { createWriteTransaction, type EntityItem } from 'electrodb';
import * as v from 'valibot';
import * as Ai from '#core/ai';
import * as Articles from '#core/articles';
import { freeText, parse, VisibleError } from '#core/common';
import { monotonicUlid } from '#core/ids';
import { isConditionFailure } from '#core/db';
import { logger } from '#core/logs';
import * as Prompts from '#core/prompts';
import * as RateLimit from '#core/rate-limit';
import type { Limit } from '#core/rate-limit';
import { ChatMessageEntity, MESSAGE_TEMPLATES } from './message-entity';
import { AssistantThreadEntity, THREAD_CATEGORIES } from './thread-entity';

export { AssistantThreadEntity, ChatMessageEntity, MESSAGE_TEMPLATES, THREAD_CATEGORIES };
export { isHiddenJson, parseClues, splitMessage, type ClueReview } from './messages';

export type ThreadCategory = (typeof THREAD_CATEGORIES)[number];
export type MessageTemplate = (typeof MESSAGE_TEMPLATES)[number];
export type ClueItem = { clue: string };
/** A topic the reader does not want to see ("Solana"), as a clues review lists it. */
export type MuteItem = { mute: string };
export type CluesPayload = {
  cluesToBeAdded?: ClueItem[];
  cluesToBeRemoved?: ClueItem[];
  cluesToRemain?: ClueItem[];
  mutesToBeAdded?: MuteItem[];
  mutesToBeRemoved?: MuteItem[];
};

/** A message as the chat shows it (spec: id, role, message, template, payload, doNotSkip). */
export type Message = {
  id: string;
  role: 'user' | 'assistant';
  message: string;
  template?: MessageTemplate;
  payload?: CluesPayload;
  doNotSkip?: boolean;
  createdAt: string;
};

/** The prompt store's automation for each category's system prompt. */
export const PROMPT_IDS: Record<ThreadCategory, string> = {
  onboarding: 'assistant-onboarding',
  change_clues: 'assistant-change-clues',
  negative_feeback_on_article: 'assistant-change-clues',
  positive_feeback_on_article: 'assistant-change-clues',
};

/**
 * The chip the article-feedback banner offers first: it opens the chat. Every other chip is a
 * clue to add (`initializeThread`'s suggestions).
 */
export const CHAT_CHIP = 'Let me chat with the assistant';

/** What a thread keeps of the story it is about: enough for the model, never the whole article. */
export const STORY_LIMITS = { title: 300, source: 200, summary: 2_000 };

/** Clue chips offered for a story the reader liked. */
const STORY_CHIPS = 2;

/** Bounds of a conversation (ADR 0022). */
export const ASSISTANT_LIMITS = {
  messageLength: 1_000,
  /** Messages in a thread, clue reviews included. */
  threadMessages: 60,
  /** The conversation stops here, so ten clue reviews always fit after it. */
  conversationMessages: 50,
  clues: 100,
  /** As long as a stored clue (core/users' ClueSchema), so every reader's clues fit. */
  clueLength: 500,
  /** As many and as long as a reader's stored mutes may be (core/users), so a review applies. */
  mutes: 20,
  /** A mute is a topic phrase ("DAO treasury management"), not a sentence. */
  muteLength: 100,
  /** The longest assistant reply stored: a model's runaway answer is cut, never a failed write. */
  replyLength: 4_000,
};

/** Each operation counts; a person chats at a few messages a minute, a script far faster. */
export const RATE_LIMIT: Limit = { bucket: 'assistant-user', max: 30, windowSeconds: 60 };

/** The chat's error texts (spec §8), for the UI to show when an operation fails. */
export const CHAT_ERRORS = {
  initializeThread: 'Failed to start the interactive conversation',
  sendMessage: 'Failed to send message',
  retrieveClues: 'Failed to get clues',
} as const;

export const ASSISTANT_MESSAGES = {
  messageRequired: 'Please type a message',
  messageTooLong: `A message has at most ${ASSISTANT_LIMITS.messageLength.toLocaleString('en')} characters`,
  unknownCategory: 'Unknown conversation category',
  articleRequired: 'Feedback on an article needs the article',
  articleNotFound: 'This story is no longer available, so there is nothing to give feedback on',
  threadNotFound: 'This conversation was not found',
  threadFull: 'This conversation is full. Please finish it to see your clues.',
  busy: 'Another message arrived at the same time. Please send yours again.',
  tooManyClues: `At most ${ASSISTANT_LIMITS.clues} clues`,
} as const;

/** The first message of a thread: the product's, so a conversation starts the same on every model. */
const OPENING: Record<ThreadCategory, (clues: string[]) => string> = {
  onboarding: () =>
    "Hello, this is your Content Curator. I'll ask a few questions to learn what you care about. " +
    'What do you do in web3? Do you build, invest in, research or collect something?',
  change_clues: (clues) =>
    clues.length === 0
      ? 'You have not given us any clues yet. Tell me what you follow in web3, for example “I build ' +
        'DeFi lending on Ethereum”, and what you would rather not see.'
      : `Here are the clues you've given us:\n\n${clues.map((clue) => `- ${clue}`).join('\n')}\n\nWhat would you like to add, change or remove?`,
  negative_feeback_on_article: () =>
    'Sorry this story was not for you. What about it missed the mark, so I can adjust your clues?',
  positive_feeback_on_article: () =>
    'Glad you liked this story! What about it was useful to you, so I can find more like it?',
};

const Id = (what: string) =>
  v.pipe(
    v.string(`${what} is required`),
    v.trim(),
    v.nonEmpty(`${what} is required`),
    v.maxLength(100),
  );

const Clues = v.optional(
  v.pipe(
    v.array(
      v.pipe(
        freeText({
          max: ASSISTANT_LIMITS.clueLength,
          tooLong: `A clue has at most ${ASSISTANT_LIMITS.clueLength} characters`,
          lines: 'collapse',
        }),
        v.nonEmpty('A clue cannot be empty'),
      ),
    ),
    v.maxLength(ASSISTANT_LIMITS.clues, ASSISTANT_MESSAGES.tooManyClues),
  ),
);

export const InitializeThreadInput = v.pipe(
  v.object({
    userId: Id('A user'),
    category: v.picklist(THREAD_CATEGORIES, ASSISTANT_MESSAGES.unknownCategory),
    articleId: v.optional(Id('An article')),
    /** The user's clues now (core/users owns them; the caller passes them in). */
    currentClues: Clues,
  }),
  v.check(
    (input) =>
      input.category === 'onboarding' || input.category === 'change_clues' || !!input.articleId,
    ASSISTANT_MESSAGES.articleRequired,
  ),
);

export const SendMessageInput = v.object({
  userId: Id('A user'),
  threadId: Id('A conversation'),
  message: v.pipe(
    v.optional(
      freeText({
        max: ASSISTANT_LIMITS.messageLength,
        tooLong: ASSISTANT_MESSAGES.messageTooLong,
        missing: ASSISTANT_MESSAGES.messageRequired,
        lines: 'multi',
      }),
      '',
    ),
    v.nonEmpty(ASSISTANT_MESSAGES.messageRequired),
  ),
});

export const RetrieveCluesInput = v.object({
  userId: Id('A user'),
  threadId: Id('A conversation'),
  /** Overrides the clues stored when the thread began (they may have changed since). */
  currentClues: Clues,
  /** The topics the reader mutes now, so "show me Solana again" can unmute one. */
  currentMutes: v.optional(
    v.pipe(
      v.array(
        v.pipe(
          freeText({
            max: ASSISTANT_LIMITS.muteLength,
            tooLong: `A muted topic has at most ${ASSISTANT_LIMITS.muteLength} characters`,
            lines: 'collapse',
          }),
          v.nonEmpty('A muted topic cannot be empty'),
        ),
      ),
      v.maxLength(ASSISTANT_LIMITS.mutes, `At most ${ASSISTANT_LIMITS.mutes} muted topics`),
    ),
  ),
});

const nextId = monotonicUlid();
export type Thread = EntityItem<typeof AssistantThreadEntity>;
/** The story a feedback thread is about, as the thread keeps it. */
export type ThreadStory = NonNullable<Thread['story']>;

/** What starting a thread answers: its id, its opening message and clue chips (a liked story's). */
export type StartedThread = { threadId: string; messages: Message[]; suggestions: string[] };

const isFeedback = (category: ThreadCategory) =>
  category === 'negative_feeback_on_article' || category === 'positive_feeback_on_article';

/** Which conversation a thread is, as the AI port's chat and clue review take it. */
const threadFacts = (thread: Thread) => ({
  category: thread.category === 'onboarding' ? ('onboarding' as const) : ('change_clues' as const),
  ...(isFeedback(thread.category)
    ? {
        feedback:
          thread.category === 'positive_feeback_on_article'
            ? ('liked' as const)
            : ('disliked' as const),
      }
    : {}),
});

/** Cut at a word boundary, with an ellipsis when anything was left out. */
function cut(text: string, max: number): string {
  const tidy = text.replace(/\s+/g, ' ').trim();
  if (tidy.length <= max) return tidy;
  const head = tidy.slice(0, max - 1);
  const space = head.lastIndexOf(' ');
  return `${(space > max * 0.8 ? head.slice(0, space) : head).replace(/[\s.,;:]+$/, '')}…`;
}

async function storyOf(articleId: string): Promise<ThreadStory> {
  const article = await Articles.byId(articleId);
  if (!article) {
    throw new VisibleError('assistant.article_not_found', ASSISTANT_MESSAGES.articleNotFound, 404);
  }
  return threadStory(article);
}

function threadStory(article: Articles.Article): ThreadStory {
  return {
    title: cut(article.title, STORY_LIMITS.title),
    source: cut(article.source, STORY_LIMITS.source),
    canonicalUrl: article.canonicalUrl,
    summary: cut(article.summary ?? '', STORY_LIMITS.summary),
  };
}

/**
 * A reply as it is stored: at most replyLength characters, cut after a word with an ellipsis.
 * Line breaks are kept (they split the reply into bubbles), unlike `cut`.
 */
function capped(reply: string): string {
  const text = reply.trim();
  const max = ASSISTANT_LIMITS.replyLength;
  if (text.length <= max) return text;
  const head = text.slice(0, max - 1).replace(/[\uD800-\uDBFF]$/, '');
  const space = head.search(/\s\S*$/);
  return `${(space > max * 0.8 ? head.slice(0, space) : head).trimEnd()}…`;
}

/** The story as the AI port takes it. */
const forModel = ({ title, source, summary }: ThreadStory): Ai.Story => ({
  title,
  source,
  summary,
});

const storyLines = (story: ThreadStory) =>
  [
    `Title: ${story.title}`,
    `Source: ${story.source}`,
    `Summary: ${story.summary || '(none)'}`,
  ].join('\n');

/**
 * The system prompt's story section: which story the reader liked or disliked, and what to do
 * with each. A disliked story never becomes a clue: clues attract stories like them.
 */
function storySection(thread: Thread): string {
  if (!thread.story) return '';
  return thread.category === 'positive_feeback_on_article'
    ? `The reader liked this story in their feed:\n${storyLines(thread.story)}\n\n` +
        'Ask what about it was useful to them, and turn that into clues that find more stories ' +
        'like it.'
    : `The reader disliked this story in their feed:\n${storyLines(thread.story)}\n\n` +
        'Ask what about it missed the mark. A clue that brought it in may be too broad: help them ' +
        'narrow or remove it. Never add a clue about what they dislike: clues attract stories.';
}

/** An operation's failure as the spec words it: 'Assistant: {operation} failed, ...'. */
function failed(operation: string, error: unknown): unknown {
  if (error instanceof VisibleError) return error;
  // The AI port rejects with AiErrors only (a spent budget is an AiTimeout); anything else is a bug.
  if (!Ai.isAiError(error)) return error;
  logger.error(`Assistant: ${operation} failed`, { error });
  return new VisibleError(
    'assistant.unavailable',
    `Assistant: ${operation} failed, the assistant did not answer. Please try again in a minute.`,
    503,
    { cause: error },
  );
}

async function ownThread(userId: string, threadId: string): Promise<Thread> {
  const { data } = await AssistantThreadEntity.get({ id: threadId }).go({ consistent: true });
  // Another user's thread is answered like a missing one: ids are not secrets, threads are.
  if (!data || data.userId !== userId) {
    throw new VisibleError('assistant.thread_not_found', ASSISTANT_MESSAGES.threadNotFound, 404);
  }
  return data;
}

/** Whether a thread is this user's onboarding interview: the only one a signup may name. */
export async function isOnboardingThreadOf(userId: string, threadId: string): Promise<boolean> {
  const { data } = await AssistantThreadEntity.get({ id: threadId }).go({ consistent: true });
  return data?.userId === userId && data.category === 'onboarding';
}

function shown(item: Message): Message {
  const { id, role, message, template, payload, doNotSkip, createdAt } = item;
  return {
    id,
    role,
    message,
    createdAt,
    ...(template ? { template } : {}),
    ...(payload ? { payload } : {}),
    ...(doNotSkip !== undefined ? { doNotSkip } : {}),
  };
}

/** A thread's messages in order (bounded by the thread's limit). */
export async function messagesOf(threadId: string): Promise<Message[]> {
  const { data } = await ChatMessageEntity.query
    .byThread({ threadId })
    .go({ consistent: true, pages: 'all', limit: ASSISTANT_LIMITS.threadMessages });
  return data.map(shown);
}

/** What the model reads: the conversation, without clue reviews or other templated messages. */
const conversation = (messages: Message[]): Ai.ChatMessage[] =>
  messages.filter((m) => !m.template).map((m) => ({ role: m.role, content: m.message }));

/** Writes new messages and moves the thread's count on, only if no other write came between. */
async function append(
  thread: Thread,
  messages: Omit<Message, 'id' | 'createdAt'>[],
): Promise<Message[]> {
  const createdAt = new Date().toISOString();
  const items = messages.map((message) => ({ ...message, id: nextId(), createdAt }));
  const write = createWriteTransaction(
    { thread: AssistantThreadEntity, message: ChatMessageEntity },
    ({ thread: threads, message }) => [
      threads
        .patch({ id: thread.id })
        .set({ messageCount: thread.messageCount + items.length })
        .where(({ messageCount }, { eq }) => eq(messageCount, thread.messageCount))
        .commit(),
      ...items.map((item) => message.create({ ...item, threadId: thread.id }).commit()),
    ],
  );
  const busy = () => new VisibleError('assistant.busy', ASSISTANT_MESSAGES.busy, 409);
  const result = await write.go().catch((error: unknown) => {
    throw isConditionFailure(error) ? busy() : error;
  });
  if (result.canceled) throw busy();
  return items.map(shown);
}

async function modelAndSystem(thread: Thread, clues: string[]) {
  const [model, prompt] = await Promise.all([
    Ai.configured('gpt'),
    Prompts.current(PROMPT_IDS[thread.category]),
  ]);
  const story = storySection(thread);
  const system = Prompts.render(prompt, { clues: clues.join('\n'), story }).trim();
  // A prompt stored before {story} existed still tells the model which story this is about.
  const placed = Prompts.placeholdersIn(prompt.prompt).includes('story');
  return { model, system: story && !placed ? `${system}\n\n${story}` : system };
}

/**
 * Starts a conversation with the category's opening message. Feedback on an article reads the
 * article (404 when it is gone) and keeps a snapshot of its story; for a liked story it also
 * answers clue chips made from the story's key phrases (none the reader has), and none for a
 * disliked one: a clue about it would attract the very stories the reader did not want.
 */
export async function initializeThread(
  rawInput: v.InferInput<typeof InitializeThreadInput>,
): Promise<StartedThread> {
  const input = parse(InitializeThreadInput, rawInput);
  await RateLimit.hit(RATE_LIMIT, input.userId);
  const clues = input.currentClues ?? [];
  const feedback = isFeedback(input.category);
  const story = feedback && input.articleId ? await storyOf(input.articleId) : undefined;
  const threadId = nextId();
  const createdAt = new Date().toISOString();
  const opening = {
    id: nextId(),
    threadId,
    role: 'assistant' as const,
    message: OPENING[input.category](clues),
    ...(feedback ? { template: 'article feedback' as const, doNotSkip: true } : {}),
    createdAt,
  };
  await createWriteTransaction(
    { thread: AssistantThreadEntity, message: ChatMessageEntity },
    ({ thread, message }) => [
      thread
        .create({
          id: threadId,
          userId: input.userId,
          category: input.category,
          ...(input.articleId ? { articleId: input.articleId } : {}),
          ...(story ? { story } : {}),
          currentClues: clues,
          messageCount: 1,
          createdAt,
        })
        .commit(),
      message.create(opening).commit(),
    ],
  ).go();
  const suggestions = storySuggestions({ category: input.category, story, currentClues: clues });
  return { threadId, messages: [shown(opening)], suggestions };
}

/**
 * The conversation a like or dislike opens, ready to be written in the feedback's own transaction
 * (core/feed): the thread, its opening message, and what the feed shows of it. Nothing is stored
 * here, and no rate limit is counted: the feedback's limit bounds these threads.
 */
export function feedbackThread(input: {
  userId: string;
  kind: 'like' | 'dislike';
  article: Articles.Article;
  currentClues: string[];
}) {
  const category =
    input.kind === 'like' ? 'positive_feeback_on_article' : 'negative_feeback_on_article';
  const story = threadStory(input.article);
  const threadId = nextId();
  const createdAt = new Date().toISOString();
  const opening = {
    id: nextId(),
    threadId,
    role: 'assistant' as const,
    message: OPENING[category](input.currentClues),
    template: 'article feedback' as const,
    doNotSkip: true,
    createdAt,
  };
  const thread = {
    id: threadId,
    userId: input.userId,
    category,
    articleId: input.article.id,
    story,
    currentClues: input.currentClues,
    messageCount: 1,
    createdAt,
  } satisfies Thread;
  return {
    thread,
    opening,
    started: {
      threadId,
      messages: [shown(opening)],
      suggestions: storySuggestions({ category, story, currentClues: input.currentClues }),
    } satisfies StartedThread,
  };
}

/**
 * A feedback thread's clue chips, the same each time they are asked for (the feed shows them
 * again after a like posted without JavaScript): a liked story's, none for a disliked one.
 */
export function storySuggestions(thread: Pick<Thread, 'category' | 'story' | 'currentClues'>) {
  return thread.story && thread.category === 'positive_feeback_on_article'
    ? Ai.storyChips(thread.story, thread.currentClues ?? [], STORY_CHIPS)
    : [];
}

/**
 * The user's own thread for a call that adds `adding` messages, counted against the user's rate
 * limit; a thread that would pass `limit` messages is full (409).
 */
async function threadWithRoom(
  { userId, threadId }: { userId: string; threadId: string },
  adding: number,
  limit: number,
) {
  await RateLimit.hit(RATE_LIMIT, userId);
  const thread = await ownThread(userId, threadId);
  if (thread.messageCount + adding > limit) {
    throw new VisibleError('assistant.thread_full', ASSISTANT_MESSAGES.threadFull, 409);
  }
  return thread;
}

/** Sends the user's message and answers with the thread's messages, the assistant's reply last. */
export async function sendMessage(
  rawInput: v.InferInput<typeof SendMessageInput>,
): Promise<Message[]> {
  const input = parse(SendMessageInput, rawInput);
  const thread = await threadWithRoom(input, 2, ASSISTANT_LIMITS.conversationMessages);
  const history = await messagesOf(thread.id);
  let reply: Ai.ChatReply;
  try {
    const { model, system } = await modelAndSystem(thread, thread.currentClues ?? []);
    reply = await Ai.ai().chat({
      model,
      system,
      messages: [...conversation(history), { role: 'user', content: input.message }],
      ...(thread.story ? { story: forModel(thread.story) } : {}),
      thread: { ...threadFacts(thread), currentClues: thread.currentClues ?? [] },
      budgetMs: Ai.IN_REQUEST_BUDGET_MS,
    });
  } catch (error) {
    throw failed('send-message', error);
  }
  const added = await append(thread, [
    { role: 'user', message: input.message },
    { role: 'assistant', message: capped(reply.message) },
  ]);
  return [...history, ...added];
}

function cluesQuestion(current: string[], mutes: string[] | undefined): string {
  const muting = mutes && mutes.length > 0 ? `\n\nI do not want to see: ${mutes.join('; ')}.` : '';
  return current.length > 0 || muting
    ? `My current clues are:\n${current.join('\n')}${muting}\n\nWhich clues should I add, ` +
        'remove and keep, and which topics should I stop seeing or see again?'
    : 'Which clues describe me, from what I told you?';
}

/** The clue review's word on the story a feedback thread is about. */
function storyNote(thread: Thread): string {
  if (!thread.story) return '';
  return thread.category === 'positive_feeback_on_article'
    ? `I liked this story in my feed:\n${storyLines(thread.story)}\n\n`
    : `I disliked this story in my feed:\n${storyLines(thread.story)}\n\n` +
        'Add no clue about what I disliked: clues attract stories like them.\n\n';
}

const suggestionFor = (clues: string[]) =>
  clues.length === 0
    ? 'Tell me a little more about what you do in web3, so I can find your clues.'
    : clues.length === 1
      ? 'One clue is a good start; one more thing you follow will sharpen your feed.'
      : 'These clues will pick your stories. You can change them any time from your feed.';

/**
 * The review's mutes, each once and bounded; only a topic the reader mutes can be unmuted (in the
 * reader's spelling) when the caller says which they mute. Present only when there are some.
 */
function mutesOf(changes: Ai.ClueChanges, current: string[] | undefined) {
  const tidy = (topics: string[]) => {
    const seen = new Set<string>();
    return topics
      .map((topic) => topic.replace(/\s+/g, ' ').trim())
      .filter((topic) => topic && topic.length <= ASSISTANT_LIMITS.muteLength)
      .filter((topic) => !seen.has(topic.toLowerCase()) && seen.add(topic.toLowerCase()))
      .slice(0, ASSISTANT_LIMITS.mutes);
  };
  const muted = (topic: string) =>
    current === undefined
      ? topic
      : current.find((mine) => mine.toLowerCase() === topic.toLowerCase());
  const added = tidy(changes.mutesToBeAdded).filter(
    (topic) => current === undefined || muted(topic) === undefined,
  );
  const removed = tidy(changes.mutesToBeRemoved.map(muted).filter((topic) => topic !== undefined));
  return {
    ...(added.length > 0 ? { mutesToBeAdded: added.map((mute) => ({ mute })) } : {}),
    ...(removed.length > 0 ? { mutesToBeRemoved: removed.map((mute) => ({ mute })) } : {}),
  };
}

/**
 * Reads the clues out of the conversation and stores them as a clues review, the thread's last
 * message: JSON { clues, suggestion } for onboarding, { cluesToBeAdded, cluesToBeRemoved,
 * cluesToRemain, mutesToBeAdded?, mutesToBeRemoved? } otherwise, each clue as { clue } and each
 * muted topic as { mute }.
 */
export async function retrieveClues(
  rawInput: v.InferInput<typeof RetrieveCluesInput>,
): Promise<Message[]> {
  const input = parse(RetrieveCluesInput, rawInput);
  const thread = await threadWithRoom(input, 1, ASSISTANT_LIMITS.threadMessages);
  const current = input.currentClues ?? thread.currentClues ?? [];
  const history = await messagesOf(thread.id);
  const turns = conversation(history);
  let changes: Ai.ClueChanges = {
    cluesToBeAdded: [],
    cluesToBeRemoved: [],
    cluesToRemain: current,
    mutesToBeAdded: [],
    mutesToBeRemoved: [],
  };
  if (turns.some((turn) => turn.role === 'user')) {
    try {
      const model = await Ai.configured('gpt');
      const { answer } = await Ai.ai().complete({
        model,
        task: Ai.assistantClues,
        input: {
          ...threadFacts(thread),
          currentClues: current,
          ...(input.currentMutes ? { currentMutes: input.currentMutes } : {}),
          ...(thread.story ? { story: forModel(thread.story) } : {}),
        },
        user: storyNote(thread) + cluesQuestion(current, input.currentMutes),
        history: turns,
        budgetMs: Ai.IN_REQUEST_BUDGET_MS,
      });
      changes = answer;
    } catch (error) {
      throw failed('retrieve-clues', error);
    }
  }
  const items = (clues: string[]) =>
    [...new Set(clues.map((clue) => clue.replace(/\s+/g, ' ').trim()))]
      .filter((clue) => clue && clue.length <= ASSISTANT_LIMITS.clueLength)
      .slice(0, ASSISTANT_LIMITS.clues)
      .map((clue) => ({ clue }));
  const payload: CluesPayload = {
    cluesToBeAdded: items(changes.cluesToBeAdded),
    // Only clues the user has can be removed or kept, whatever the model says.
    cluesToBeRemoved: items(changes.cluesToBeRemoved.filter((clue) => current.includes(clue))),
    cluesToRemain: items(changes.cluesToRemain.filter((clue) => current.includes(clue))),
    // Mutes are part of a change of clues; onboarding's review (the signup) takes clues only.
    ...(thread.category === 'onboarding' ? {} : mutesOf(changes, input.currentMutes)),
  };
  const json =
    thread.category === 'onboarding'
      ? {
          clues: payload.cluesToBeAdded,
          suggestion: suggestionFor((payload.cluesToBeAdded ?? []).map((item) => item.clue)),
        }
      : payload;
  const added = await append(thread, [
    { role: 'assistant', message: JSON.stringify(json), template: 'clues review', payload },
  ]);
  return [...history, ...added];
}
