// The OpenAI adapter: chat completions with strict JSON-schema answers, embeddings and plain chat,
// through the official client. It speaks to OpenAI or to any OpenAI-compatible server (Ollama,
// vLLM, LM Studio) at a base URL. The client's own retries are off: ours (retry.ts) honour
// retry-after, map every failure to an AiError, and can be made instant in tests.
// A 200 is read as text and checked against the shape we use before anything touches it: a server
// that answers HTML, cut-off JSON or JSON without choices is an AiBadAnswer like a refusal, never
// a TypeError (the client would hand us whatever the body parsed to), and a body past the call's
// size limit is refused while it streams in. Requests go through modelFetch (the address policy).
// A call made inside a web request names its budget: every attempt and every wait fits in it.
import OpenAI from 'openai';
import type { APIPromise } from 'openai/core/api-promise';
import * as v from 'valibot';
import { config } from '#core/config';
import type { AllowList } from '#core/feeds';
import { readAnswer } from './answer';
import {
  AiBadAnswer,
  AiError,
  AiRateLimited,
  AiRejected,
  AiTimeout,
  AiUnavailable,
} from './errors';
import { modelFetch } from './model-fetch';
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
  /** Private addresses the server may be at; default MODEL_FETCH_ALLOW. */
  allow?: AllowList;
};

/** Inputs per embeddings request (OpenAI accepts up to 2,048; servers like Ollama want fewer). */
const EMBED_BATCH = 128;

/**
 * The largest body read from the server. A chat reply or a structured answer is a few kilobytes;
 * a batch of embeddings (128 vectors of up to 3,072 numbers as JSON text) about 9 MB.
 */
export const MAX_ANSWER_BYTES = { completion: 1024 * 1024, embeddings: 16 * 1024 * 1024 };

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
  // The client wraps whatever our fetch throws, the address policy's refusal included.
  if (error instanceof OpenAI.APIConnectionError && error.cause instanceof AiError) {
    return error.cause;
  }
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

/** The body as text, refused once it grows past `maxBytes` (whatever Content-Length claims). */
async function textOf(response: Response, maxBytes: number, what: string): Promise<string> {
  const tooLarge = () =>
    new AiBadAnswer(`${what}: the answer is larger than ${Math.round(maxBytes / 1024)} KB`, '');
  if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
    await response.body?.cancel();
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  for (let read = await reader?.read(); read && !read.done; read = await reader!.read()) {
    size += read.value.byteLength;
    if (size > maxBytes) {
      await reader!.cancel();
      throw tooLarge();
    }
    chunks.push(read.value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** What one attempt is given: the caller's signal joined with the budget's, and its time. */
type Attempt = { signal?: AbortSignal; timeout: number };

/** An operation's limits: the caller's signal, and the budget it started with (if any). */
type Limits = {
  signal?: AbortSignal;
  budget?: { ms: number; signal: AbortSignal; deadline: { at: number; now: () => number } };
};

function limitsOf({ signal, budgetMs }: { signal?: AbortSignal; budgetMs?: number }): Limits {
  if (budgetMs === undefined) return { signal };
  const now = () => Date.now();
  const deadline = { at: now() + budgetMs, now };
  return { signal, budget: { ms: budgetMs, signal: AbortSignal.timeout(budgetMs), deadline } };
}

export function openAiProvider(settings: OpenAiSettings): Ai {
  const baseURL = settings.baseUrl ?? 'https://api.openai.com/v1';
  const client = new OpenAI({
    apiKey: settings.apiKey,
    baseURL,
    timeout: settings.timeoutMs,
    maxRetries: 0,
    fetch: modelFetch({
      origin: new URL(baseURL).origin,
      allow: settings.allow ?? config().MODEL_FETCH_ALLOW,
    }),
  });

  /**
   * Sends a request (with our retries, within `budgetMs` when given) and answers its 200's body
   * as `schema` describes it. A spent budget is an AiTimeout; the caller's own abort passes.
   */
  async function send<S extends v.GenericSchema>(
    what: string,
    schema: S,
    maxBytes: number,
    call: (attempt: Attempt) => APIPromise<unknown>,
    { signal, budget }: Limits,
  ): Promise<v.InferOutput<S>> {
    const joined = [signal, budget?.signal].filter((one) => one !== undefined);
    const attempt = (): Attempt => ({
      signal: joined.length > 0 ? AbortSignal.any(joined) : undefined,
      timeout: budget
        ? Math.max(1, Math.min(settings.timeoutMs, Math.ceil(budget.deadline.at - Date.now())))
        : settings.timeoutMs,
    });
    const spent = (cause: unknown) =>
      new AiTimeout(`${what}: no answer within ${budget?.ms} ms`, { cause });
    const raw = await withRetries(
      settings.retry,
      async () => {
        let response: Response;
        const thisAttempt = attempt();
        try {
          response = await call(thisAttempt).asResponse();
        } catch (error) {
          if (signal?.aborted) throw toAiError(error, what);
          if (budget?.signal.aborted) throw spent(error);
          // The attempt's own timer, cut to the budget's remainder, can fire before the budget's.
          const cutToBudget = budget !== undefined && thisAttempt.timeout < settings.timeoutMs;
          if (cutToBudget && error instanceof OpenAI.APIConnectionTimeoutError) throw spent(error);
          throw toAiError(error, what);
        }
        try {
          return await textOf(response, maxBytes, what);
        } catch (cause) {
          if (cause instanceof AiError || signal?.aborted) throw cause;
          if (budget?.signal.aborted) throw spent(cause);
          throw new AiUnavailable(`${what}: the answer broke off`, { cause });
        }
      },
      budget?.deadline,
    );
    return readBody(what, schema, raw);
  }

  return {
    async complete({ model, task, user, history, signal, budgetMs }) {
      const what = `${task.name} with ${model.model}`;
      const messages: ChatMessage[] = [
        { role: 'system', content: task.system },
        ...(history ?? []),
        { role: 'user', content: user },
      ];
      const response = await send(
        what,
        CompletionBody,
        MAX_ANSWER_BYTES.completion,
        (attempt) =>
          client.chat.completions.create(
            {
              model: model.model,
              messages,
              response_format: {
                type: 'json_schema',
                json_schema: { name: task.schemaName, strict: true, schema: task.jsonSchema },
              },
            },
            attempt,
          ),
        limitsOf({ signal, budgetMs }),
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

    async embed({ model, texts, signal, budgetMs }) {
      const what = `embeddings with ${model.model}`;
      const result: Embeddings = { vectors: [], usage: usageOf(model, 0, 0), model };
      const limits = limitsOf({ signal, budgetMs });
      for (let start = 0; start < texts.length; start += EMBED_BATCH) {
        const input = texts.slice(start, start + EMBED_BATCH);
        const response = await send(
          what,
          EmbeddingsBody,
          MAX_ANSWER_BYTES.embeddings,
          (attempt) =>
            client.embeddings.create(
              { model: model.model, input, encoding_format: 'float' },
              attempt,
            ),
          limits,
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

    async chat({ model, system, messages, signal, budgetMs }) {
      const what = `chat with ${model.model}`;
      const response = await send(
        what,
        CompletionBody,
        MAX_ANSWER_BYTES.completion,
        (attempt) =>
          client.chat.completions.create(
            { model: model.model, messages: [{ role: 'system', content: system }, ...messages] },
            attempt,
          ),
        limitsOf({ signal, budgetMs }),
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
