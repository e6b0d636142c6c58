// The assistant (spec §4, §7): conversations a user has with their content curator, stored per
// user, and the clues read out of them. Every model call goes through the AI port: with an OpenAI
// model it is a real conversation under a system prompt from the prompt store; with the local
// provider a deterministic interviewer (core/ai/local/chat.ts, ADR 0022).
//
//   initializeThread({ userId, category, articleId?, currentClues? }) -> { threadId, messages }
//   sendMessage({ userId, threadId, message })                        -> messages
//   retrieveClues({ userId, threadId, currentClues? })                -> messages (last: clues JSON)
import { createWriteTransaction, type EntityItem } from 'electrodb';
import { monotonicFactory } from 'ulid';
import * as v from 'valibot';
import * as Ai from '#core/ai';
import { freeText, parse, VisibleError } from '#core/common';
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
export type CluesPayload = {
  cluesToBeAdded?: ClueItem[];
  cluesToBeRemoved?: ClueItem[];
  cluesToRemain?: ClueItem[];
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

/** Bounds of a conversation (ADR 0022). */
export const ASSISTANT_LIMITS = {
  messageLength: 1_000,
  /** Messages in a thread, clue reviews included. */
  threadMessages: 60,
  /** The conversation stops here, so ten clue reviews always fit after it. */
  conversationMessages: 50,
  clues: 100,
  clueLength: 300,
};

/** Each operation counts; a person chats at a few messages a minute, a script far faster. */
export const RATE_LIMIT: Limit = { bucket: 'assistant-user', max: 30, windowSeconds: 60 };

/** How long a caller waits for the model, under the web function's 20 s timeout. */
export const ANSWER_DEADLINE_MS = 15_000;

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
      ? 'You have not given us any clues yet. What do you do in web3? Do you build, invest in, research or collect something?'
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
});

const nextId = monotonicFactory();
type Thread = EntityItem<typeof AssistantThreadEntity>;

/** An operation's failure as the spec words it: 'Assistant: {operation} failed, ...'. */
function failed(operation: string, error: unknown): unknown {
  if (error instanceof VisibleError) return error;
  const aborted =
    error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
  if (!Ai.isAiError(error) && !aborted) return error;
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

function shown(item: {
  id: string;
  role: 'user' | 'assistant';
  message: string;
  template?: MessageTemplate;
  payload?: CluesPayload;
  doNotSkip?: boolean;
  createdAt: string;
}): Message {
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
  return { model, system: Prompts.render(prompt, { clues: clues.join('\n') }) };
}

/** Starts a conversation with the category's opening message. */
export async function initializeThread(
  rawInput: v.InferInput<typeof InitializeThreadInput>,
): Promise<{ threadId: string; messages: Message[] }> {
  const input = parse(InitializeThreadInput, rawInput);
  await RateLimit.hit(RATE_LIMIT, input.userId);
  const clues = input.currentClues ?? [];
  const threadId = nextId();
  const createdAt = new Date().toISOString();
  const feedback = input.category.endsWith('_on_article');
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
          currentClues: clues,
          messageCount: 1,
          createdAt,
        })
        .commit(),
      message.create(opening).commit(),
    ],
  ).go();
  return { threadId, messages: [shown(opening)] };
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
      signal: AbortSignal.timeout(ANSWER_DEADLINE_MS),
    });
  } catch (error) {
    throw failed('send-message', error);
  }
  const added = await append(thread, [
    { role: 'user', message: input.message },
    { role: 'assistant', message: reply.message.trim() },
  ]);
  return [...history, ...added];
}

const suggestionFor = (clues: string[]) =>
  clues.length === 0
    ? 'Tell me a little more about what you do in web3, so I can find your clues.'
    : clues.length === 1
      ? 'One clue is a good start; one more thing you follow will sharpen your feed.'
      : 'These clues will pick your stories. You can change them any time from your feed.';

/**
 * Reads the clues out of the conversation and stores them as a clues review, the thread's last
 * message: JSON { clues, suggestion } for onboarding, { cluesToBeAdded, cluesToBeRemoved,
 * cluesToRemain } otherwise, each clue as { clue }.
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
  };
  if (turns.some((turn) => turn.role === 'user')) {
    try {
      const model = await Ai.configured('gpt');
      const { answer } = await Ai.ai().complete({
        model,
        task: Ai.assistantClues,
        input: {
          category: thread.category === 'onboarding' ? 'onboarding' : 'change_clues',
          currentClues: current,
        },
        user:
          current.length > 0
            ? `My current clues are:\n${current.join('\n')}\n\nWhich clues should I add, remove and keep?`
            : 'Which clues describe me, from what I told you?',
        history: turns,
        signal: AbortSignal.timeout(ANSWER_DEADLINE_MS),
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
  const payload = {
    cluesToBeAdded: items(changes.cluesToBeAdded),
    // Only clues the user has can be removed or kept, whatever the model says.
    cluesToBeRemoved: items(changes.cluesToBeRemoved.filter((clue) => current.includes(clue))),
    cluesToRemain: items(changes.cluesToRemain.filter((clue) => current.includes(clue))),
  };
  const json =
    thread.category === 'onboarding'
      ? {
          clues: payload.cluesToBeAdded,
          suggestion: suggestionFor(payload.cluesToBeAdded.map((item) => item.clue)),
        }
      : payload;
  const added = await append(thread, [
    { role: 'assistant', message: JSON.stringify(json), template: 'clues review', payload },
  ]);
  return [...history, ...added];
}
