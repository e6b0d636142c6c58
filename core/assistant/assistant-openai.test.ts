import { ulid } from 'ulid';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import * as Ai from '#core/ai';
import * as Prompts from '#core/prompts';
import { startFakeOpenAi, type FakeOpenAi } from '#tests/fakes/openai';
import { createArticle } from '#tests/integration/factories';
import {
  ASSISTANT_LIMITS,
  initializeThread,
  messagesOf,
  retrieveClues,
  sendMessage,
} from './index';

// The configured gpt model is an OpenAI-compatible one served by the fake, so the assistant talks
// through the real `openai` client. Set before core reads its configuration (once, on first use).
// Without OPENAI_COMPATIBLE_API_KEY the adapter sends 'not-needed', the key the fake is given.
vi.hoisted(() => {
  vi.stubEnv('AI_GPT_MODEL', 'openai-compatible/fake-gpt-assistant');
});

let fake: FakeOpenAi;
let defaultAnswer: FakeOpenAi['answer'];
const completions = () => fake.requests.filter((r) => r.path === '/v1/chat/completions');
const user = () => `user-${ulid()}`;

beforeAll(async () => {
  fake = await startFakeOpenAi('not-needed');
  defaultAnswer = fake.answer;
  await Ai.create({
    provider: 'openai-compatible',
    model: 'fake-gpt-assistant',
    modelType: 'gpt',
    baseUrl: fake.url,
  }).catch((error: unknown) => {
    // Another file on this worker's table may have added it.
    if ((error as { status?: number }).status !== 409) throw error;
  });
});
afterAll(() => fake.stop());
beforeEach(() => {
  fake.requests.length = 0;
  fake.answer = defaultAnswer;
});

