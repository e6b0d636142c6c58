import { ulid } from 'ulid';
import { describe, expect, it, vi } from 'vitest';
import * as Articles from '#core/articles';
import * as RateLimit from '#core/rate-limit';
import { createArticle } from '#tests/integration/factories';
import {
  ASSISTANT_LIMITS,
  ASSISTANT_MESSAGES,
  AssistantThreadEntity,
  CHAT_CHIP,
  RATE_LIMIT,
  STORY_LIMITS,
  initializeThread,
  messagesOf,
  parseClues,
  retrieveClues,
  sendMessage,
} from './index';

const user = () => `user-${ulid()}`;

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('an onboarding interview with the local provider', () => {
  it('asks follow-up questions and ends in specific clues as the last, JSON message', async () => {
    const userId = user();
    const { threadId, messages: opening } = await initializeThread({
      userId,
      category: 'onboarding',
    });
    expect(opening).toHaveLength(1);
    expect(opening[0]).toMatchObject({ role: 'assistant' });
    expect(opening[0]!.message).toMatch(/^Hello, this is your Content Curator/);

    const replies: string[] = [];
    for (const answer of [
      'I build lending protocols.',
      'Mostly Ethereum and Arbitrum.',
      'Smart contract engineer',
      'I also collect generative art.',
    ]) {
      const messages = await sendMessage({ userId, threadId, message: answer });
      expect(messages.at(-2)).toMatchObject({ role: 'user', message: answer });
      replies.push(messages.at(-1)!.message);
    }
    expect(replies[0]).toMatch(/Which chains or ecosystems/);
    expect(replies[1]).toMatch(/What is your role/);
    expect(replies[2]).toMatch(/anything else you follow closely/);

    const messages = await retrieveClues({ userId, threadId });
    expect(messages).toHaveLength(10);
    const review = messages.at(-1)!;
    expect(review).toMatchObject({ role: 'assistant', template: 'clues review' });
    expect(JSON.parse(review.message)).toEqual({
      clues: [
        { clue: 'I build lending protocols on Ethereum and Arbitrum' },
        { clue: 'I am a smart contract engineer' },
        { clue: 'I collect generative art' },
      ],
      suggestion:
        'These clues will pick your stories. You can change them any time from your feed.',
    });
    expect(parseClues(review.message)?.clues).toHaveLength(3);
    expect(await messagesOf(threadId)).toEqual(messages);
  });

  it('answers no clues, without asking the model, before the user said anything', async () => {
    const userId = user();
    const { threadId } = await initializeThread({ userId, category: 'onboarding' });
    const messages = await retrieveClues({ userId, threadId });
    expect(JSON.parse(messages.at(-1)!.message)).toMatchObject({ clues: [] });
  });
});

describe('changing clues', () => {
  it('lists the current clues first and reviews additions, removals and what remains', async () => {
    const userId = user();
    const currentClues = ['I collect generative art', 'I research MEV'];
    const { threadId, messages } = await initializeThread({
      userId,
      category: 'change_clues',
      currentClues,
    });
    expect(messages[0]!.message).toContain('- I collect generative art\n- I research MEV');

    await sendMessage({
      userId,
      threadId,
      message: 'I run Solana validators. I am no longer into generative art.',
    });
    const review = (await retrieveClues({ userId, threadId })).at(-1)!;
    const expected = {
      cluesToBeAdded: [{ clue: 'I run Solana validators' }],
      cluesToBeRemoved: [{ clue: 'I collect generative art' }],
      cluesToRemain: [{ clue: 'I research MEV' }],
    };
    expect(JSON.parse(review.message)).toEqual(expected);
    expect(review.payload).toEqual(expected);
  });

  it('starts article feedback with its template and refuses it without the article', async () => {
    const userId = user();
    const article = await createArticle();
    const { messages } = await initializeThread({
      userId,
      category: 'negative_feeback_on_article',
      articleId: article.id,
    });
    expect(messages[0]).toMatchObject({ template: 'article feedback', doNotSkip: true });
    await expect(
      initializeThread({ userId, category: 'positive_feeback_on_article' }),
    ).rejects.toMatchObject({ status: 400, message: ASSISTANT_MESSAGES.articleRequired });
  });

  it('offers no clue chips outside feedback on an article', async () => {
    const userId = user();
    for (const category of ['onboarding', 'change_clues'] as const) {
      const started = await initializeThread({
        userId,
        category,
        currentClues: ['I research MEV'],
      });
      expect(started.suggestions, category).toEqual([]);
    }
  });
});

