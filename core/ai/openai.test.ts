import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AiBadAnswer,
  AiRateLimited,
  AiRejected,
  AiTimeout,
  AiUnavailable,
  articleRelevance,
  IN_REQUEST_BUDGET_MS,
  MAX_ANSWER_BYTES,
  openAiProvider,
  type Ai,
  type AiModelRef,
  type RetryPolicy,
} from '#core/ai';
import { startFakeOpenAi, type FakeOpenAi, type Scripted } from '#tests/fakes/openai';

let fake: FakeOpenAi;
let defaultAnswer: FakeOpenAi['answer'];
let waits: number[];
const model: AiModelRef = {
  id: 'openai:gpt-4o-mini',
  provider: 'openai',
  model: 'gpt-4o-mini',
  modelType: 'gpt',
};

/** Instant, recorded waits and no jitter, so retry timing is asserted exactly. */
function policy(maxRetries = 2): RetryPolicy {
  return {
    maxRetries,
    baseDelayMs: 100,
    maxDelayMs: 5_000,
    sleep: async (ms) => void waits.push(ms),
    random: () => 1,
  };
}

function provider(options: { retries?: number; timeoutMs?: number; apiKey?: string } = {}): Ai {
  return openAiProvider({
    apiKey: options.apiKey ?? fake.apiKey,
    baseUrl: fake.url,
    timeoutMs: options.timeoutMs ?? 5_000,
    retry: policy(options.retries),
  });
}

const relevanceRequest = {
  model,
  task: articleRelevance,
  input: {
    article: {
      title: 'Five invariants every lending protocol should fuzz',
      summary: 'DeFi testing.',
    },
    clues: ['I build DeFi protocols'],
  },
  user: 'Rate this article for the clue I build DeFi protocols.',
};

const HTML_PAGE = '<!doctype html><title>502 Bad Gateway</title><h1>Bad Gateway</h1>';
const NO_CONTENT = JSON.stringify({
  choices: [{ index: 0, message: { role: 'assistant', content: null }, finish_reason: 'stop' }],
});

/**
 * 200s that are no usable completion, as proxies and OpenAI-compatible servers send them, with
 * the raw text a structured answer's AiBadAnswer keeps (the body, or the empty content).
 */
const malformedCompletions: [string, Scripted, string][] = [
  ['an HTML page', { body: HTML_PAGE, contentType: 'text/html; charset=utf-8' }, HTML_PAGE],
  ['an HTML page labelled JSON', { body: HTML_PAGE }, HTML_PAGE],
  [
    'cut-off JSON',
    { body: '{"id":"chatcmpl-1","choices":[{"in' },
    '{"id":"chatcmpl-1","choices":[{"in',
  ],
  ['an empty body', { body: '' }, ''],
  [
    'JSON without choices',
    { body: '{"object":"chat.completion"}' },
    '{"object":"chat.completion"}',
  ],
  ['an empty list of choices', { body: '{"choices":[]}' }, '{"choices":[]}'],
  [
    'a choice without a message',
    { body: '{"choices":[{"index":0}]}' },
    '{"choices":[{"index":0}]}',
  ],
  ['a message without content', { body: NO_CONTENT }, ''],
];

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );
}

beforeAll(async () => {
  fake = await startFakeOpenAi();
  defaultAnswer = fake.answer;
});
afterAll(() => fake.stop());
beforeEach(() => {
  waits = [];
  fake.requests.length = 0;
  fake.answer = defaultAnswer;
});