describe('the assistant with an OpenAI model', () => {
  it("converses under the prompt store's current system prompt", async () => {
    const prompt = await Prompts.create({
      expImplementationId: 'assistant-onboarding',
      title: 'Friendlier onboarding',
      prompt: 'You are a friendly web3 curator. Ask one short question at a time.',
    });
    // Files that share this worker's table expect the default prompt.
    onTestFinished(() => Prompts.disable({ id: prompt.id }));
    const userId = user();
    const { threadId, messages: opening } = await initializeThread({
      userId,
      category: 'onboarding',
    });
    expect(completions()).toHaveLength(0);

    const messages = await sendMessage({ userId, threadId, message: 'I build lending protocols' });

    const body = completions()[0]!.body;
    expect(body.model).toBe('fake-gpt-assistant');
    expect(body.response_format).toBeUndefined();
    expect(body.messages).toEqual([
      { role: 'system', content: prompt.prompt },
      { role: 'assistant', content: opening[0]!.message },
      { role: 'user', content: 'I build lending protocols' },
    ]);
    expect(messages.at(-1)).toMatchObject({
      role: 'assistant',
      message: 'Tell me more about what you build.',
    });
  });

  it("fills the change-clues prompt with the user's clues", async () => {
    const userId = user();
    const currentClues = ['I research MEV', 'I collect generative art'];
    const { threadId } = await initializeThread({ userId, category: 'change_clues', currentClues });
    await sendMessage({ userId, threadId, message: 'Drop the art one' });

    const system = (completions()[0]!.body.messages as { content: string }[])[0]!.content;
    const stored = await Prompts.current('assistant-change-clues');
    expect(system).toBe(
      Prompts.render(stored, { clues: currentClues.join('\n'), story: '' }).trim(),
    );
    expect(system).toContain('I research MEV\nI collect generative art');
    expect(system).not.toMatch(/this story|Title:/);
  });

  it('tells the model which story the reader liked, in the chat and in the clue review', async () => {
    const userId = user();
    const article = await createArticle({
      title: 'EigenLayer slashing goes live for the first twelve AVSs',
      summary: 'Operators must now opt in to operator sets with explicit slashing conditions.',
      source: 'Blocknotes',
    });
    const { threadId } = await initializeThread({
      userId,
      category: 'positive_feeback_on_article',
      articleId: article.id,
      currentClues: ['I research MEV'],
    });
    expect(completions()).toHaveLength(0);
    await sendMessage({ userId, threadId, message: 'The operator sets part' });
    const story =
      'Title: EigenLayer slashing goes live for the first twelve AVSs\nSource: Blocknotes\n' +
      'Summary: Operators must now opt in to operator sets with explicit slashing conditions.';

    const [system] = completions()[0]!.body.messages as { role: string; content: string }[];
    expect(system!.role).toBe('system');
    expect(system!.content).toContain(`The reader liked this story in their feed:\n${story}`);
    expect(system!.content).toContain('I research MEV');

    fake.requests.length = 0;
    fake.answer = () => ({
      cluesToBeAdded: ['I follow EigenLayer operator sets'],
      cluesToBeRemoved: [],
      cluesToRemain: ['I research MEV'],
      mutesToBeAdded: [],
      mutesToBeRemoved: [],
    });
    const review = (await retrieveClues({ userId, threadId })).at(-1)!;
    const sent = completions()[0]!.body.messages as { role: string; content: string }[];
    expect(sent.at(-1)).toMatchObject({ role: 'user' });
    expect(sent.at(-1)!.content).toContain(`I liked this story in my feed:\n${story}`);
    expect(review.payload?.cluesToBeAdded).toEqual([{ clue: 'I follow EigenLayer operator sets' }]);
  });

  it("adds a disliked story to an operator's prompt that has no {story} placeholder", async () => {
    const prompt = await Prompts.create({
      expImplementationId: 'assistant-change-clues',
      title: 'Terse change clues',
      prompt: 'You edit clues. Current clues:\n{clues}',
    });
    onTestFinished(() => Prompts.disable({ id: prompt.id }));
    const userId = user();
    const article = await createArticle({
      title: 'Memecoin volumes hit a record on Solana',
      summary: 'Traders swapped more memecoins than ever.',
      source: 'Chainwire Daily',
    });
    const { threadId } = await initializeThread({
      userId,
      category: 'negative_feeback_on_article',
      articleId: article.id,
      currentClues: ['I trade on Solana'],
    });
    await sendMessage({ userId, threadId, message: 'Not into memecoins' });

    const [system] = completions()[0]!.body.messages as { content: string }[];
    expect(system!.content).toMatch(
      /^You edit clues\. Current clues:\nI trade on Solana\n\nThe reader disliked this story in their feed:\nTitle: Memecoin volumes hit a record on Solana\nSource: Chainwire Daily\nSummary: Traders swapped more memecoins than ever\.\n\n/,
    );
    expect(system!.content).toMatch(/Never add a clue about what they dislike/);
  });

  it('extracts the clues as a strict json_schema task and stores the parsed review', async () => {
    const userId = user();
    const currentClues = ['I research MEV', 'I collect generative art'];
    const { threadId } = await initializeThread({ userId, category: 'change_clues', currentClues });
    await sendMessage({ userId, threadId, message: 'I run Solana validators, drop the art one' });
    fake.requests.length = 0;
    fake.answer = () => ({
      cluesToBeAdded: ['I run Solana validators'],
      cluesToBeRemoved: ['I collect generative art', 'I never had this clue'],
      cluesToRemain: ['I research MEV'],
      mutesToBeAdded: [],
      mutesToBeRemoved: [],
    });

    const review = (await retrieveClues({ userId, threadId })).at(-1)!;

    const body = completions()[0]!.body;
    expect(body.response_format).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'assistant_clues',
        strict: true,
        schema: Ai.assistantClues.jsonSchema,
      },
    });
    const sent = body.messages as { role: string; content: string }[];
    expect(sent[0]).toEqual({ role: 'system', content: Ai.assistantClues.system });
    expect(sent.slice(1, -1).map((m) => m.role)).toEqual(['assistant', 'user', 'assistant']);
    expect(sent.at(-1)!.content).toContain('I research MEV\nI collect generative art');
    expect(JSON.parse(review.message)).toEqual({
      cluesToBeAdded: [{ clue: 'I run Solana validators' }],
      // A clue the user does not have cannot be removed, whatever the model says.
      cluesToBeRemoved: [{ clue: 'I collect generative art' }],
      cluesToRemain: [{ clue: 'I research MEV' }],
    });
  });

  it('reads mutes out of the strict json_schema answer, unmuting only what the reader mutes', async () => {
    const userId = user();
    const currentClues = [
      'I research smart contract security: audits, exploits and formal verification',
    ];
    const { threadId } = await initializeThread({ userId, category: 'change_clues', currentClues });
    await sendMessage({
      userId,
      threadId,
      message:
        'Drop the formal verification part. Stop showing me Solana, and NFT drops are fine again.',
    });
    const chat = completions()[0]!.body;
    // The chat carries no local-provider facts: the model reads its system prompt.
    expect(Object.keys(chat).sort()).not.toContain('thread');
    fake.requests.length = 0;
    fake.answer = () => ({
      cluesToBeAdded: ['I research smart contract security: audits and exploits'],
      cluesToBeRemoved: currentClues,
      cluesToRemain: [],
      mutesToBeAdded: ['Solana', 'solana', 'nft drops'],
      mutesToBeRemoved: ['nft drops', 'Bitcoin'],
    });

    const review = (
      await retrieveClues({ userId, threadId, currentMutes: ['NFT drops', 'DAO treasury'] })
    ).at(-1)!;

    const { json_schema } = completions()[0]!.body.response_format as {
      json_schema: { schema: { required: string[] } };
    };
    expect(json_schema.schema.required).toEqual([
      'cluesToBeAdded',
      'cluesToBeRemoved',
      'cluesToRemain',
      'mutesToBeAdded',
      'mutesToBeRemoved',
    ]);
    const sent = completions()[0]!.body.messages as { role: string; content: string }[];
    expect(sent.at(-1)!.content).toContain('I do not want to see: NFT drops; DAO treasury.');
    expect(review.payload).toEqual({
      cluesToBeAdded: [{ clue: 'I research smart contract security: audits and exploits' }],
      cluesToBeRemoved: currentClues.map((clue) => ({ clue })),
      cluesToRemain: [],
      // Each once; a topic already muted is not muted again; only a muted topic is unmuted.
      mutesToBeAdded: [{ mute: 'Solana' }],
      mutesToBeRemoved: [{ mute: 'NFT drops' }],
    });
  });

  it("wraps a model failure as 'Assistant: send-message failed, ...' and stores nothing", async () => {
    const userId = user();
    const { threadId } = await initializeThread({ userId, category: 'onboarding' });
    fake.script({ status: 400, message: 'Bad request' });

    await expect(
      sendMessage({ userId, threadId, message: 'I build wallets' }),
    ).rejects.toMatchObject({
      name: 'VisibleError',
      status: 503,
      message: expect.stringMatching(/^Assistant: send-message failed, /),
    });
    expect(await messagesOf(threadId)).toHaveLength(1);
  });

  it('wraps a 200 that is no completion (cut-off JSON) as a send-message failure', async () => {
    const userId = user();
    const { threadId } = await initializeThread({ userId, category: 'onboarding' });
    fake.script({ body: '{"id":"chatcmpl-1","choices":[{"index":0,"mess' });

    await expect(
      sendMessage({ userId, threadId, message: 'I build wallets' }),
    ).rejects.toMatchObject({
      status: 503,
      message: expect.stringMatching(/^Assistant: send-message failed, /),
    });
    expect(await messagesOf(threadId)).toHaveLength(1);
  });

  it('wraps an answer that does not match the schema as a retrieve-clues failure', async () => {
    const userId = user();
    const { threadId } = await initializeThread({ userId, category: 'onboarding' });
    await sendMessage({ userId, threadId, message: 'I build wallets' });
    fake.script({ content: '{"cluesToBeAdded": "not a list"}' });

    await expect(retrieveClues({ userId, threadId })).rejects.toMatchObject({
      status: 503,
      message: expect.stringMatching(/^Assistant: retrieve-clues failed, /),
    });
    expect(await messagesOf(threadId)).toHaveLength(3);
  });

  it('stores a runaway reply cut to its limit after a word, its paragraphs kept', async () => {
    const userId = user();
    const { threadId } = await initializeThread({ userId, category: 'onboarding' });
    const paragraph = 'Tell me which lending markets you follow and why they matter to you. ';
    fake.script({ content: Array.from({ length: 1_500 }, () => paragraph).join('\n\n') });

    const messages = await sendMessage({ userId, threadId, message: 'I build wallets' });

    const reply = (await messagesOf(threadId)).at(-1)!.message;
    expect(messages.at(-1)!.message).toBe(reply);
    expect(reply.length).toBeLessThanOrEqual(ASSISTANT_LIMITS.replyLength);
    expect(reply.length).toBeGreaterThan(ASSISTANT_LIMITS.replyLength * 0.8);
    expect(reply).toMatch(/\n\nTell me which/);
    expect(reply).toMatch(/[a-z]…$/);
  });
});