const EIGENLAYER = {
  title: 'EigenLayer slashing goes live for the first twelve AVSs',
  summary: 'Operators must now opt in to operator sets with explicit slashing conditions.',
  source: 'Blocknotes',
};

describe('feedback on an article', () => {
  it('keeps a bounded snapshot of the story on the thread', async () => {
    const article = await createArticle({
      ...EIGENLAYER,
      summary: `${EIGENLAYER.summary} ${'Restaked operators weigh the risk of correlated slashing. '.repeat(60)}`,
    });
    expect(article.summary!.length).toBeGreaterThan(STORY_LIMITS.summary);
    const { threadId } = await initializeThread({
      userId: user(),
      category: 'positive_feeback_on_article',
      articleId: article.id,
    });
    const { data } = await AssistantThreadEntity.get({ id: threadId }).go();
    expect(data?.articleId).toBe(article.id);
    expect(data?.story).toMatchObject({
      title: EIGENLAYER.title,
      source: EIGENLAYER.source,
      canonicalUrl: article.canonicalUrl,
    });
    const { summary } = data!.story!;
    expect(summary.length).toBeLessThanOrEqual(STORY_LIMITS.summary);
    expect(summary.length).toBeGreaterThan(STORY_LIMITS.summary * 0.8);
    // Cut after a whole word, and says so.
    expect(summary).toMatch(/^Operators must now opt in .*[a-z]…$/);
    const kept = summary.slice(0, -1);
    expect(article.summary!.startsWith(kept)).toBe(true);
    expect(article.summary![kept.length]).toMatch(/[^a-z]/);
  });

  it('refuses an unknown article with a 404 and starts no thread', async () => {
    const userId = user();
    const error = await rejection(
      initializeThread({ userId, category: 'positive_feeback_on_article', articleId: ulid() }),
    );
    expect(error).toMatchObject({
      name: 'VisibleError',
      status: 404,
      message: ASSISTANT_MESSAGES.articleNotFound,
    });
  });

  it("offers clue chips from a liked story's key phrases, never one the reader has", async () => {
    const article = await createArticle(EIGENLAYER);
    const liked = (currentClues: string[]) =>
      initializeThread({
        userId: user(),
        category: 'positive_feeback_on_article',
        articleId: article.id,
        currentClues,
      });
    expect(CHAT_CHIP).toBe('Let me chat with the assistant');
    expect((await liked([])).suggestions).toEqual(['More on EigenLayer', 'More on AVSs']);
    const { suggestions } = await liked(['i follow eigenlayer', 'I research MEV']);
    expect(suggestions).toEqual(['More on AVSs', 'More on operator sets']);
  });

  it('offers no clue chips for a disliked story: a clue would attract more like it', async () => {
    // A feed item without a summary is a story too.
    const article = await createArticle({ ...EIGENLAYER, summary: '' });
    const { threadId, suggestions, messages } = await initializeThread({
      userId: user(),
      category: 'negative_feeback_on_article',
      articleId: article.id,
    });
    expect(suggestions).toEqual([]);
    expect(messages).toHaveLength(1);
    const { data } = await AssistantThreadEntity.get({ id: threadId }).go();
    expect(data?.story).toMatchObject({ title: EIGENLAYER.title, summary: '' });
  });

  it("adds the reader's own clue and keeps the current ones, after the article is gone", async () => {
    const userId = user();
    const currentClues = ['I build lending protocols on Ethereum', 'I research MEV'];
    const article = await createArticle(EIGENLAYER);
    const { threadId } = await initializeThread({
      userId,
      category: 'negative_feeback_on_article',
      articleId: article.id,
      currentClues,
    });
    await Articles.ArticleEntity.delete({ id: article.id }).go();

    const reply = await sendMessage({
      userId,
      threadId,
      message: 'I also follow zero-knowledge rollups.',
    });
    expect(reply.at(-1)!.message).toBe(
      'Added: zero-knowledge rollups. Choose Review my clues when you are done.',
    );
    const review = (await retrieveClues({ userId, threadId })).at(-1)!;
    expect(JSON.parse(review.message)).toEqual({
      cluesToBeAdded: [{ clue: 'I follow zero-knowledge rollups' }],
      cluesToBeRemoved: [],
      cluesToRemain: currentClues.map((clue) => ({ clue })),
    });
  });

  it("proposes the story's own clues when the reader asks for more like it", async () => {
    const userId = user();
    const article = await createArticle(EIGENLAYER);
    const { threadId } = await initializeThread({
      userId,
      category: 'positive_feeback_on_article',
      articleId: article.id,
      currentClues: ['I research MEV'],
    });
    const reply = await sendMessage({ userId, threadId, message: 'More like this, please!' });
    expect(reply.at(-1)!.message).toMatch(/^Added: EigenLayer and AVSs\./);
    const review = (await retrieveClues({ userId, threadId })).at(-1)!;
    expect(review.payload).toEqual({
      cluesToBeAdded: [{ clue: 'I follow EigenLayer' }, { clue: 'I follow AVSs' }],
      cluesToBeRemoved: [],
      cluesToRemain: [{ clue: 'I research MEV' }],
    });
  });
});

