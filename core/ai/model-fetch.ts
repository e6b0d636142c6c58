// The `fetch` the OpenAI client uses to reach a model server. A model's base URL is typed by an
// operator and its redirects are chosen by that server, so it follows the feeds' address policy:
// every hop's addresses are checked (loopback and private refused unless MODEL_FETCH_ALLOW names
// them), the connection goes to the checked address only, and the API key goes to the origin it
// was configured for, never to the origin a redirect names.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { FeedError, resolvePublic, type AllowList } from '#core/feeds';
import { AiNotConfigured } from './errors';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
export const MAX_MODEL_REDIRECTS = 5;
/** Headers that carry the key or the account: for the configured origin only. */
const CREDENTIAL_HEADERS = [
  'authorization',
  'api-key',
  'x-api-key',
  'openai-organization',
  'openai-project',
];

type CheckedAddress = Awaited<ReturnType<typeof resolvePublic>>[number];

export type ModelFetchOptions = {
  /** The origin the API key was configured for (the model's base URL's). */
  origin: string;
  /** MODEL_FETCH_ALLOW: private hosts, ranges and host:port origins the server may be at. */
  allow: AllowList;
};

export function modelFetch({ origin, allow }: ModelFetchOptions): typeof fetch {
  return async (input, init = {}) => {
    let url = new URL(input instanceof Request ? input.url : String(input));
    let method = (init.method ?? 'GET').toUpperCase();
    let body =
      init.body == null ? undefined : Buffer.from(await new Response(init.body).arrayBuffer());
    const headers = new Headers(init.headers);
    for (let hop = 0; ; hop++) {
      if (url.origin !== origin) for (const name of CREDENTIAL_HEADERS) headers.delete(name);
      const response = await send(
        url,
        await checked(url, allow),
        method,
        headers,
        body,
        init.signal,
      );
      const location = response.headers.get('location');
      if (!REDIRECT_STATUSES.has(response.status) || !location) return response;
      await response.body?.cancel();
      if (hop >= MAX_MODEL_REDIRECTS) {
        throw new AiNotConfigured(
          `The model server redirected more than ${MAX_MODEL_REDIRECTS} times (${url.host})`,
        );
      }
      url = nextHop(url, location);
      // As browsers do: a 303, or a 301/302 after a POST, asks for the new address with a GET.
      const asGet =
        response.status === 303 ||
        ((response.status === 301 || response.status === 302) && method === 'POST');
      if (asGet) {
        method = 'GET';
        body = undefined;
        headers.delete('content-type');
      }
    }
  };
}

/** The hop's checked addresses; a private one outside MODEL_FETCH_ALLOW is a configuration error. */
async function checked(url: URL, allow: AllowList): Promise<CheckedAddress[]> {
  try {
    return await resolvePublic(url, allow);
  } catch (error) {
    if (!(error instanceof FeedError)) throw error;
    const port = url.port || (url.protocol === 'https:' ? '443' : '80');
    throw new AiNotConfigured(
      `Refused: the model server ${url.hostname} is on a private or local network; ` +
        `MODEL_FETCH_ALLOW must name ${url.hostname}:${port} to reach it`,
      { cause: error },
    );
  }
}

function nextHop(from: URL, location: string): URL {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch (cause) {
    throw new AiNotConfigured(`The model server redirected to an invalid URL: ${location}`, {
      cause,
    });
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:') {
    throw new AiNotConfigured(`The model server redirected to a ${next.protocol} URL`);
  }
  return next;
}

/**
 * One request, connected only to `addresses` (already checked): the lookup hands them to the
 * socket instead of asking DNS again. TLS still verifies the certificate against the host name.
 */
function send(
  url: URL,
  addresses: CheckedAddress[],
  method: string,
  headers: Headers,
  body: Buffer | undefined,
  signal: AbortSignal | null | undefined,
): Promise<Response> {
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) return callback(null, addresses);
    const [first] = addresses;
    callback(null, first!.address, first!.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  const outgoing: Record<string, string> = Object.fromEntries(headers);
  if (body) outgoing['content-length'] = String(body.byteLength);
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      { method, headers: outgoing, lookup, signal: signal ?? undefined, agent: false },
      (response) => {
        const answered = new Headers();
        for (const [name, value] of Object.entries(response.headers)) {
          for (const one of [value ?? []].flat()) answered.append(name, one);
        }
        const status = response.statusCode ?? 0;
        const empty = status === 204 || status === 304 || method === 'HEAD';
        if (empty) response.resume();
        resolve(
          new Response(empty ? null : (Readable.toWeb(response) as ReadableStream<Uint8Array>), {
            status,
            statusText: response.statusMessage,
            headers: answered,
          }),
        );
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
