// Rendered public pages, kept briefly in the server's memory. A page a CDN may share between
// visitors (Cache-Control `public` with `s-maxage`) is the same document for everyone, so it is
// rendered once per 30 seconds instead of once per request; React rendering is most of what such
// a request costs. The copy keeps the CSP nonce it was rendered with, exactly as a CDN copy does,
// but never its page-view token: each response served from it carries its own request's (ADR 0048).
const TTL_MS = 30_000;
const MAX_PAGES = 200;

export type SharedPage = {
  nonce: string;
  status: number;
  html: Uint8Array<ArrayBuffer>;
  /** The page-view token rendered into `html` (in the head and in the root's data). */
  pageView?: string;
  expires: number;
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

export function keepSharedPage(key: string, page: Omit<SharedPage, 'expires'>, now = Date.now()) {
  if (pages.size >= MAX_PAGES) pages.delete(pages.keys().next().value!);
  pages.set(key, { ...page, expires: now + TTL_MS });
}

/**
 * The copy's HTML for one more response, with that request's page-view token in place of the one
 * it was rendered with (a token is counted once: shared, it would count one visitor of many).
 */
export function copyFor(page: SharedPage, pageView: string | undefined): Uint8Array<ArrayBuffer> {
  if (!page.pageView || !pageView) return page.html;
  const html = Buffer.from(page.html).toString('utf8').replaceAll(page.pageView, pageView);
  return new Uint8Array(Buffer.from(html));
}

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
