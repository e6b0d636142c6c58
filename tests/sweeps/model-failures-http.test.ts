// The model-failure sweep over the built app, as the attack review probed it: real HTTP to the
// local server (what `npm start` serves), a reader signed in through /login, an invited reader's
// funnel link, and the production gpt model pointed at a fake OpenAI server that fails in each way
// a real one does. Every route that calls a model answers the intended 503 with the spec's words
// (§8) within the in-request budget, never another 5xx, and nothing is stored.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import * as Ai from '#core/ai';
import * as Assessment from '#core/assessment';
import * as Assistant from '#core/assistant';
import * as Prompts from '#core/prompts';
import * as Users from '#core/users';
import { FAILURE_MODES, startFakeOpenAi, type FakeOpenAi } from '#tests/fakes/openai';
import { send, startLocalServer, type LocalServer } from '#tests/integration/local-server';
import { readerWithPassword } from '#tests/integration/readers';
import { invitedReader } from '#tests/integration/sweep-world';

// The production gpt model is an OpenAI-compatible one served by the fake, with the default
// retries, as deployed. Set before the app reads its configuration (once, on first use).
vi.hoisted(() => {
  vi.stubEnv('AI_GPT_MODEL', 'openai-compatible/fake-gpt-http');
  vi.stubEnv('OPENAI_COMPATIBLE_API_KEY', 'sk-fake-key');
});

const FORM = 'application/x-www-form-urlencoded';
const PREFIX = 'I am one of those who';

let server: LocalServer;
let fake: FakeOpenAi;
let reader: { id: string; cookie: string; threadId: string };
let invited: Awaited<ReturnType<typeof invitedReader>>;
let clue = 0;

/** The name=value pairs of a response's Set-Cookie headers, as a browser sends them back. */
const cookiesOf = (setCookie: string[] | undefined) =>
  (setCookie ?? []).map((cookie) => cookie.split(';')[0]).join('; ');

/** Signs a reader in through the sign-in form, as a browser does. */
async function signIn(login: string, password: string): Promise<string> {
  const answer = await send(server, {
    method: 'POST',
    path: '/login',
    headers: { Origin: server.origin, 'Content-Type': FORM },
    body: new URLSearchParams({ login, password }).toString(),
  });
  expect(answer.status).toBe(302);
  return cookiesOf(answer.headers['set-cookie']);
}

/** A post from the feed's assistant panel (its chat view), without JavaScript. */
const feed = (fields: Record<string, string>) =>
  send(server, {
    method: 'POST',
    path: `/feed?thread=${reader.threadId}&chat=1`,
    headers: { Origin: server.origin, 'Content-Type': FORM, Cookie: reader.cookie },
    body: new URLSearchParams({ threadId: reader.threadId, ...fields }).toString(),
  });

