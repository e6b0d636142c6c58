// JSON API plumbing: bounded body parsing, the caller's address, and errors as 4xx JSON.
import { isIPv4, isIPv6 } from 'node:net';
import { isVisibleError, VisibleError } from '#core/common';
import { logger } from '#core/logs';
import { NO_STORE } from './cache';
import { securityHeaders } from './security-headers.server';

export type ApiError = { error: { code: string; message: string } };

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      ...securityHeaders(),
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': NO_STORE,
      ...headers,
    },
  });
}

export function apiError(
  status: number,
  code: string,
  message: string,
  headers?: Record<string, string>,
) {
  return json({ error: { code, message } } satisfies ApiError, status, headers);
}

/** Runs an API handler; VisibleErrors become their 4xx, anything else a logged 500. */
export async function handleApi(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (isVisibleError(error)) {
      const retry: Record<string, string> = error.status === 429 ? { 'Retry-After': '60' } : {};
      return apiError(error.status, error.code, error.message, retry);
    }
    logger.error('API request failed', { error });
    return apiError(500, 'internal', 'Something went wrong on our side. Please try again.');
  }
}

/** Reads a body of at most `maxBytes` as text; a larger one is refused with a 413. */
export async function readBody(request: Request, maxBytes: number): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  const reader = request.body?.getReader();
  if (declared > maxBytes) {
    if (reader) discardRest(reader);
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      discardRest(reader);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** How much of a refused body is still read (and dropped) after its 413. */
const DISCARD_AT_MOST = 1024 * 1024;

/**
 * Reads what is left of a refused body and drops it, while the 413 goes out. Cancelling the body
 * instead destroys the local server's socket before the 413 is written (a client sending chunked
 * saw a reset), and leaving it unread leaves the next request of that keep-alive connection
 * stuck behind it. Past DISCARD_AT_MOST the rest is left, and the idle connection times out.
 */
function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>): void {
  void (async () => {
    let dropped = 0;
    try {
      while (dropped <= DISCARD_AT_MOST) {
        const { done, value } = await reader.read();
        if (done) return;
        dropped += value.byteLength;
      }
      reader.releaseLock();
    } catch {
      // The client went away: there is nothing left to drop.
    }
  })();
}

/** The body's media type, lower-cased and without parameters (media types are case-insensitive). */
export function mediaType(request: Request): string {
  return (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Reads a JSON object body of at most `maxBytes`, refusing anything else with a clear 4xx. */
export async function readJson(request: Request, maxBytes: number): Promise<unknown> {
  if (mediaType(request) !== 'application/json') {
    throw new VisibleError('request.unsupported_type', 'Send the body as application/json', 415);
  }
  const text = await readBody(request, maxBytes);
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new Error('not an object');
    return parsed;
  } catch {
    throw new VisibleError('request.bad_json', 'The body is not a valid JSON object', 400);
  }
}

const MAX_FORM_BYTES = 16 * 1024;

/**
 * A page action's form: POST, url-encoded, at most 16 KB (or `maxBytes`, for a form that carries
 * long text such as a prompt); anything else is a clear 4xx.
 */
export async function readForm(
  request: Request,
  { maxBytes = MAX_FORM_BYTES }: { maxBytes?: number } = {},
): Promise<URLSearchParams> {
  if (request.method !== 'POST') {
    throw new VisibleError('request.method_not_allowed', 'Send this form with POST', 405);
  }
  if (mediaType(request) !== 'application/x-www-form-urlencoded') {
    throw new VisibleError(
      'request.unsupported_type',
      'Send the form as application/x-www-form-urlencoded',
      415,
    );
  }
  return new URLSearchParams(await readBody(request, maxBytes));
}

function tooLarge() {
  return new VisibleError('request.too_large', 'The request body is too large', 413);
}

/**
 * The caller for rate limits, from the address the front door saw (a client cannot choose it).
 * An IPv6 host picks new addresses inside its /64 at will, so IPv6 callers count by their /64.
 */
export function clientIp(request: Request): string {
  // Set by the front door (stacks/front-door.ts) on AWS and locally, over anything a client sent.
  const viewer = request.headers.get('x-viewer-address')?.trim();
  // Only in-process tests call the app without the front door.
  const forwarded = request.headers.get('x-forwarded-for')?.split(',').at(-1)?.trim();
  return rateLimitClient(viewer || forwarded || '');
}

/**
 * An IPv4 address as is, an IPv6 address as its /64 network. Anything else (only in-process tests
 * reach the app without the front door's address) is kept, at most 64 characters.
 */
export function rateLimitClient(address: string): string {
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return address.slice(0, 64) || 'unknown';
  // IPv4-mapped IPv6 (::ffff:203.0.113.7) is that IPv4 address.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped && isIPv4(mapped)) return mapped;
  const [head = '', tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  const network = groups.slice(0, 4).map((group) => (parseInt(group, 16) || 0).toString(16));
  return `${network.join(':')}::/64`;
}

export function methodNotAllowed(allowed: string): Response {
  return apiError(405, 'request.method_not_allowed', `Method not allowed. Use ${allowed}.`, {
    Allow: allowed,
  });
}
