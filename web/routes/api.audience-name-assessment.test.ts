import { ulid } from 'ulid';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import * as Ai from '#core/ai';
import { ASSESSMENT_MESSAGES, AUTOMATION_ID, LIMIT_PER_IP, PUBLIC_BUDGET } from '#core/assessment';
import { config } from '#core/config';
import * as RateLimit from '#core/rate-limit';
import * as Prompts from '#core/prompts';
import { startFakeOpenAi, type FakeOpenAi, type Scripted } from '#tests/fakes/openai';
import { action, loader } from './api.audience-name-assessment';

// The configured gpt model is an OpenAI-compatible one served by the fake, so every model call is
// a request the fake counts. Set before core reads its configuration (once, on first use).
vi.hoisted(() => {
  process.env.AI_GPT_MODEL = 'openai-compatible/fake-gpt';
  process.env.OPENAI_COMPATIBLE_API_KEY = 'sk-fake-key';
  process.env.AI_MAX_RETRIES = '0';
});

let fake: FakeOpenAi;
let ip = 0;
const PREFIX = 'I am one of those who';
const ANSWER = {
  score: 'very insightful',
  reasoning: 'Lending protocols on Ethereum is a clear niche.',
  suggestions: ['build DeFi lending protocols for liquidation engines on Ethereum'],
};

const args = (request: Request) => ({ request, params: {}, context: {} });

function post(
  body: string,
  fromIp = `10.20.0.${++ip}`,
  type = 'application/json',
  signal?: AbortSignal,
) {
  return action(
    args(
      new Request('http://localhost/api/audience-name-assessment', {
        method: 'POST',
        body,
        headers: { 'Content-Type': type, 'X-Forwarded-For': fromIp },
        signal,
      }),
    ),
  );
}

const assess = (input: Record<string, unknown>, fromIp?: string) =>
  post(JSON.stringify(input), fromIp);
const clue = () => `build DeFi lending protocols on Ethereum ${ulid().toLowerCase().slice(-6)}`;
const completions = () => fake.requests.filter((r) => r.path === '/v1/chat/completions');

async function read(response: Response) {
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  fake = await startFakeOpenAi();
  await Ai.create({
    provider: 'openai-compatible',
    model: 'fake-gpt',
    modelType: 'gpt',
    baseUrl: fake.url,
  });
});
afterAll(() => fake.stop());
beforeEach(() => {
  fake.requests.length = 0;
  fake.answer = () => ANSWER;
  vi.useRealTimers();
});

describe('POST /api/audience-name-assessment', () => {
  it("answers the model's score text, its rank, reasoning and suggestions (not the raw text)", async () => {
    const text = clue();
    const { status, body } = await read(
      await assess({ prefix: PREFIX, pointer: 'work on', clue: text }),
    );

    expect(status).toBe(200);
    expect(body).toEqual({ ...ANSWER, rank: 'HIGH' });
    const request = completions()[0]!.body;
    expect(request.model).toBe('fake-gpt');
    const prompt = await Prompts.current(AUTOMATION_ID);
    const user = Prompts.render(prompt, { prefix: PREFIX, pointer: 'work on', audienceName: text });
    expect(request.messages).toEqual([
      { role: 'system', content: Ai.audienceNameAssessment.system },
      { role: 'user', content: user },
    ]);
    expect(user).toContain(text);
  });

  it('answers an identical clue again from the cache, without a second model call', async () => {
    const text = clue();
    const first = await read(await assess({ prefix: PREFIX, clue: text }));
    const second = await read(await assess({ prefix: PREFIX, clue: ` ${text.toUpperCase()} ` }));
    const other = await read(await assess({ prefix: PREFIX, clue: `${text} and more` }));

    expect(second).toEqual(first);
    expect(other.status).toBe(200);
    expect(completions()).toHaveLength(2);
  });

  it('explains a missing or overlong clue, bad JSON and an oversized body with a 4xx', async () => {
    expect(await read(await assess({ prefix: PREFIX }))).toEqual({
      status: 400,
      body: { error: { code: 'input.invalid', message: ASSESSMENT_MESSAGES.clueRequired } },
    });
    expect(await read(await assess({ prefix: PREFIX, clue: 'a'.repeat(301) }))).toEqual({
      status: 400,
      body: { error: { code: 'input.invalid', message: ASSESSMENT_MESSAGES.clueTooLong } },
    });
    expect((await read(await assess({ prefix: 'p'.repeat(201), clue: 'x' }))).body).toEqual({
      error: { code: 'input.invalid', message: ASSESSMENT_MESSAGES.prefixTooLong },
    });
    expect((await read(await assess({ prefix: PREFIX, clue: 42 }))).status).toBe(400);
    expect((await read(await post('{not json'))).status).toBe(400);
    expect((await read(await post(JSON.stringify({ clue: 'é'.repeat(3000) })))).status).toBe(413);
    expect((await read(await post('clue=x', undefined, 'text/plain'))).status).toBe(415);
    expect(completions()).toHaveLength(0);
  });

  it('answers 429 once an address has asked 30 times in 10 minutes', async () => {
    // Mid-window, so the burst cannot straddle two windows.
    const windowMs = LIMIT_PER_IP.windowSeconds * 1000;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Math.floor(Date.now() / windowMs) * windowMs + windowMs / 2);
    const from = `10.21.${++ip}.1`;
    const text = clue();
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT_PER_IP.max + 2; i++) {
      statuses.push((await assess({ prefix: PREFIX, clue: text }, from)).status);
    }
    const limited = await read(await assess({ prefix: PREFIX, clue: text }, from));

    expect(statuses.slice(0, LIMIT_PER_IP.max).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(LIMIT_PER_IP.max)).toEqual([429, 429]);
    expect(limited.body).toEqual({
      error: {
        code: 'rate_limited',
        message: 'Too many assessments. Please wait a few minutes and try again.',
      },
    });
    expect((await assess({ prefix: PREFIX, clue: text }, `10.22.${ip}.1`)).status).toBe(200);
  });

  it('answers 503 with a clear message when the model fails, and caches nothing', async () => {
    const text = clue();
    fake.script({ status: 500 });
    const failed = await read(await assess({ prefix: PREFIX, clue: text }));
    fake.script({ content: '{"score": "very' });
    const malformed = await read(await assess({ prefix: PREFIX, clue: text }));
    const recovered = await read(await assess({ prefix: PREFIX, clue: text }));

    const unavailable = {
      status: 503,
      body: { error: { code: 'assessment.unavailable', message: ASSESSMENT_MESSAGES.unavailable } },
    };
    expect(failed).toEqual(unavailable);
    expect(malformed).toEqual(unavailable);
    expect(recovered).toEqual({ status: 200, body: { ...ANSWER, rank: 'HIGH' } });
    expect(completions()).toHaveLength(3);
  });

  it.each([
    ['an HTML page', { body: '<!doctype html><h1>Bad Gateway</h1>', contentType: 'text/html' }],
    ['cut-off JSON', { body: '{"id":"chatcmpl-1","choices":[{"index":0,"message":{"con' }],
    ['JSON without choices', { body: '{"id":"chatcmpl-1","object":"chat.completion"}' }],
    ['a message without content', { body: '{"choices":[{"message":{"content":null}}]}' }],
  ] as [string, Scripted][])(
    'answers 503 when the model server sends %s with a 200, and caches nothing',
    async (_what, step) => {
      const text = clue();
      fake.script(step);
      const failed = await read(await assess({ prefix: PREFIX, clue: text }));
      const recovered = await read(await assess({ prefix: PREFIX, clue: text }));

      expect(failed).toEqual({
        status: 503,
        body: {
          error: { code: 'assessment.unavailable', message: ASSESSMENT_MESSAGES.unavailable },
        },
      });
      expect(recovered).toEqual({ status: 200, body: { ...ANSWER, rank: 'HIGH' } });
      expect(completions()).toHaveLength(2);
    },
  );

  it('stops waiting for a slow model when the caller goes away, answering 503', async () => {
    fake.script({ delayMs: 3_000 });
    const started = Date.now();
    const response = await post(
      JSON.stringify({ prefix: PREFIX, clue: clue() }),
      undefined,
      'application/json',
      AbortSignal.timeout(500),
    );

    expect(await read(response)).toEqual({
      status: 503,
      body: { error: { code: 'assessment.unavailable', message: ASSESSMENT_MESSAGES.unavailable } },
    });
    expect(Date.now() - started).toBeLessThan(2_500);
  });

  it('refuses GET with 405', async () => {
    const response = await loader();
    expect(response.status).toBe(405);
    expect(response.headers.get('Allow')).toBe('POST');
  });
});