/** A JSON post, as the funnel's and the public assessment's scripts send them. */
async function postJson(path: string, body: Record<string, unknown>) {
  const answer = await send(server, {
    method: 'POST',
    path,
    headers: { Origin: server.origin, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: answer.status, body: JSON.parse(answer.body) as Record<string, unknown> };
}

const funnel = (call: string, body: Record<string, unknown>) =>
  postJson(`/get-started/${call}`, { token: invited.token, threadId: invited.threadId, ...body });

const assess = (audienceName: string) =>
  postJson('/api/audience-name-assessment', { prefix: PREFIX, clue: audienceName });

/** The cached assessment of a clue, if one was stored. */
async function storedAssessment(audienceName: string) {
  const prompt = await Prompts.current(Assessment.AUTOMATION_ID);
  const { data } = await Assessment.AssessmentAnswerEntity.get({
    inputHash: Assessment.inputHash({ prefix: PREFIX, audienceName }),
    promptId: prompt.id,
    modelId: 'openai-compatible:fake-gpt-http',
  }).go();
  return data;
}

/** What a failed call must leave as it was: both conversations and the reader's clues. */
async function stored() {
  const thread = async (id: string) => ({
    messages: await Assistant.messagesOf(id),
    thread: (await Assistant.AssistantThreadEntity.get({ id }).go({ consistent: true })).data,
  });
  return {
    reader: await thread(reader.threadId),
    funnel: await thread(invited.threadId),
    clues: (await Users.byId(reader.id))?.descriptors,
  };
}

/** The assistant panel's error banner with the spec's words, as the page shows it. */
const banner = (words: string) =>
  new RegExp(`<div class="feed-banner feed-banner--error" role="alert">.*?<p>${words}</p></div>`);

beforeAll(async () => {
  fake = await startFakeOpenAi();
  await Ai.create({
    provider: 'openai-compatible',
    model: 'fake-gpt-http',
    modelType: 'gpt',
    baseUrl: fake.url,
  });
  let account: Awaited<ReturnType<typeof readerWithPassword>>;
  [server, account, invited] = await Promise.all([
    startLocalServer(),
    readerWithPassword({ clues: ['I build DeFi lending protocols'] }),
    invitedReader(),
  ]);
  const { threadId } = await Assistant.initializeThread({
    userId: account.user.id,
    category: 'change_clues',
  });
  reader = { id: account.user.id, cookie: await signIn(account.email, account.password), threadId };
  // One turn each while the model answers: the routes work, and a review has a conversation.
  const [sent, funnelSent] = await Promise.all([
    feed({ intent: 'send', message: 'I build DeFi' }),
    funnel('send-message', { message: 'I research MEV' }),
  ]);
  expect([sent.status, sent.headers.location]).toEqual([302, `/feed?thread=${threadId}`]);
  expect(funnelSent.status).toBe(200);
}, 60_000);
afterAll(async () => {
  server?.stop();
  await fake?.stop();
});
beforeEach(() => {
  fake.mode = undefined;
});

describe('every route that calls a model, over HTTP with the model server broken', () => {
  it.each(FAILURE_MODES)(
    "answers 503 with the spec's words in time and stores nothing when the server is %s",
    async (mode) => {
      const audienceName = `build lending protocols over http ${mode} ${++clue}`;
      const before = await stored();
      const asked = fake.requests.length;
      fake.mode = mode;
      const started = Date.now();

      // At once, so a hanging server costs one budget, not one per route.
      const [chat, review, funnelSend, funnelClues, assessed] = await Promise.all([
        feed({ intent: 'send', message: 'Also Solana' }),
        feed({ intent: 'review' }),
        funnel('send-message', { message: 'And zk rollups' }),
        funnel('retrieve-clues', {}),
        assess(audienceName),
      ]);
      const took = Date.now() - started;
      fake.mode = undefined;

      expect([chat.status, review.status, funnelSend.status, funnelClues.status]).toEqual([
        503, 503, 503, 503,
      ]);
      expect(assessed.status).toBe(503);
      expect(chat.body).toMatch(banner('Failed to send message'));
      expect(review.body).toMatch(banner('Failed to get clues'));
      // The funnel's chat shows 'Failed to send message: ' (or '... get clues: ') before this.
      expect(funnelSend.body.error).toMatchObject({
        code: 'assistant.unavailable',
        message: expect.stringMatching(/^Assistant: send-message failed, /),
      });
      expect(funnelClues.body.error).toMatchObject({
        code: 'assistant.unavailable',
        message: expect.stringMatching(/^Assistant: retrieve-clues failed, /),
      });
      expect(assessed.body).toEqual({
        error: {
          code: 'assessment.unavailable',
          message: Assessment.ASSESSMENT_MESSAGES.unavailable,
        },
      });
      // Within the budget (plus the reads and writes around it), far under the web function's 20 s.
      expect(took).toBeLessThan(Ai.IN_REQUEST_BUDGET_MS + 6_000);
      expect(await stored()).toEqual(before);
      expect(await storedAssessment(audienceName)).toBeNull();
      // Each route did ask the broken server (none answered from somewhere else).
      expect(fake.requests.length - asked).toBeGreaterThanOrEqual(5);
    },
    40_000,
  );
});