describe('OpenAI adapter', () => {
  it('asks for a strict json_schema answer and returns it parsed, with usage and cost', async () => {
    fake.answer = () => ({
      label: 'Very Relevant',
      score: 0.9,
      reason: 'It is about testing lending protocols.',
      relevantClues: ['I build DeFi protocols'],
    });
    const result = await provider().complete(relevanceRequest);

    expect(result.answer).toEqual({
      label: 'Very Relevant',
      score: 0.9,
      reason: 'It is about testing lending protocols.',
      relevantClues: ['I build DeFi protocols'],
    });
    const body = fake.requests[0]!.body;
    expect(body.model).toBe('gpt-4o-mini');
    expect(body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'article_relevance', strict: true, schema: articleRelevance.jsonSchema },
    });
    expect(body.messages).toEqual([
      { role: 'system', content: articleRelevance.system },
      { role: 'user', content: relevanceRequest.user },
    ]);
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(result.usage.totalTokens).toBe(result.usage.inputTokens + result.usage.outputTokens);
    expect(result.usage.costUsd).toBeCloseTo(
      (result.usage.inputTokens * 0.15 + result.usage.outputTokens * 0.6) / 1e6,
      12,
    );
    expect(result.raw).toBe(JSON.stringify(result.answer));
  });

  it('waits as long as retry-after says after a 429, then succeeds', async () => {
    fake.script({ status: 429, retryAfter: '2' });
    const result = await provider().complete(relevanceRequest);

    expect(result.answer.label).toBe('Not Relevant');
    expect(fake.requests).toHaveLength(2);
    expect(waits).toEqual([2000]);
  });

  it('gives up with AiRateLimited and the hint when retry-after is longer than it will wait', async () => {
    fake.script({ status: 429, retryAfter: '120' });
    const error = await rejection(provider().complete(relevanceRequest));

    expect(error).toBeInstanceOf(AiRateLimited);
    expect(error).toMatchObject({
      code: 'ai.rate_limited',
      retryable: true,
      retryAfterMs: 120_000,
    });
    expect(fake.requests).toHaveLength(1);
  });

  it('retries a 500 with exponential backoff and reports AiUnavailable when it keeps failing', async () => {
    fake.script({ status: 500 }, { status: 502 }, { status: 503 });
    const error = await rejection(provider({ retries: 2 }).complete(relevanceRequest));

    expect(error).toBeInstanceOf(AiUnavailable);
    expect((error as AiUnavailable).cause).toBeDefined();
    expect(fake.requests).toHaveLength(3);
    expect(waits).toEqual([100, 200]);
  });

  it('recovers from a single 500', async () => {
    fake.script({ status: 500 });
    await expect(provider().complete(relevanceRequest)).resolves.toMatchObject({
      answer: { label: 'Not Relevant' },
    });
    expect(waits).toEqual([100]);
  });

  it('abandons a slow answer with AiTimeout after its retries', async () => {
    fake.script({ delayMs: 1_000 }, { delayMs: 1_000 });
    const error = await rejection(
      provider({ retries: 1, timeoutMs: 200 }).complete(relevanceRequest),
    );

    expect(error).toBeInstanceOf(AiTimeout);
    expect(fake.requests).toHaveLength(2);
  });

  it('reports malformed JSON as AiBadAnswer with the raw text, without retrying', async () => {
    fake.script({ content: '{"label": "Very Relevant", "score": 0.9' });
    const error = await rejection(provider().complete(relevanceRequest));

    expect(error).toBeInstanceOf(AiBadAnswer);
    expect(error).toMatchObject({
      code: 'ai.bad_answer',
      raw: '{"label": "Very Relevant", "score": 0.9',
    });
    expect(fake.requests).toHaveLength(1);
  });

  it('reports an answer outside the schema as AiBadAnswer naming the field', async () => {
    fake.script({
      content: JSON.stringify({
        label: 'Extremely Relevant',
        score: 2,
        reason: '',
        relevantClues: [],
      }),
    });
    const error = await rejection(provider().complete(relevanceRequest));

    expect(error).toBeInstanceOf(AiBadAnswer);
    expect((error as Error).message).toContain('label');
  });

  it('reports an answer cut off at the token limit as AiBadAnswer', async () => {
    fake.script({ content: '{"label": "Very', finishReason: 'length' });
    const error = await rejection(provider().complete(relevanceRequest));
    expect(error).toBeInstanceOf(AiBadAnswer);
    expect((error as Error).message).toContain('cut off');
  });

  it.each(malformedCompletions)(
    'reports a 200 with %s as AiBadAnswer keeping what was sent, without retrying',
    async (_what, step, raw) => {
      fake.script(step);
      const error = await rejection(provider().complete(relevanceRequest));

      expect(error).toBeInstanceOf(AiBadAnswer);
      expect(error).toMatchObject({ code: 'ai.bad_answer', raw });
      expect(fake.requests).toHaveLength(1);
    },
  );

  it.each(malformedCompletions)(
    'reports a chat reply of %s as AiBadAnswer',
    async (_what, step) => {
      fake.script(step);
      const error = await rejection(
        provider().chat({ model, system: 'You interview a new reader.', messages: [] }),
      );
      expect(error).toBeInstanceOf(AiBadAnswer);
    },
  );

  it.each([
    ['an HTML page', { body: HTML_PAGE, contentType: 'text/html' }],
    ['data that is not a list', { body: '{"object":"list","data":"none"}' }],
    ['a vector of strings', { body: '{"data":[{"index":0,"embedding":["0.1"]}]}' }],
    ['too few vectors', { body: '{"data":[]}' }],
  ] as [string, Scripted][])(
    'reports embeddings answered with %s as AiBadAnswer',
    async (_what, step) => {
      fake.script(step);
      const error = await rejection(
        provider().embed({
          model: { ...model, model: 'text-embedding-3-small', modelType: 'embeddings' },
          texts: ['I build DeFi protocols'],
        }),
      );
      expect(error).toBeInstanceOf(AiBadAnswer);
    },
  );

  it('retries an answer that broke off mid-body, and reports AiUnavailable when it keeps breaking', async () => {
    const broken: Scripted = { body: '{"choices":[{"index":0,', breakOff: true };
    fake.script(broken);
    await expect(provider().complete(relevanceRequest)).resolves.toMatchObject({
      answer: { label: 'Not Relevant' },
    });
    expect(waits).toEqual([100]);

    fake.script(broken, broken);
    const error = await rejection(provider({ retries: 1 }).complete(relevanceRequest));
    expect(error).toBeInstanceOf(AiUnavailable);
  });

  it('refuses a wrong key as AiRejected without retrying', async () => {
    const error = await rejection(provider({ apiKey: 'sk-wrong' }).complete(relevanceRequest));
    expect(error).toBeInstanceOf(AiRejected);
    expect(error).toMatchObject({ status: 401, retryable: false });
    expect(fake.requests).toHaveLength(1);
  });

  it('embeds texts in order with usage', async () => {
    const result = await provider().embed({
      model: { ...model, model: 'text-embedding-3-small', modelType: 'embeddings' },
      texts: ['I build DeFi protocols', 'I collect generative art'],
    });
    expect(result.vectors).toHaveLength(2);
    expect(result.vectors[0]).toHaveLength(8);
    expect(result.vectors[0]).not.toEqual(result.vectors[1]);
    expect(fake.requests[0]!.body).toMatchObject({ encoding_format: 'float' });
    expect(result.usage.inputTokens).toBeGreaterThan(0);
  });

  it('chats with the system prompt first and returns the reply', async () => {
    const reply = await provider().chat({
      model,
      system: 'You interview a new reader.',
      messages: [{ role: 'user', content: 'I run a validator.' }],
    });
    expect(reply.message).toBe('Tell me more about what you build.');
    expect(fake.requests[0]!.body.messages).toEqual([
      { role: 'system', content: 'You interview a new reader.' },
      { role: 'user', content: 'I run a validator.' },
    ]);
  });
});

