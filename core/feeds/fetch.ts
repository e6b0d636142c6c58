// Reads a feed over HTTP the way a polite crawler should: conditional GET, a deadline that covers
// the whole body, a size cap enforced while streaming, and redirects followed by hand so every hop
// is checked (scheme, loops, count).
import { FeedError } from './errors';

export const USER_AGENT = 'CluefeedBot/1.0 (+https://cluefeed.xyz)';

const ACCEPT = [
  'application/rss+xml',
  'application/atom+xml',
  'application/feed+json',
  'application/json;q=0.9',
  'application/xml;q=0.9',
  'text/xml;q=0.9',
  '*/*;q=0.8',
].join(', ');

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export type FetchFeedOptions = {
  /** Validators from the previous successful fetch. */
  etag?: string;
  lastModified?: string;
  /** Deadline for the whole exchange: every hop's headers and the body. */
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
};

export type FetchedFeed =
  | { kind: 'not-modified' }
  | {
      kind: 'ok';
      body: string;
      etag?: string;
      lastModified?: string;
      /** Where the feed was read after redirects; relative links resolve against it. */
      finalUrl: string;
      contentType?: string;
    };

export async function fetchFeed(url: string, options: FetchFeedOptions = {}): Promise<FetchedFeed> {
  const { timeoutMs = 10_000, maxBytes = 5 * 1024 * 1024, maxRedirects = 5 } = options;
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    return await follow(httpUrl(url, 'The feed URL'), options, { signal, maxBytes, maxRedirects });
  } catch (error) {
    if (error instanceof FeedError) throw error;
    if (signal.aborted) {
      throw new FeedError('feed.timeout', `Feed did not answer within ${timeoutMs / 1000} s`, {
        cause: error,
      });
    }
    throw new FeedError('feed.unreachable', `Could not reach the feed: ${reason(error)}`, {
      cause: error,
    });
  }
}

async function follow(
  start: URL,
  validators: Pick<FetchFeedOptions, 'etag' | 'lastModified'>,
  limits: { signal: AbortSignal; maxBytes: number; maxRedirects: number },
): Promise<FetchedFeed> {
  const headers: Record<string, string> = { 'user-agent': USER_AGENT, accept: ACCEPT };
  if (validators.etag) headers['if-none-match'] = validators.etag;
  if (validators.lastModified) headers['if-modified-since'] = validators.lastModified;
  const visited = new Set<string>();
  let current = start;
  for (;;) {
    visited.add(current.href);
    const response = await fetch(current, { headers, redirect: 'manual', signal: limits.signal });
    const { status } = response;
    if (REDIRECT_STATUSES.has(status)) {
      await discard(response);
      current = nextHop(current, response.headers.get('location'), status);
      if (visited.has(current.href)) {
        throw new FeedError(
          'feed.too_many_redirects',
          `Feed redirects in a loop (${current.href})`,
        );
      }
      if (visited.size > limits.maxRedirects) {
        throw new FeedError(
          'feed.too_many_redirects',
          `Feed redirected more than ${limits.maxRedirects} times`,
        );
      }
      continue;
    }
    if (status === 304) {
      await discard(response);
      return { kind: 'not-modified' };
    }
    if (!response.ok) {
      await discard(response);
      throw new FeedError('feed.http_status', `Feed answered HTTP ${status}`);
    }
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (declared > limits.maxBytes) {
      await discard(response);
      throw tooLarge(limits.maxBytes);
    }
    const bytes = await readCapped(response, limits.maxBytes);
    const contentType = response.headers.get('content-type') ?? undefined;
    return {
      kind: 'ok',
      body: decode(bytes, contentType),
      etag: response.headers.get('etag') ?? undefined,
      lastModified: response.headers.get('last-modified') ?? undefined,
      finalUrl: current.href,
      contentType,
    };
  }
}

function httpUrl(value: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch (error) {
    throw new FeedError('feed.unsupported', `${what} is not a valid URL: ${value}`, {
      cause: error,
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FeedError(
      'feed.unsupported',
      `${what} must use http or https, not ${url.protocol.replace(':', '')}`,
    );
  }
  return url;
}

function nextHop(from: URL, location: string | null, status: number): URL {
  if (!location) {
    throw new FeedError('feed.http_status', `Feed answered HTTP ${status} without a Location`);
  }
  let target: string;
  try {
    target = new URL(location, from).href;
  } catch (error) {
    throw new FeedError('feed.http_status', `Feed redirected to an invalid URL: ${location}`, {
      cause: error,
    });
  }
  return httpUrl(target, 'The feed redirect');
}

/** Releases a response we do not read, so its connection can be reused or closed. */
async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}

const tooLarge = (maxBytes: number) =>
  new FeedError(
    'feed.too_large',
    `Feed is larger than ${Math.round((maxBytes / 1024 / 1024) * 10) / 10} MB`,
  );

/** The body, refused as soon as it grows past `maxBytes` (a missing or lying Content-Length). */
async function readCapped(response: Response, maxBytes: number): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** Text in the charset the server names, else the XML declaration's, else UTF-8. */
function decode(bytes: Uint8Array, contentType: string | undefined): string {
  const declared =
    /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? '')?.[1] ??
    /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([\w.:-]+)["']/.exec(
      Buffer.from(bytes.subarray(0, 200)).toString('latin1'),
    )?.[1];
  try {
    return new TextDecoder(declared ?? 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

/** The lowest-level message: undici wraps the socket error ("connect ECONNREFUSED ...") in a cause. */
function reason(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error && cause.message) return cause.message;
  return error instanceof Error ? error.message : String(error);
}