describe('the limit per client', () => {
  it('counts the addresses of one IPv6 /64 as one client', async () => {
    // Any IPv6 host picks new addresses inside its /64 at will (privacy addresses): a limit per
    // full address lets one visitor buy unlimited model calls.
    const windowMs = LIMIT_PER_IP.windowSeconds * 1000;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Math.floor(Date.now() / windowMs) * windowMs + windowMs / 2);
    const net = `2001:db8:${(++ip).toString(16)}:7`;
    const text = clue();
    for (let i = 1; i <= LIMIT_PER_IP.max; i++)
      expect(
        (await assess({ prefix: PREFIX, clue: text }, `${net}::${i.toString(16)}`)).status,
      ).toBe(200);

    const next = await assess({ prefix: PREFIX, clue: text }, `${net}::beef`);
    expect(next.status).toBe(429);
  });
});

describe('the budget of every address together', () => {
  it('lets exactly what is left of it through when many addresses ask at once, then answers 429', async () => {
    // A window of its own, a day back, so nothing else in this file counts in it.
    const windowMs = PUBLIC_BUDGET.windowSeconds * 1000;
    const at = Math.floor((Date.now() - 86_400_000) / windowMs) * windowMs + windowMs / 2;
    const budget = PUBLIC_BUDGET.max * config().RATE_LIMIT_FACTOR;
    const known = clue();
    expect((await assess({ prefix: PREFIX, clue: known })).status).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(at);
    // Spent down to 5 calls, as other visitors' calls would.
    expect((await RateLimit.attempt(PUBLIC_BUDGET, 'all', at)).allowed).toBe(true);
    for (let spent = 1; spent < budget - 5; spent += 50) {
      const batch = Array.from({ length: Math.min(50, budget - 5 - spent) }, () =>
        RateLimit.attempt(PUBLIC_BUDGET, 'all', at),
      );
      expect((await Promise.all(batch)).every((counted) => counted.allowed)).toBe(true);
    }
    fake.requests.length = 0;

    // Twelve addresses, each well under its own limit, at the same moment.
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        assess({ prefix: PREFIX, clue: clue() }, `10.30.${++ip}.${i}`),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    const refused = answers.find((answer) => answer.status === 429)!;
    const cached = await assess({ prefix: PREFIX, clue: known });

    expect(statuses).toEqual([...Array<number>(5).fill(200), ...Array<number>(7).fill(429)]);
    expect(completions()).toHaveLength(5);
    expect((await read(refused)).body).toEqual({
      error: { code: 'assessment.busy', message: ASSESSMENT_MESSAGES.busy },
    });
    expect(refused.headers.get('Retry-After')).toBe('60');
    // A clue already assessed is answered from the cache, without a model call.
    expect(cached.status).toBe(200);
    expect(completions()).toHaveLength(5);
  });
});