describe('a call made inside a web request (its budget)', () => {
  const chat = (ai: Ai, budgetMs?: number) =>
    ai.chat({
      model,
      system: 'You interview a new reader.',
      messages: [{ role: 'user', content: 'I run a validator.' }],
      ...(budgetMs !== undefined && { budgetMs }),
    });
  /** As deployed: waits up to 30 s, per-attempt timeout a minute, three retries. */
  const deployed = () =>
    openAiProvider({
      apiKey: fake.apiKey,
      baseUrl: fake.url,
      timeoutMs: 60_000,
      retry: { ...policy(3), maxDelayMs: 30_000 },
    });

  it('fits the web function: the budget leaves room under its timeout', async () => {
    const { readFileSync } = await import('node:fs');
    const stack = readFileSync(new URL('../../stacks/web.ts', import.meta.url), 'utf8');
    const seconds = Number(/timeout: '(\d+) seconds'/.exec(stack)?.[1]);
    expect(seconds).toBeGreaterThan(0);
    expect(IN_REQUEST_BUDGET_MS).toBeLessThanOrEqual((seconds * 1000) / 2);
  });

  it('gives up on a hanging server when its budget is spent, whatever the per-attempt timeout', async () => {
    fake.script({ delayMs: 5_000 });
    const started = Date.now();
    const error = await rejection(chat(deployed(), 300));

    expect(error).toBeInstanceOf(AiTimeout);
    expect((error as Error).message).toBe('chat with gpt-4o-mini: no answer within 300 ms');
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('makes no retry whose wait would pass the budget; a job (no budget) waits and retries', async () => {
    fake.script({ status: 429, retryAfter: '9' });
    const error = await rejection(chat(deployed(), IN_REQUEST_BUDGET_MS));
    expect(error).toBeInstanceOf(AiRateLimited);
    expect(waits).toEqual([]);
    expect(fake.requests).toHaveLength(1);

    fake.script({ status: 429, retryAfter: '9' });
    const reply = await chat(deployed());
    expect(reply.message).toBe('Tell me more about what you build.');
    expect(waits).toEqual([9_000]);
  });
});

describe('the size of an answer', () => {
  it('refuses an answer past MAX_ANSWER_BYTES while it streams in, as a bad answer, without retrying', async () => {
    fake.mode = 'huge';
    try {
      const error = await rejection(
        provider().chat({
          model,
          system: 'Interview.',
          messages: [{ role: 'user', content: 'Hi' }],
        }),
      );
      expect(error).toBeInstanceOf(AiBadAnswer);
      expect((error as Error).message).toBe(
        `chat with gpt-4o-mini: the answer is larger than ${MAX_ANSWER_BYTES.completion / 1024} KB`,
      );
      expect(fake.requests).toHaveLength(1);
    } finally {
      fake.mode = undefined;
    }
  });
});
