// Model servers follow the feeds' address policy: a base URL on loopback or a private network is
// refused before anything is sent unless MODEL_FETCH_ALLOW names it, every redirect is checked the
// same way, and the API key never leaves the origin it was configured for.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ai,
  AiNotConfigured,
  AiRejected,
  create,
  MAX_MODEL_REDIRECTS,
  openAiProvider,
  type Ai,
  type AiModelRef,
} from '#core/ai';
import { startFakeOpenAi, type FakeOpenAi } from '#tests/fakes/openai';

// This file's deployment allows one private address that no fake listens on, so the operator's
// model at http://127.0.0.1:<port>/v1 is outside the policy. Set before core reads its config.
vi.hoisted(() => {
  vi.stubEnv('MODEL_FETCH_ALLOW', '10.9.8.7');
});

let first: FakeOpenAi;
let second: FakeOpenAi;
const model: AiModelRef = {
  id: 'openai-compatible:fake',
  provider: 'openai-compatible',
  model: 'fake',
  modelType: 'gpt',
};
const hostOf = (fake: FakeOpenAi) => new URL(fake.url).host;

function provider(allow: string[]): Ai {
  return openAiProvider({
    apiKey: first.apiKey,
    baseUrl: first.url,
    timeoutMs: 5_000,
    retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1, sleep: async () => {}, random: () => 1 },
    allow,
  });
}

const chat = (port: Ai, to: AiModelRef = model) =>
  port.chat({
    model: to,
    system: 'You curate web3 news.',
    messages: [{ role: 'user', content: 'Hi' }],
  });

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );
}

beforeAll(async () => {
  // Both fakes take the same key: what the second receives is what a redirect forwarded.
  [first, second] = await Promise.all([startFakeOpenAi(), startFakeOpenAi()]);
});
afterAll(() => Promise.all([first.stop(), second.stop()]));
beforeEach(() => {
  first.requests.length = 0;
  second.requests.length = 0;
});

describe('the model address policy', () => {
  it("refuses an operator's model at a loopback port MODEL_FETCH_ALLOW does not name, before anything is posted", async () => {
    const probe = await create({
      provider: 'openai-compatible',
      model: 'local-port-probe',
      modelType: 'gpt',
      baseUrl: first.url,
    });

    const error = await rejection(chat(ai(), probe));

    expect(error).toBeInstanceOf(AiNotConfigured);
    expect((error as Error).message).toBe(
      `Refused: the model server 127.0.0.1 is on a private or local network; MODEL_FETCH_ALLOW must name ${hostOf(first)} to reach it`,
    );
    expect(first.requests).toHaveLength(0);
  });

  it('refuses another port of an allowed address, and answers once the exact host:port is named', async () => {
    const otherPort = `127.0.0.1:${Number(new URL(first.url).port) + 1}`;
    expect(await rejection(chat(provider([otherPort])))).toBeInstanceOf(AiNotConfigured);
    expect(await rejection(chat(provider([])))).toBeInstanceOf(AiNotConfigured);
    expect(first.requests).toHaveLength(0);

    const reply = await chat(provider([hostOf(first)]));
    expect(reply.message).toBe('Tell me more about what you build.');
    expect(first.requests).toHaveLength(1);
  });

  it('checks every redirect: a hop to a local port that is not allowed is never posted to', async () => {
    first.script({ redirect: `${second.url}/chat/completions`, status: 307 });

    const error = await rejection(chat(provider([hostOf(first)])));

    expect(error).toBeInstanceOf(AiNotConfigured);
    expect((error as Error).message).toContain(`MODEL_FETCH_ALLOW must name ${hostOf(second)}`);
    expect(first.requests).toHaveLength(1);
    expect(second.requests).toHaveLength(0);
  });

  it('sends the API key to its own origin only: an allowed redirect elsewhere arrives without it', async () => {
    first.script({ redirect: `${second.url}/chat/completions`, status: 307 });

    const error = await rejection(chat(provider([hostOf(first), hostOf(second)])));

    expect(first.requests[0]!.auth).toBe(`Bearer ${first.apiKey}`);
    expect(second.requests).toHaveLength(1);
    expect(second.requests[0]!.auth).toBeUndefined();
    // The body still went (a 307 keeps it); without the key the other server refuses it.
    expect(second.requests[0]!.body.model).toBe('fake');
    expect(error).toBeInstanceOf(AiRejected);
  });

  it('follows a redirect on its own origin with the key and the body', async () => {
    first.script({ redirect: '/v1/chat/completions', status: 308 });

    const reply = await chat(provider([hostOf(first)]));

    expect(reply.message).toBe('Tell me more about what you build.');
    expect(first.requests.map((request) => [request.auth, request.body.model])).toEqual([
      [`Bearer ${first.apiKey}`, 'fake'],
      [`Bearer ${first.apiKey}`, 'fake'],
    ]);
  });

  it(`gives up after ${MAX_MODEL_REDIRECTS} redirects`, async () => {
    first.script(
      ...Array.from({ length: MAX_MODEL_REDIRECTS + 1 }, () => ({
        redirect: '/v1/chat/completions',
      })),
    );

    const error = await rejection(chat(provider([hostOf(first)])));

    expect(error).toBeInstanceOf(AiNotConfigured);
    expect((error as Error).message).toContain('redirected more than 5 times');
    expect(first.requests).toHaveLength(MAX_MODEL_REDIRECTS + 1);
  });
});
