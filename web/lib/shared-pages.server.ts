// Rendered public pages, kept briefly in the server's memory. A page a CDN may share between
// visitors (Cache-Control `public` with `s-maxage`) is the same document for everyone, so it is
// rendered once per 30 seconds instead of once per request; React rendering is most of what such
// a request costs. The copy keeps the CSP nonce it was rendered with, exactly as a CDN copy does,
// but never its page-view token: each response served from it carries its own request's (ADR 0048).
//
// A copy is also kept compressed, brotli and gzip, each computed once when it is kept, and a
// request is answered in the coding it asks for, or 304 when it already holds the copy (ADR 0055).
// Only the bytes up to the copy's first page-view token are compressed: the token and the few
// hundred bytes after it (a public document ends with its token) are sent stored, in a block each
// coding defines for bytes as they are, so each request's own token costs no compression. On AWS
// CloudFront keeps its own copies, compressed and revalidated there; these serve what reaches the
// app (ADR 0055, "What runs where").
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, crc32, deflateRawSync } from 'node:zlib';

const TTL_MS = 30_000;
const MAX_PAGES = 200;
/**
 * Brotli's quality for a copy: 5 took about 1 ms for the 12 KB audience page here and came within
 * 1% of 6-9; 11 saved 12% more but took 20-50 ms (docs/performance.md, "Kept copies compressed").
 */
const BROTLI_QUALITY = 5;

export type Coding = 'br' | 'gzip' | 'identity';

export type SharedPage = {
  nonce: string;
  status: number;
  /** The copy's HTML up to its first page-view token (all of it when it has none). */
  head: Buffer;
  /** The rest, from that token on, as rendered. */
  tail: string;
  /** The page-view token rendered into the copy (in a public document's last element). */
  pageView?: string;
  /** `head` compressed once: a brotli stream and a raw deflate one, each left open. */
  brotliHead: Buffer;
  deflateHead: Buffer;
  /** The CRC-32 of `head`, which gzip's trailer continues over the tail. */
  headCrc: number;
  /** Names the copy, tokens aside: a client that holds it is answered 304. */
  etag: string;
  expires: number;
};

/** The copy as rendered: its HTML and the token in it. */
export type RenderedPage = {
  nonce: string;
  status: number;
  html: Uint8Array;
  pageView?: string;
};

const pages = new Map<string, SharedPage>();

/** Whether a response may be kept: a successful GET a CDN may share, setting no cookie. */
export function isShareable(method: string, status: number, headers: Headers): boolean {
  const cacheControl = headers.get('Cache-Control') ?? '';
  return (
    method === 'GET' &&
    status === 200 &&
    /(^|,)\s*public\s*(,|$)/.test(cacheControl) &&
    /s-maxage=\d+/.test(cacheControl) &&
    !headers.has('Set-Cookie')
  );
}

export function sharedPage(key: string, now = Date.now()): SharedPage | undefined {
  const page = pages.get(key);
  if (page && page.expires > now) return page;
  if (page) pages.delete(key);
  return undefined;
}

export function keepSharedPage(key: string, rendered: RenderedPage, now = Date.now()) {
  if (pages.size >= MAX_PAGES) pages.delete(pages.keys().next().value!);
  pages.set(key, { ...compressedCopy(rendered), expires: now + TTL_MS });
}

