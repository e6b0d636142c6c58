// AI models page: only for admins; an OpenAI-compatible model is added with its base URL and
// listed; every bad input is refused with its message and a 400 or 409, keeping what was typed.
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import * as Ai from '#core/ai';
import { config } from '#core/config';
import { call, type Answer } from '#tests/integration/route-call';
import { adminPost, signedInAdmin } from '#web/lib/admin.server.test-helpers';
import { action, loader } from './experiments.models';

const PATH = '/admin-panel/experiments/models';
const origin = () => new URL(config().PUBLIC_URL).origin;

/** The action's answer to the signed-in admin's form, as Remix would send it. */
async function post(form: Record<string, string>): Promise<Answer> {
  const { cookie } = await signedInAdmin();
  return call(action, adminPost(PATH, form, cookie));
}

describe('AI models page', () => {
  it('sends a visitor without a session to sign-in', async () => {
    expect(await call(loader, new Request(new URL(PATH, origin())))).toMatchObject({
      status: 302,
      location: `/admin-panel/authorize?returnUrl=${encodeURIComponent(PATH)}`,
    });
  });

  it('adds an OpenAI-compatible model with its base URL, and lists it; a second time is refused', async () => {
    const model = `llama-${ulid().toLowerCase()}`;
    const form = {
      intent: 'add',
      provider: 'openai-compatible',
      model,
      modelType: 'gpt',
      baseUrl: 'http://127.0.0.1:11434/v1',
    };
    expect(await post(form)).toMatchObject({
      status: 200,
      data: { toast: `The AI model openai-compatible - ${model} was added` },
    });
    expect(await Ai.byId(Ai.aiModelId('openai-compatible', model))).toMatchObject({
      baseUrl: 'http://127.0.0.1:11434/v1',
    });
    const { cookie } = await signedInAdmin();
    const page = await loader({
      request: new Request(new URL(PATH, origin()), { headers: { cookie } }),
      params: {},
      context: {},
    });
    expect(page.models.map((m) => m.name)).toContain(`openai-compatible - ${model}`);
    const again = await post(form);
    expect(again.status).toBe(409);
  });

  it('refuses bad input with its message and keeps what was typed', async () => {
    for (const [form, message] of [
      [
        { intent: 'add', provider: 'openai-compatible', model: 'x', modelType: 'gpt', baseUrl: '' },
        'An OpenAI-compatible model needs the base URL of its server',
      ],
      [
        {
          intent: 'add',
          provider: 'openai',
          model: 'x',
          modelType: 'gpt',
          baseUrl: 'http://a.example',
        },
        'Only an OpenAI-compatible model has a base URL',
      ],
      [
        {
          intent: 'add',
          provider: 'openai-compatible',
          model: ' ',
          modelType: 'gpt',
          baseUrl: 'http://a.example/v1',
        },
        'Please add a model name',
      ],
      [
        { intent: 'add', provider: 'nope', model: 'x', modelType: 'gpt', baseUrl: '' },
        'Please select a provider',
      ],
      [
        {
          intent: 'add',
          provider: 'openai-compatible',
          model: 'x',
          modelType: 'gpt',
          baseUrl: 'javascript:alert(1)',
        },
        'Please add a valid base URL',
      ],
    ] as const) {
      const answer = await post(form);
      expect(answer.status).toBe(400);
      expect(answer.data).toMatchObject({ error: message, typed: { model: form.model } });
    }
  });
});
