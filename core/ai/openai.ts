// The OpenAI adapter: chat completions with strict JSON-schema answers, embeddings and plain chat,
// through the official client. It speaks to OpenAI or to any OpenAI-compatible server (Ollama,
// vLLM, LM Studio) at a base URL. The client's own retries are off: ours (retry.ts) honour
// retry-after, map every failure to an AiError, and can be made instant in tests.
import OpenAI from 'openai';
import { readAnswer } from './answer';
import {
  AiBadAnswer,
  AiError,
  AiRateLimited,
  AiRejected,
  AiTimeout,
  AiUnavailable,
} from './errors';
import { addUsage, usageOf } from './pricing';
import { retryAfterMs, withRetries, type RetryPolicy } from './retry';
import type { Ai, AiUsage, ChatMessage, Embeddings } from './types';

export type OpenAiSettings = {
  apiKey: string;
  /** Unset for OpenAI itself; e.g. http://127.0.0.1:11434/v1 for Ollama. */
  baseUrl?: string;
  /** Per attempt. */
  timeoutMs: number;
  retry: RetryPolicy;
};

/** Inputs per embeddings request (OpenAI accepts up to 2,048; servers like Ollama want fewer). */
const EMBED_BATCH = 128;

/** Translates the client's errors into the port's, keeping the original as the cause. */
export function toAiError(error: unknown, what: string): unknown {
  if (error instanceof AiError || error instanceof OpenAI.APIUserAbortError) return error;
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return new AiTimeout(`${what}: no answer in time`, { cause: error });
  }
  if (error instanceof OpenAI.APIConnectionError) {
    return new AiUnavailable(`${what}: could not reach the AI server`, { cause: error });
  }
  if (error instanceof OpenAI.RateLimitError) {
    return new AiRateLimited(`${what}: rate limited`, retryAfterMs(error.headers), {
      cause: error,
    });
  }
  if (error instanceof OpenAI.APIError) {
    const status = error.status;
    if (status === undefined || status >= 500 || status === 408 || status === 409) {
      return new AiUnavailable(`${what}: the AI server failed (${status ?? 'no status'})`, {
        cause: error,
      });
    }
    return new AiRejected(`${what}: the AI server refused the request (${status})`, status, {
      cause: error,
    });
  }
  return error;
}

export function openAiProvider(settings: OpenAiSettings): Ai {
  const client = new OpenAI({
    apiKey: settings.apiKey,
    baseURL: settings.baseUrl,
    timeout: settings.timeoutMs,
    maxRetries: 0,
  });

  async function attempt<T>(what: string, call: () => Promise<T>): Promise<T> {
    return withRetries(settings.retry, async () => {
      try {
        return await call();
      } catch (error) {
        throw toAiError(error, what);
      }
    });
  }

  return {
    async complete({ model, task, user, history, signal }) {
      const what = `${task.name} with ${model.model}`;
      const messages: ChatMessage[] = [
        { role: 'system', content: task.system },
        ...(history ?? []),
        { role: 'user', content: user },
      ];
      const response = await attempt(what, () =>
        client.chat.completions.create(
          {
            model: model.model,
            messages,
            response_format: {
              type: 'json_schema',
              json_schema: { name: task.schemaName, strict: true, schema: task.jsonSchema },
            },
          },
          { signal },
        ),
      );
      const choice = response.choices[0];
      const raw = choice?.message.content ?? '';
      if (choice?.message.refusal) {
        throw new AiBadAnswer(`${what}: the model refused`, choice.message.refusal);
      }
      if (choice?.finish_reason === 'length') {
        throw new AiBadAnswer(`${what}: the answer was cut off at the token limit`, raw);
      }
      return {
        answer: readAnswer(task, raw),
        raw,
        usage: usageOf(
          model,
          response.usage?.prompt_tokens ?? 0,
          response.usage?.completion_tokens ?? 0,
        ),
        model,
      };
    },

    async embed({ model, texts, signal }) {
      const what = `embeddings with ${model.model}`;
      const result: Embeddings = { vectors: [], usage: usageOf(model, 0, 0), model };
      for (let start = 0; start < texts.length; start += EMBED_BATCH) {
        const input = texts.slice(start, start + EMBED_BATCH);
        const response = await attempt(what, () =>
          client.embeddings.create(
            { model: model.model, input, encoding_format: 'float' },
            { signal },
          ),
        );
        const vectors = [...response.data].sort((a, b) => a.index - b.index);
        const valid =
          vectors.length === input.length &&
          vectors.every(
            (item) =>
              Array.isArray(item.embedding) && item.embedding.every((x) => Number.isFinite(x)),
          );
        if (!valid) {
          throw new AiBadAnswer(
            `${what}: expected ${input.length} vectors`,
            JSON.stringify(response),
          );
        }
        result.vectors.push(...vectors.map((item) => item.embedding));
        result.usage = addUsage(
          result.usage,
          usageOf(model, response.usage?.prompt_tokens ?? 0, 0),
        );
      }
      return result;
    },

    async chat({ model, system, messages, signal }) {
      const what = `chat with ${model.model}`;
      const response = await attempt(what, () =>
        client.chat.completions.create(
          { model: model.model, messages: [{ role: 'system', content: system }, ...messages] },
          { signal },
        ),
      );
      const message = response.choices[0]?.message.content;
      if (!message) throw new AiBadAnswer(`${what}: the reply was empty`, JSON.stringify(response));
      const usage: AiUsage = usageOf(
        model,
        response.usage?.prompt_tokens ?? 0,
        response.usage?.completion_tokens ?? 0,
      );
      return { message, usage, model };
    },
  };
}