/** Splits the copy at its first token and compresses what comes before it, once. */
export function compressedCopy({ nonce, status, html, pageView }: RenderedPage) {
  const bytes = Buffer.from(html.buffer, html.byteOffset, html.byteLength);
  const at = pageView ? bytes.indexOf(pageView) : -1;
  const head = at < 0 ? bytes : bytes.subarray(0, at);
  const tail = at < 0 ? '' : bytes.subarray(at).toString('utf8');
  const brotliHead = brotliCompressSync(head, {
    finishFlush: constants.BROTLI_OPERATION_FLUSH,
    params: {
      [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: head.length,
    },
  });
  const deflateHead = deflateRawSync(head, {
    level: constants.Z_BEST_COMPRESSION,
    finishFlush: constants.Z_SYNC_FLUSH,
  });
  const digest = createHash('sha256').update(head);
  digest.update(pageView ? tail.replaceAll(pageView, '') : tail);
  const etag = `W/"${digest.digest('base64url').slice(0, 27)}"`;
  return {
    nonce,
    status,
    head,
    tail,
    pageView,
    brotliHead,
    deflateHead,
    headCrc: crc32(head),
    etag,
  };
}

/** What one request is answered from a copy: a status, headers to add, and a body (none for 304). */
export type Answer = {
  status: number;
  headers: Record<string, string>;
  body?: Buffer<ArrayBuffer>;
};

/**
 * The answer to one request from a copy, with that request's page-view token in place of the one
 * it was rendered with (a token is counted once: shared, it would count one visitor of many).
 */
export function answerFromCopy(
  page: SharedPage,
  request: { acceptEncoding: string | null; ifNoneMatch: string | null; pageView?: string },
): Answer {
  // Every answer may differ by Accept-Encoding, so a cache keeps one per coding.
  const headers: Record<string, string> = { Vary: 'Accept-Encoding', ETag: page.etag };
  if (matches(request.ifNoneMatch, page.etag)) return { status: 304, headers };
  const tail = Buffer.from(
    page.pageView && request.pageView
      ? page.tail.replaceAll(page.pageView, request.pageView)
      : page.tail,
  );
  const coding = preferredCoding(request.acceptEncoding);
  const body =
    coding === 'br'
      ? Buffer.concat([page.brotliHead, ...storedMetaBlocks(tail), BROTLI_LAST_EMPTY])
      : coding === 'gzip'
        ? Buffer.concat([
            GZIP_HEADER,
            page.deflateHead,
            ...storedBlocks(tail),
            gzipTrailer(crc32(tail, page.headCrc), page.head.length + tail.length),
          ])
        : Buffer.concat([page.head, tail]);
  if (coding !== 'identity') headers['Content-Encoding'] = coding;
  headers['Content-Length'] = String(body.length);
  return { status: page.status, headers, body };
}

/** Whether `If-None-Match` names the copy (weak comparison, as RFC 9110 asks for this header). */
function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}

/** Brotli if the client takes it, then gzip, else the bytes as they are. */
export function preferredCoding(acceptEncoding: string | null): Coding {
  const weights = new Map<string, number>();
  for (const entry of (acceptEncoding ?? '').split(',')) {
    const [name = '', ...params] = entry.split(';').map((part) => part.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    if (name) weights.set(name, Number.isNaN(weight) ? 0 : weight);
  }
  const takes = (coding: string) => (weights.get(coding) ?? weights.get('*') ?? 0) > 0;
  if (takes('br')) return 'br';
  if (takes('gzip') || takes('x-gzip')) return 'gzip';
  return 'identity';
}

// The framing around the compressed head: RFC 1952 (gzip), RFC 1951 (deflate), RFC 7932 (brotli).

/** gzip's member header: deflate, no name or time, unknown OS. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255]);
/** The largest stored block of deflate, and the size of each of brotli's here. */
const STORED_MAX = 65_535;

/** The tail as deflate stored blocks, the last one final (an empty one when there is no tail). */
function storedBlocks(bytes: Buffer): Buffer[] {
  const blocks: Buffer[] = [];
  for (let at = 0; at === 0 || at < bytes.length; at += STORED_MAX) {
    const chunk = bytes.subarray(at, at + STORED_MAX);
    const header = Buffer.alloc(5);
    header[0] = at + STORED_MAX >= bytes.length ? 1 : 0; // BFINAL, BTYPE 00 (stored)
    header.writeUInt16LE(chunk.length, 1);
    header.writeUInt16LE(~chunk.length & 0xffff, 3);
    blocks.push(header, chunk);
  }
  return blocks;
}

function gzipTrailer(crc: number, size: number): Buffer {
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size >>> 0, 4);
  return trailer;
}

/**
 * The tail as brotli uncompressed meta-blocks. Each header: ISLAST 0, MNIBBLES 0 (4 nibbles),
 * MLEN - 1 in 16 bits, ISUNCOMPRESSED 1; 20 bits, padded to 3 bytes.
 */
function storedMetaBlocks(bytes: Buffer): Buffer[] {
  const blocks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += STORED_MAX) {
    const chunk = bytes.subarray(at, at + STORED_MAX);
    const bits = ((chunk.length - 1) << 3) | (1 << 19);
    blocks.push(Buffer.from([bits & 0xff, (bits >> 8) & 0xff, bits >> 16]), chunk);
  }
  return blocks;
}

/** The last meta-block, empty: ISLAST 1, ISLASTEMPTY 1. */
const BROTLI_LAST_EMPTY = Buffer.from([3]);

/** Passes `body` through and hands the whole of it to `keep` once it has ended. */
export function keepingBody(
  body: ReadableStream<Uint8Array>,
  keep: (html: Uint8Array<ArrayBuffer>) => void,
): ReadableStream<Uint8Array> {
  const chunks: Uint8Array[] = [];
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        chunks.push(chunk);
        controller.enqueue(chunk);
      },
      flush: () => keep(new Uint8Array(Buffer.concat(chunks))),
    }),
  );
}