const LENDING = 'I build DeFi lending on Ethereum, with a focus on smart-contract security';
const RESEARCH = 'I research smart contract security: audits, exploits and formal verification';
const ONBOARDING_QUESTION =
  /what do you do in web3|what exactly do you|which chains|what is your role/i;

/** A change-clues thread for a new reader with the clues of issue 31's trial. */
async function changing(currentClues = [LENDING, RESEARCH]) {
  const userId = user();
  const { threadId } = await initializeThread({ userId, category: 'change_clues', currentClues });
  const say = async (message: string) =>
    (await sendMessage({ userId, threadId, message })).at(-1)!.message;
  return { userId, threadId, say };
}

describe('changing clues understands what the reader asks (issue 31)', () => {
  it('says each request back in clean words, never an onboarding question', async () => {
    const { userId, threadId, say } = await changing();
    expect(await say('Add MEV and liquidation bots please')).toBe(
      'Added: MEV and liquidation bots. Choose Review my clues when you are done.',
    );
    expect(
      await say(
        'I also care about liquidation mechanics and oracle risk. Please stop showing me Solana and DAO treasury stories.',
      ),
    ).toBe(
      'Added: liquidation mechanics and oracle risk. Stop showing: Solana and DAO treasury. ' +
        'Choose Review my clues when you are done.',
    );
    expect(
      await say('Drop the formal verification part, I mostly care about audits and exploits'),
    ).toBe(
      `Changed: “${RESEARCH}” to “I research smart contract security: audits and exploits”. ` +
        'Already in your clues: audits and exploits. Choose Review my clues when you are done.',
    );
    const messages = await retrieveClues({ userId, threadId });
    for (const reply of messages.filter((m) => m.role === 'assistant' && !m.template)) {
      expect(reply.message).not.toMatch(ONBOARDING_QUESTION);
    }
    const expected = {
      cluesToBeAdded: [
        { clue: 'I research smart contract security: audits and exploits' },
        { clue: 'I follow MEV and liquidation bots' },
        { clue: 'I care about liquidation mechanics and oracle risk' },
      ],
      cluesToBeRemoved: [{ clue: RESEARCH }],
      cluesToRemain: [{ clue: LENDING }],
      mutesToBeAdded: [{ mute: 'Solana' }, { mute: 'DAO treasury' }],
    };
    expect(messages.at(-1)!.payload).toEqual(expected);
    expect(JSON.parse(messages.at(-1)!.message)).toEqual(expected);
    expect(parseClues(messages.at(-1)!.message)?.mutesToBeAdded).toEqual([
      'Solana',
      'DAO treasury',
    ]);
  });

  it('asks exactly one question when it cannot tell, and acts on the answer', async () => {
    const { userId, threadId, say } = await changing();
    expect(await say('remove it')).toBe(
      `Which clue should I remove: “${LENDING}” or “${RESEARCH}”?`,
    );
    const gibberish = await say('asdf qwer');
    expect(gibberish).toMatch(/^Sorry, I did not understand that\./);
    expect(gibberish.match(/\?/g)).toHaveLength(1);
    expect(gibberish).not.toMatch(ONBOARDING_QUESTION);
    expect(await say('Remove Solana')).toBe(
      'None of your clues mentions Solana. Should I stop showing you stories on “Solana” instead?',
    );
    expect(await say('yes please')).toMatch(/^Stop showing: Solana\./);
    const review = (await retrieveClues({ userId, threadId })).at(-1)!;
    expect(review.payload).toEqual({
      cluesToBeAdded: [],
      cluesToBeRemoved: [],
      cluesToRemain: [{ clue: LENDING }, { clue: RESEARCH }],
      mutesToBeAdded: [{ mute: 'Solana' }],
    });
  });

  it('unmutes only a topic the reader mutes, in their spelling', async () => {
    const { userId, threadId, say } = await changing(['I research MEV']);
    await say('Show me Solana again, and bring back Bitcoin');
    const review = (
      await retrieveClues({ userId, threadId, currentMutes: ['solana', 'DAO treasury'] })
    ).at(-1)!;
    expect(review.payload).toEqual({
      cluesToBeAdded: [],
      cluesToBeRemoved: [],
      cluesToRemain: [{ clue: 'I research MEV' }],
      mutesToBeRemoved: [{ mute: 'solana' }],
    });
  });

  it('opens a thread without clues with no onboarding question', async () => {
    const { threadId } = await changing([]);
    const [opening] = await messagesOf(threadId);
    expect(opening!.message).toMatch(/^You have not given us any clues yet\./);
    expect(opening!.message).not.toMatch(ONBOARDING_QUESTION);
  });

  it('mutes the topic of a disliked story on "no more like this", asking nothing', async () => {
    const userId = user();
    const article = await createArticle(EIGENLAYER);
    const { threadId } = await initializeThread({
      userId,
      category: 'negative_feeback_on_article',
      articleId: article.id,
      currentClues: ['I research MEV'],
    });
    const reply = await sendMessage({ userId, threadId, message: 'No more stories like this.' });
    expect(reply.at(-1)!.message).toBe(
      'Stop showing: EigenLayer. Choose Review my clues when you are done.',
    );
    const review = (await retrieveClues({ userId, threadId })).at(-1)!;
    expect(review.payload).toEqual({
      cluesToBeAdded: [],
      cluesToBeRemoved: [],
      cluesToRemain: [{ clue: 'I research MEV' }],
      mutesToBeAdded: [{ mute: 'EigenLayer' }],
    });
  });
});

