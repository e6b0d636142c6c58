// The OpenAI adapter: chat completions with strict JSON-schema answers, embeddings and plain chat,
// through the official client. It speaks to OpenAI or to any OpenAI-compatible server (Ollama,
// vLLM, LM Studio) at a base URL. The client's own retries are off: ours (retry.ts) honour
// retry-after, map every failure to an AiError, and can be made instant in tests.
// A 200 is read as text and checked against the shape we use before anything touches it: a server
// that answers HTML, cut-off JSON or JSON without choices is an AiBadAnswer like a refusal, never
// a TypeError (the client would hand us whatever the body parsed to).
import OpenAI from 'openai';
import type { APIPromise } from 'openai/core/api-promise';
import * as v from 'valibot';
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

const Usage = v.nullish(
  v.object({ prompt_tokens: v.nullish(v.number()), completion_tokens: v.nullish(v.number()) }),
);

/** What we read of a chat completion; the rest of the body is ignored. */
const CompletionBody = v.object({
  choices: v.pipe(
    v.array(
      v.object({
        message: v.object({ content: v.nullish(v.string()), refusal: v.nullish(v.string()) }),
        finish_reason: v.nullish(v.string()),
      }),
    ),
    v.minLength(1, 'no choices'),
  ),
  usage: Usage,
});

/** What we read of an embeddings answer. */
const EmbeddingsBody = v.object({
  data: v.array(v.object({ index: v.number(), embedding: v.array(v.number()) })),
  usage: Usage,
});

/** A 200's body as the shape `schema` describes, or an AiBadAnswer carrying the text. */
function readBody<S extends v.GenericSchema>(
  what: string,
  schema: S,
  raw: string,
): v.InferOutput<S> {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (cause) {
    throw new AiBadAnswer(`${what}: the server's answer is not JSON`, raw, { cause });
  }
  const result = v.safeParse(schema, json);
  if (!result.success) {
    const issue = result.issues[0];
    const where = v.getDotPath(issue) ?? 'answer';
    throw new AiBadAnswer(
      `${what}: the server's answer is malformed at ${where}: ${issue.message}`,
      raw,
      { cause: result.issues },
    );
  }
  return result.output;
}

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

  /** Sends a request (with our retries) and answers its 200's body as `schema` describes it. */
  async function send<S extends v.GenericSchema>(
    what: string,
    schema: S,
    call: () => APIPromise<unknown>,
    signal?: AbortSignal,
  ): Promise<v.InferOutput<S>> {
    const raw = await withRetries(settings.retry, async () => {
      let response: Response;
      try {
        response = await call().asResponse();
      } catch (error) {
        throw toAiError(error, what);
      }
      try {
        return await response.text();
      } catch (cause) {
        if (signal?.aborted) throw cause;
        throw new AiUnavailable(`${what}: the answer broke off`, { cause });
      }
    });
    return readBody(what, schema, raw);
  }

  return {
    async complete({ model, task, user, history, signal }) {
      const what = `${task.name} with ${model.model}`;
      const messages: ChatMessage[] = [
        { role: 'system', content: task.system },
        ...(history ?? []),
        { role: 'user', content: user },
      ];
      const response = await send(
        what,
        CompletionBody,
        () =>
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
        signal,
      );
      const choice = response.choices[0]!;
      const raw = choice.message.content ?? '';
      if (choice.message.refusal) {
        throw new AiBadAnswer(`${what}: the model refused`, choice.message.refusal);
      }
      if (choice.finish_reason === 'length') {
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
        const response = await send(
          what,
          EmbeddingsBody,
          () =>
            client.embeddings.create(
              { model: model.model, input, encoding_format: 'float' },
              { signal },
            ),
          signal,
        );
        const vectors = [...response.data].sort((a, b) => a.index - b.index);
        if (vectors.length !== input.length) {
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
      const response = await send(
        what,
        CompletionBody,
        () =>
          client.chat.completions.create(
            { model: model.model, messages: [{ role: 'system', content: system }, ...messages] },
            { signal },
          ),
        signal,
      );
      const message = response.choices[0]!.message.content;
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
