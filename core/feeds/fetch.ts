// Reads a feed over HTTP the way a polite crawler should: conditional GET, a deadline that covers
// the whole body, a size cap enforced while streaming, and redirects followed by hand so every hop
// is checked (scheme, loops, count, and the addresses it resolves to: see address-policy.ts).
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import { config } from '#core/config';
import { resolvePublic, type AllowList, type CheckedAddress } from './address-policy';
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
  /** Hosts, addresses, CIDR ranges and host:port origins that may be private; default FEED_FETCH_ALLOW. */
  allow?: AllowList;
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
  const allow = options.allow ?? config().FEED_FETCH_ALLOW;
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    return await follow(httpUrl(url, 'The feed URL'), options, {
      signal,
      maxBytes,
      maxRedirects,
      allow,
    });
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
  limits: { signal: AbortSignal; maxBytes: number; maxRedirects: number; allow: AllowList },
): Promise<FetchedFeed> {
  const headers: Record<string, string> = {
    'user-agent': USER_AGENT,
    accept: ACCEPT,
    'accept-encoding': 'gzip, deflate, br',
  };
  if (validators.etag) headers['if-none-match'] = validators.etag;
  if (validators.lastModified) headers['if-modified-since'] = validators.lastModified;
  const visited = new Set<string>();
  let current = start;
  for (;;) {
    visited.add(current.href);
    const addresses = await resolvePublic(current, limits.allow);
    const response = await get(current, addresses, headers, limits.signal);
    const status = response.statusCode ?? 0;
    if (REDIRECT_STATUSES.has(status)) {
      discard(response);
      current = nextHop(current, response.headers.location, status);
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
      discard(response);
      return { kind: 'not-modified' };
    }
    if (status < 200 || status > 299) {
      discard(response);
      throw new FeedError('feed.http_status', `Feed answered HTTP ${status}`);
    }
    const declared = Number(response.headers['content-length'] ?? 0);
    if (declared > limits.maxBytes) {
      discard(response);
      throw tooLarge(limits.maxBytes);
    }
    const bytes = await readCapped(decompressed(response), limits.maxBytes);
    const contentType = response.headers['content-type'];
    return {
      kind: 'ok',
      body: decode(bytes, contentType),
      etag: response.headers.etag,
      lastModified: response.headers['last-modified'],
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

/**
 * One GET, connected only to `addresses` (already checked): the lookup below hands them to the
 * socket instead of asking DNS again. TLS still verifies the certificate against the host name.
 */
function get(
  url: URL,
  addresses: CheckedAddress[],
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) return callback(null, addresses);
    const [first] = addresses;
    callback(null, first!.address, first!.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(url, { headers, lookup, signal, agent: false }, (response) => {
      // The deadline covers the body too: aborting ends the socket, and the read below throws.
      signal.addEventListener('abort', () => response.destroy(signal.reason as Error), {
        once: true,
      });
      resolve(response);
    });
    request.on('error', reject);
  });
}

/** The body as the server meant it; the size cap applies to what it inflates to. */
function decompressed(response: IncomingMessage): Readable {
  const inflate = {
    gzip: zlib.createGunzip,
    'x-gzip': zlib.createGunzip,
    deflate: zlib.createInflate,
    br: zlib.createBrotliDecompress,
  }[response.headers['content-encoding']?.trim().toLowerCase() ?? ''];
  if (!inflate) return response;
  // pipeline, not pipe: a socket error or the deadline must end the inflated stream too.
  return pipeline(response, inflate(), () => undefined);
}

function nextHop(from: URL, location: string | undefined, status: number): URL {
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

/** Releases a response we do not read, so its connection is closed. */
function discard(response: IncomingMessage): void {
  response.destroy();
}

const tooLarge = (maxBytes: number) =>
  new FeedError(
    'feed.too_large',
    `Feed is larger than ${Math.round((maxBytes / 1024 / 1024) * 10) / 10} MB`,
  );

/** The body, refused as soon as it grows past `maxBytes` (a missing or lying Content-Length). */
async function readCapped(body: Readable, maxBytes: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > maxBytes) {
      body.destroy();
      throw tooLarge(maxBytes);
    }
    chunks.push(chunk);
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
