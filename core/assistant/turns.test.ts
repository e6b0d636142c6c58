import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import {
  ASSISTANT_MESSAGES,
  FEED_CHAT_MESSAGES,
  bubbles,
  feedPanel,
  feedReview,
  feedThread,
  initializeThread,
  interview,
  interviewClues,
  interviewMessage,
  messagesOf,
  openFeedChat,
  reviewFeedChat,
  sendFeedMessage,
  startInterview,
  type Message,
} from './index';

/** A reader as the feed's session reads them: clues, and a topic they asked not to see. */
const reader = (clues: string[], muted: string[] = []) => ({
  id: `user-${ulid()}`,
  descriptors: clues.map((clue) => ({ id: ulid(), clue })),
  mutes: [
    ...muted.map((mute) => ({ mute, from: 'request' })),
    { mute: 'A story they disliked', from: 'dislike' },
  ],
});

async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    const { message, status } = error as { message: string; status?: number };
    return { message, status };
  }
  throw new Error('expected a refusal');
}

const message = (id: string, role: Message['role'], text: string): Message => ({
  id,
  role,
  message: text,
  createdAt: '2026-12-06T10:00:00.000Z',
});

describe("the chat log's bubbles", () => {
  it('split a message into its paragraphs and never show JSON about clues', () => {
    expect(
      bubbles([
        message('a', 'assistant', 'Hello.\n\nWhat do you do in web3?'),
        message('b', 'user', 'I build lending pools'),
        message('c', 'assistant', JSON.stringify({ clues: [{ clue: 'x' }], suggestion: '' })),
      ]),
    ).toEqual([
      { id: 'a', role: 'assistant', bubbles: ['Hello.', 'What do you do in web3?'] },
      { id: 'b', role: 'user', bubbles: ['I build lending pools'] },
    ]);
  });
});

describe("the feed's side panel", () => {
  it("answers only the reader's own conversation from their feed: another reader's, their interview and a bad id are missing", async () => {
    const ada = reader(['I research MEV']);
    const bob = reader(['I collect generative art']);
    const bobs = await openFeedChat(bob);
    const adasInterview = await initializeThread({ userId: ada.id, category: 'onboarding' });
    const missing = { message: ASSISTANT_MESSAGES.threadNotFound, status: 404 };
    for (const threadId of [bobs.threadId, adasInterview.threadId, 'not-a-thread']) {
      expect(await refusal(feedThread(ada.id, threadId)), threadId).toEqual(missing);
      expect(await feedPanel(ada.id, threadId), threadId).toBeUndefined();
      expect(
        await refusal(sendFeedMessage({ userId: ada.id, threadId, message: 'Remove all' })),
      ).toEqual(missing);
      expect(await refusal(reviewFeedChat(ada, threadId))).toEqual(missing);
      expect(await refusal(feedReview(ada.id, threadId))).toEqual(missing);
    }
    expect(await messagesOf(bobs.threadId)).toHaveLength(1);
    expect(await messagesOf(adasInterview.threadId)).toHaveLength(1);
    expect(await feedPanel(ada.id, null)).toBeUndefined();
  });

  it('takes a message, then reviews the clues and mutes it heard, shown as lists, never as JSON', async () => {
    const ada = reader(['I research MEV'], ['solana']);
    const { threadId } = await openFeedChat(ada);
    expect(await refusal(feedReview(ada.id, threadId))).toEqual({
      message: FEED_CHAT_MESSAGES.noReview,
      status: 409,
    });
    await sendFeedMessage({
      userId: ada.id,
      threadId,
      message: 'Add MEV and liquidation bots please. Show me Solana again.',
    });
    const chatting = (await feedPanel(ada.id, threadId, { review: false }))!;
    expect(chatting).toMatchObject({ threadId, category: 'change_clues' });
    expect(chatting.messages.map((m) => m.role)).toEqual(['assistant', 'user', 'assistant']);
    expect(chatting).not.toHaveProperty('review');
    expect((await feedPanel(ada.id, threadId))!.review).toBeUndefined();

    expect(await reviewFeedChat(ada, threadId)).toEqual({ threadId });
    const reviewed = (await feedPanel(ada.id, threadId))!;
    // The review is the thread's last message, JSON: the log does not show it, the lists do.
    expect(reviewed.messages).toEqual(chatting.messages);
    expect(reviewed.review).toEqual({
      toAdd: ['I follow MEV and liquidation bots'],
      toRemove: [],
      toKeep: ['I research MEV'],
      mutesToAdd: [],
      // Only what the reader asked not to see can be shown again, in their spelling.
      mutesToRemove: ['solana'],
    });
    expect(await feedReview(ada.id, threadId)).toEqual({
      category: 'change_clues',
      review: {
        cluesToBeAdded: [{ clue: 'I follow MEV and liquidation bots' }],
        cluesToBeRemoved: [],
        cluesToRemain: [{ clue: 'I research MEV' }],
        mutesToBeRemoved: [{ mute: 'solana' }],
      },
    });
  });
});

describe('the get-started interview', () => {
  it('starts, answers and ends in clues as bubbles, and is read again only by its own reader', async () => {
    const ada = reader([]);
    const started = await startInterview(ada);
    expect(started.messages).toHaveLength(1);
    expect(started.messages[0]!.bubbles.join(' ')).toMatch(/^Hello, this is your Content Curator/);
    const { threadId } = started;
    const answered = await interviewMessage({
      userId: ada.id,
      threadId,
      message: 'I build lending protocols.',
    });
    expect(answered.messages.map((m) => m.role)).toEqual(['assistant', 'user', 'assistant']);
    const { clues, suggestion } = await interviewClues({ userId: ada.id, threadId });
    expect(clues.length).toBeGreaterThan(0);
    expect(suggestion).not.toBe('');
    // The clues review is JSON: the interview read again shows the conversation without it.
    expect(await interview(ada.id, threadId)).toEqual({ threadId, messages: answered.messages });
    expect(await interview(reader([]).id, threadId)).toBeNull();
    expect(await interview(ada.id, (await openFeedChat(ada)).threadId)).toBeNull();
  });
});