describe('what the assistant refuses', () => {
  it("refuses another user's thread as not found, and stores nothing", async () => {
    const owner = user();
    const { threadId } = await initializeThread({ userId: owner, category: 'onboarding' });
    // Each call starts only when the one before has been refused: a call started early would
    // reject before anyone listens, as an unhandled rejection that fails the run.
    for (const call of [
      () => sendMessage({ userId: user(), threadId, message: 'I build wallets' }),
      () => retrieveClues({ userId: user(), threadId }),
      () => sendMessage({ userId: owner, threadId: ulid(), message: 'I build wallets' }),
    ]) {
      expect(await rejection(call())).toMatchObject({
        name: 'VisibleError',
        status: 404,
        message: ASSISTANT_MESSAGES.threadNotFound,
      });
    }
    expect(await messagesOf(threadId)).toHaveLength(1);
  });

  it('refuses an empty or overlong message with a 400 and keeps the thread as it was', async () => {
    const userId = user();
    const { threadId } = await initializeThread({ userId, category: 'onboarding' });
    const cases: [string, string][] = [
      ['   ', ASSISTANT_MESSAGES.messageRequired],
      ['a'.repeat(ASSISTANT_LIMITS.messageLength + 1), ASSISTANT_MESSAGES.messageTooLong],
    ];
    for (const [message, text] of cases) {
      expect(await rejection(sendMessage({ userId, threadId, message }))).toMatchObject({
        status: 400,
        message: text,
      });
    }
    expect(ASSISTANT_MESSAGES.messageTooLong).toBe('A message has at most 1,000 characters');
    await expect(
      sendMessage({ userId, threadId, message: `  ${'a'.repeat(1000)}  ` }),
    ).resolves.toHaveLength(3);
  });

  it('refuses an unknown category', async () => {
    await expect(
      initializeThread({ userId: user(), category: 'chit_chat' as never }),
    ).rejects.toMatchObject({ status: 400, message: ASSISTANT_MESSAGES.unknownCategory });
  });

  it('stops the conversation at its limit but still reviews the clues', async () => {
    const userId = user();
    const { threadId } = await initializeThread({ userId, category: 'onboarding' });
    await sendMessage({ userId, threadId, message: 'I build zk rollups' });
    // As if the conversation had gone on: the count is what every write is conditioned on.
    await AssistantThreadEntity.patch({ id: threadId })
      .set({ messageCount: ASSISTANT_LIMITS.conversationMessages - 1 })
      .go();
    expect(
      await rejection(sendMessage({ userId, threadId, message: 'I also audit bridges' })),
    ).toMatchObject({ status: 409, message: ASSISTANT_MESSAGES.threadFull });
    const review = (await retrieveClues({ userId, threadId })).at(-1)!;
    expect(JSON.parse(review.message).clues).toEqual([{ clue: 'I build zk rollups' }]);

    await AssistantThreadEntity.patch({ id: threadId })
      .set({ messageCount: ASSISTANT_LIMITS.threadMessages })
      .go();
    expect(await rejection(retrieveClues({ userId, threadId }))).toMatchObject({ status: 409 });
  });

  it('refuses a write that raced another one on the same thread', async () => {
    const userId = user();
    const { threadId } = await initializeThread({ userId, category: 'onboarding' });
    const results = await Promise.allSettled([
      sendMessage({ userId, threadId, message: 'I build wallets' }),
      sendMessage({ userId, threadId, message: 'I research MEV' }),
    ]);
    const refused = results.filter((r) => r.status === 'rejected');
    // Both may pass when one finished before the other read the thread; never both on one count.
    for (const r of refused) {
      expect((r as PromiseRejectedResult).reason).toMatchObject({ status: 409 });
    }
    const stored = await messagesOf(threadId);
    expect(stored).toHaveLength(1 + 2 * (results.length - refused.length));
  });

  it('rate limits a user per minute with a 429', async () => {
    const userId = user();
    const hit = vi.spyOn(RateLimit, 'hit');
    const { threadId } = await initializeThread({ userId, category: 'onboarding' });
    expect(hit).toHaveBeenCalledWith(RATE_LIMIT, userId);
    hit.mockRestore();
    for (let i = 1; i < RATE_LIMIT.max; i++) await RateLimit.hit(RATE_LIMIT, userId);
    expect(
      await rejection(sendMessage({ userId, threadId, message: 'I build wallets' })),
    ).toMatchObject({ status: 429 });
    expect(await messagesOf(threadId)).toHaveLength(1);
  });
});
