// Every route that calls a model, against a model server that fails in each way a real one does
// (hangs, sends 5 MB, sends broken JSON, 429s, 500s): each answers 503 with the spec's words
// (§8) within the in-request budget, never a 5xx of another kind, and stores nothing.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import * as Ai from '#core/ai';
import * as Assessment from '#core/assessment';
import * as Assistant from '#core/assistant';
import * as Prompts from '#core/prompts';
import { FAILURE_MODES, startFakeOpenAi, type FakeOpenAi } from '#tests/fakes/openai';
import { call, request } from '#tests/integration/route-call';
import { invitedReader, twoReaders, type SweepReader } from '#tests/integration/sweep-world';
import { action as assessmentAction } from '#web/routes/api.audience-name-assessment';
import { action as feedAction } from '#web/routes/feed';
import { action as funnelAction } from '#web/routes/get-started.call';

// The configured gpt model is an OpenAI-compatible one served by the fake, with the default
// retries, as deployed. Set before core reads its configuration (once, on first use).
vi.hoisted(() => {
  vi.stubEnv('AI_GPT_MODEL', 'openai-compatible/fake-gpt-sweep');
  vi.stubEnv('OPENAI_COMPATIBLE_API_KEY', 'sk-fake-key');
});

const ORIGIN = 'http://localhost:3000';
let fake: FakeOpenAi;
let reader: SweepReader;
let readerThread: string;
let invited: Awaited<ReturnType<typeof invitedReader>>;
let clue = 0;

const feed = (fields: Record<string, string>) =>
  call(
    feedAction,
    request(`${ORIGIN}/feed`, {
      method: 'POST',
      body: new URLSearchParams(fields).toString(),
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Origin: ORIGIN,
        Cookie: reader.cookie,
      },
    }),
  );

async function funnel(name: string, body: Record<string, unknown>) {
  const response = await funnelAction({
    request: request(`${ORIGIN}/get-started/${name}`, {
      method: 'POST',
      body: JSON.stringify({ token: invited.token, ...body }),
      headers: { 'Content-Type': 'application/json' },
    }),
    params: { call: name },
    context: {},
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function assess(audienceName: string) {
  const response = await assessmentAction({
    request: request(`${ORIGIN}/api/audience-name-assessment`, {
      method: 'POST',
      body: JSON.stringify({ prefix: 'I am one of those who', clue: audienceName }),
      headers: { 'Content-Type': 'application/json' },
    }),
    params: {},
    context: {},
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** The cached assessment of a clue, if one was stored. */
async function storedAssessment(audienceName: string) {
  const prompt = await Prompts.current(Assessment.AUTOMATION_ID);
  const { data } = await Assessment.AssessmentAnswerEntity.get({
    inputHash: Assessment.inputHash({ prefix: 'I am one of those who', audienceName }),
    promptId: prompt.id,
    modelId: 'openai-compatible:fake-gpt-sweep',
  }).go();
  return data;
}

const stored = (threadId: string) => Assistant.messagesOf(threadId);

beforeAll(async () => {
  fake = await startFakeOpenAi();
  await Ai.create({
    provider: 'openai-compatible',
    model: 'fake-gpt-sweep',
    modelType: 'gpt',
    baseUrl: fake.url,
  });
  [{ a: reader }, invited] = await Promise.all([twoReaders(), invitedReader()]);
  readerThread = (await Assistant.initializeThread({ userId: reader.id, category: 'change_clues' }))
    .threadId;
  // One turn each, while the model answers, so a clue review has a conversation to read.
  expect(
    (await feed({ intent: 'send', threadId: readerThread, message: 'I build DeFi' })).status,
  ).toBe(302);
  expect(
    (await funnel('send-message', { threadId: invited.threadId, message: 'I research MEV' }))
      .status,
  ).toBe(200);
});
afterAll(() => fake.stop());
beforeEach(() => {
  fake.mode = undefined;
});

describe('every route that calls a model, with the model server broken', () => {
  it.each(FAILURE_MODES)(
    "answers 503 with the spec's words and stores nothing when the server is %s",
    async (mode) => {
      const audienceName = `build lending protocols ${mode} ${++clue}`;
      const before = await Promise.all([stored(readerThread), stored(invited.threadId)]);
      fake.mode = mode;
      const started = Date.now();

      const [send, review, funnelSend, funnelClues, assessed] = await Promise.all([
        feed({ intent: 'send', threadId: readerThread, message: 'Also Solana' }),
        feed({ intent: 'review', threadId: readerThread }),
        funnel('send-message', { threadId: invited.threadId, message: 'And zk rollups' }),
        funnel('retrieve-clues', { threadId: invited.threadId }),
        assess(audienceName),
      ]);
      const took = Date.now() - started;

      expect(send).toMatchObject({ status: 503, data: { error: 'Failed to send message' } });
      expect(review).toMatchObject({ status: 503, data: { error: 'Failed to get clues' } });
      // The funnel's chat shows 'Failed to send message: ' (or '... get clues: ') before this.
      expect(funnelSend.status).toBe(503);
      expect(funnelSend.body.error).toMatchObject({
        code: 'assistant.unavailable',
        message: expect.stringMatching(/^Assistant: send-message failed, /),
      });
      expect(funnelClues.status).toBe(503);
      expect(funnelClues.body.error).toMatchObject({
        code: 'assistant.unavailable',
        message: expect.stringMatching(/^Assistant: retrieve-clues failed, /),
      });
      expect(assessed).toEqual({
        status: 503,
        body: {
          error: {
            code: 'assessment.unavailable',
            message: Assessment.ASSESSMENT_MESSAGES.unavailable,
          },
        },
      });
      // Within the budget (plus the reads and writes around it), far under the web function's 20 s.
      expect(took).toBeLessThan(Ai.IN_REQUEST_BUDGET_MS + 6_000);
      expect(await Promise.all([stored(readerThread), stored(invited.threadId)])).toEqual(before);
      expect(await storedAssessment(audienceName)).toBeNull();
      expect(fake.requests.length).toBeGreaterThan(0);
    },
    30_000,
  );

  it('starts a conversation without the model, so a broken server cannot stop it', async () => {
    fake.mode = 'hang';
    const opened = await feed({ intent: 'open-assistant' });
    const started = await funnel('initialize-thread', {});

    expect(opened.status).toBe(302);
    expect(started.status).toBe(200);
  });
});
