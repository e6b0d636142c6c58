// A small fake of the OpenAI API on 127.0.0.1: chat completions (plain and strict json_schema)
// and embeddings, with OpenAI's JSON shapes and error bodies. Tests script failures (429 with
// retry-after, 500, a slow answer, malformed JSON, a 200 whose body is not a completion at all,
// a redirect), or put it in a failure mode that answers every request alike (a server that hangs,
// sends 5 MB, sends broken JSON, 429s or 500s), and drive the real `openai` client against it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeOpenAiRequest = { path: string; body: Record<string, unknown>; auth?: string };

/** What the fake does with one upcoming request instead of answering it normally. */
export type Scripted =
  | { status: number; retryAfter?: string; message?: string }
  | { delayMs: number }
  | { content: string; finishReason?: 'stop' | 'length' }
  /** A 200 with exactly this body (HTML, cut-off JSON, JSON of another shape); with `breakOff`
   * the connection closes before the length it declared has been sent. */
  | { body: string; contentType?: string; breakOff?: boolean }
  /** A redirect to `location` (absolute or relative), with the key's header recorded as usual. */
  | { redirect: string; status?: 301 | 302 | 303 | 307 | 308 };

/** How a broken model server answers every request while the mode is on. */
export const FAILURE_MODES = ['hang', 'huge', 'malformed', '429', '500'] as const;
export type FailureMode = (typeof FAILURE_MODES)[number];

/** The size of a 'huge' answer's content: past any item DynamoDB stores (400 KB). */
export const HUGE_ANSWER_BYTES = 5 * 1024 * 1024;

export type FakeOpenAi = {
  /** Base URL for the client's baseURL (includes /v1). */
  url: string;
  apiKey: string;
  requests: FakeOpenAiRequest[];
  /** Queues behaviours for the next requests, in order. */
  script(...steps: Scripted[]): void;
  /** Every request fails this way until it is set back to undefined (scripted steps wait). */
  mode: FailureMode | undefined;
  /** Answers structured requests; default: the smallest object its JSON schema allows. */
  answer: (body: Record<string, unknown>) => unknown;
  stop(): Promise<void>;
};

type Schema = {
  type?: string;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  items?: Schema;
};

/** The simplest value a JSON schema accepts: first enum value, 0, '', [] or an object of those. */
export function minimalValue(schema: Schema): unknown {
  if (schema.enum) return schema.enum[0];
  switch (schema.type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([key, value]) => [key, minimalValue(value)]),
      );
    case 'array':
      return [];
    case 'number':
    case 'integer':
      return 0;
    case 'boolean':
      return false;
    default:
      return '';
  }
}

const tokensOf = (text: string) => Math.ceil(text.length / 4);

function vectorOf(text: string): number[] {
  let seed = 7;
  for (const char of text) seed = (seed * 31 + char.charCodeAt(0)) % 1_000_003;
  return Array.from({ length: 8 }, (_, i) => ((seed * (i + 3)) % 1000) / 1000);
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
}

function send(res: ServerResponse, status: number, body: unknown, headers = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

const errorBody = (message: string, type: string) => ({
  error: { message, type, param: null, code: null },
});

function completion(body: Record<string, unknown>, content: string, finishReason = 'stop') {
  const prompt = JSON.stringify(body.messages ?? '');
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 1_800_000_000,
    model: body.model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, refusal: null },
        finish_reason: finishReason,
        logprobs: null,
      },
    ],
    usage: {
      prompt_tokens: tokensOf(prompt),
      completion_tokens: tokensOf(content),
      total_tokens: tokensOf(prompt) + tokensOf(content),
    },
  };
}

/** One request answered as a broken server would; 'hang' never answers (the client gives up). */
function fail(res: ServerResponse, mode: FailureMode, body: Record<string, unknown>) {
  switch (mode) {
    case 'hang':
      return;
    case 'huge':
      return send(
        res,
        200,
        completion(body, 'all work and no play '.repeat(HUGE_ANSWER_BYTES / 21)),
      );
    case 'malformed':
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end('{"id":"chatcmpl-1","choices":[{"in');
    case '429':
      return send(res, 429, errorBody('Rate limit reached', 'requests'), { 'retry-after': '1' });
    case '500':
      return send(res, 500, errorBody('The server had an error', 'server_error'));
  }
}

export async function startFakeOpenAi(apiKey = 'sk-fake-key'): Promise<FakeOpenAi> {
  const queue: Scripted[] = [];
  const fake: Omit<FakeOpenAi, 'url' | 'stop'> = {
    apiKey,
    requests: [],
    mode: undefined,
    script: (...steps) => queue.push(...steps),
    answer: (body) => {
      const format = body.response_format as { json_schema?: { schema?: Schema } } | undefined;
      return minimalValue(format?.json_schema?.schema ?? { type: 'object' });
    },
  };

  const server = createServer(async (req, res) => {
    const body = await readJson(req);
    const path = req.url ?? '/';
    fake.requests.push({ path, body, auth: req.headers.authorization });
    if (req.headers.authorization !== `Bearer ${apiKey}`) {
      return send(res, 401, errorBody('Incorrect API key provided', 'invalid_request_error'));
    }
    if (fake.mode) return fail(res, fake.mode, body);
    const step = queue.shift();
    if (step && 'delayMs' in step) await new Promise((r) => setTimeout(r, step.delayMs));
    if (res.destroyed) return;
    if (step && 'redirect' in step) {
      res.writeHead(step.status ?? 307, { location: step.redirect });
      return res.end();
    }
    if (step && 'status' in step) {
      const headers = step.retryAfter ? { 'retry-after': step.retryAfter } : {};
      return send(
        res,
        step.status,
        errorBody(step.message ?? 'Scripted failure', 'server_error'),
        headers,
      );
    }
    if (step && 'body' in step) {
      const body = Buffer.from(step.body);
      res.writeHead(200, {
        'content-type': step.contentType ?? 'application/json',
        'content-length': body.length + (step.breakOff ? 100 : 0),
      });
      if (step.breakOff) return res.write(body, () => res.destroy());
      return res.end(body);
    }
    if (path === '/v1/embeddings') {
      const input = (Array.isArray(body.input) ? body.input : [body.input]) as string[];
      return send(res, 200, {
        object: 'list',
        model: body.model,
        data: input.map((text, index) => ({
          object: 'embedding',
          index,
          embedding: vectorOf(text),
        })),
        usage: {
          prompt_tokens: tokensOf(input.join(' ')),
          total_tokens: tokensOf(input.join(' ')),
        },
      });
    }
    if (path === '/v1/chat/completions') {
      if (step && 'content' in step) {
        return send(res, 200, completion(body, step.content, step.finishReason));
      }
      const content = body.response_format
        ? JSON.stringify(fake.answer(body))
        : 'Tell me more about what you build.';
      return send(res, 200, completion(body, content));
    }
    send(res, 404, errorBody(`Unknown path ${path}`, 'invalid_request_error'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}/v1`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
