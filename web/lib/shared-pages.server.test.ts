import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import * as Analytics from '#core/analytics';
import {
  answerFromCopy,
  compressedCopy,
  isShareable,
  keepingBody,
  keepSharedPage,
  preferredCoding,
  sharedPage,
} from '#web/lib/shared-pages.server';
import { NO_STORE, PUBLIC_PAGE_CACHE } from '#web/lib/cache';

// Each compression the module runs, counted.
const compressions = vi.hoisted(() => ({ brotli: 0, deflate: 0 }));
vi.mock('node:zlib', async (importOriginal) => {
  const zlib = await importOriginal<typeof import('node:zlib')>();
  return {
    ...zlib,
    brotliCompressSync: (...args: Parameters<typeof zlib.brotliCompressSync>) => {
      compressions.brotli += 1;
      return zlib.brotliCompressSync(...args);
    },
    deflateRawSync: (...args: Parameters<typeof zlib.deflateRawSync>) => {
      compressions.deflate += 1;
      return zlib.deflateRawSync(...args);
    },
  };
});

const headers = (init: Record<string, string>) => new Headers(init);

/** A public document as the root renders it, its token in its last element. */
function renderedPage(pageView: string, cards = 40) {
  const card = (n: number) =>
    `<article class="card"><h2>Story ${n}</h2><p>${'Lending markets and their oracles. '.repeat(6)}</p></article>`;
  const html = `<!DOCTYPE html><html lang="en"><head><title>Cluefeed</title></head><body><main>${Array.from({ length: cards }, (_, n) => card(n)).join('')}</main><div hidden="" data-page-view-token="${pageView}"></div></body></html>`;
  return {
    nonce: 'n',
    status: 200,
    html: new Uint8Array(Buffer.from(html)),
    pageView,
    text: html,
  };
}

const request = (init: { acceptEncoding?: string; ifNoneMatch?: string; pageView?: string }) => ({
  acceptEncoding: init.acceptEncoding ?? null,
  ifNoneMatch: init.ifNoneMatch ?? null,
  pageView: init.pageView,
});

function decoded(body: Buffer, coding: string | undefined): string {
  if (coding === 'br') return brotliDecompressSync(body).toString('utf8');
  if (coding === 'gzip') return gunzipSync(body).toString('utf8');
  return body.toString('utf8');
}

describe('shared pages', () => {
  it('keeps only successful GETs a CDN may share, setting no cookie', () => {
    const shared = headers({ 'Cache-Control': PUBLIC_PAGE_CACHE });
    expect(isShareable('GET', 200, shared)).toBe(true);
    expect(isShareable('POST', 200, shared)).toBe(false);
    expect(isShareable('GET', 404, shared)).toBe(false);
    expect(isShareable('GET', 200, headers({ 'Cache-Control': 'private, no-store' }))).toBe(false);
    expect(isShareable('GET', 200, headers({ 'Cache-Control': NO_STORE }))).toBe(false);
    expect(
      isShareable('GET', 200, headers({ 'Cache-Control': PUBLIC_PAGE_CACHE, 'Set-Cookie': 'a=b' })),
    ).toBe(false);
  });

  it('hands back a kept page with its nonce for 30 seconds, then forgets it', () => {
    const html = new TextEncoder().encode('<html></html>');
    keepSharedPage('onShellReady http://x/a/one', { nonce: 'n1', status: 200, html }, 1_000);
    const kept = sharedPage('onShellReady http://x/a/one', 30_999);
    expect(kept?.nonce).toBe('n1');
    expect(answerFromCopy(kept!, request({})).body?.toString()).toBe('<html></html>');
    expect(sharedPage('onShellReady http://x/a/one', 31_000)).toBeUndefined();
    expect(sharedPage('onShellReady http://x/a/two', 1_000)).toBeUndefined();
  });

  it('passes a body through whole and keeps a copy of it', async () => {
    let kept = '';
    const body = new Blob(['<p>', 'hello', '</p>']).stream();
    const text = await new Response(
      keepingBody(body, (html) => (kept = new TextDecoder().decode(html))),
    ).text();
    expect(text).toBe('<p>hello</p>');
    expect(kept).toBe('<p>hello</p>');
  });

  it('compresses a kept copy once, brotli and gzip, however many requests it answers', () => {
    const rendered = Analytics.pageViewToken('http://localhost/');
    const before = { ...compressions };
    keepSharedPage('onShellReady http://x/once', renderedPage(rendered), 5_000);
    const page = sharedPage('onShellReady http://x/once', 5_000)!;
    for (let n = 0; n < 30; n++) {
      for (const acceptEncoding of ['br, gzip', 'gzip', 'identity']) {
        const pageView = Analytics.pageViewToken('http://localhost/');
        expect(answerFromCopy(page, request({ acceptEncoding, pageView })).status).toBe(200);
      }
    }
    expect(compressions.brotli - before.brotli).toBe(1);
    expect(compressions.deflate - before.deflate).toBe(1);
  });

  it("answers br, gzip or the bytes as they are by Accept-Encoding, each the same HTML with the request's token", () => {
    const rendered = Analytics.pageViewToken('http://localhost/?utm=spring');
    const page = renderedPage(rendered);
    const copy = { ...compressedCopy(page), expires: Infinity };
    const cases: [string | undefined, string | undefined][] = [
      ['gzip, deflate, br, zstd', 'br'],
      ['br;q=0, gzip', 'gzip'],
      ['gzip;q=0.5', 'gzip'],
      ['deflate', undefined],
      ['gzip;q=0, br;q=0', undefined],
      ['identity', undefined],
      [undefined, undefined],
    ];
    for (const [acceptEncoding, coding] of cases) {
      const fresh = Analytics.pageViewToken('http://localhost/?utm=spring');
      const answer = answerFromCopy(copy, request({ acceptEncoding, pageView: fresh }));
      expect(answer.headers['Content-Encoding'], String(acceptEncoding)).toBe(coding);
      expect(answer.headers['Content-Length']).toBe(String(answer.body!.length));
      expect(answer.headers.Vary).toBe('Accept-Encoding');
      expect(decoded(answer.body!, coding)).toBe(page.text.replace(rendered, fresh));
      // Compressed once, the copy is small: only the token and what follows it are stored.
      if (coding) expect(answer.body!.length).toBeLessThan(page.html.length / 5);
    }
  });

  it('decodes whole when what follows the token is larger than one stored block', () => {
    const rendered = Analytics.pageViewToken('http://localhost/about');
    const html = `<html><body><script>"pageView","${rendered}"</script><script>${'x'.repeat(150_000)}</script></body></html>`;
    const copy = {
      ...compressedCopy({ nonce: 'n', status: 200, html: Buffer.from(html), pageView: rendered }),
      expires: Infinity,
    };
    const fresh = Analytics.pageViewToken('http://localhost/about');
    for (const acceptEncoding of ['br', 'gzip']) {
      const answer = answerFromCopy(copy, request({ acceptEncoding, pageView: fresh }));
      expect(decoded(answer.body!, acceptEncoding)).toBe(html.replace(rendered, fresh));
    }
  });

  it("serves each copy with its own request's page-view token, in the head and the root's data", () => {
    const rendered = Analytics.pageViewToken('http://localhost/?utm=spring');
    const fresh = Analytics.pageViewToken('http://localhost/?utm=spring');
    const html = Buffer.from(
      `<div hidden="" data-page-view-token="${rendered}"></div><script>"pageView","${rendered}"</script>`,
    );
    const copy = {
      ...compressedCopy({ nonce: 'n', status: 200, html, pageView: rendered }),
      expires: 0,
    };
    for (const acceptEncoding of ['br', 'gzip', 'identity']) {
      const served = decoded(
        answerFromCopy(copy, request({ acceptEncoding, pageView: fresh })).body!,
        acceptEncoding === 'identity' ? undefined : acceptEncoding,
      );
      expect(served).not.toContain(rendered);
      expect(served.split(fresh)).toHaveLength(3);
    }
    // A page without a token (an admin page, a refusal) is served as kept.
    const plain = { ...compressedCopy({ nonce: 'n', status: 200, html }), expires: 0 };
    expect(answerFromCopy(plain, request({ pageView: fresh })).body).toEqual(html);
  });

  it('answers 304 without a body to a client that holds the copy, whatever its token', () => {
    const first = compressedCopy(renderedPage(Analytics.pageViewToken('http://localhost/')));
    const again = compressedCopy(renderedPage(Analytics.pageViewToken('http://localhost/')));
    const other = compressedCopy(renderedPage(Analytics.pageViewToken('http://localhost/'), 39));
    expect(again.etag).toBe(first.etag);
    expect(other.etag).not.toBe(first.etag);
    const copy = { ...first, expires: Infinity };
    for (const ifNoneMatch of [first.etag, `"x", ${first.etag}`, first.etag.slice(2), '*']) {
      const answer = answerFromCopy(copy, request({ acceptEncoding: 'br', ifNoneMatch }));
      expect(answer.status, ifNoneMatch).toBe(304);
      expect(answer.body).toBeUndefined();
      expect(answer.headers).toEqual({ Vary: 'Accept-Encoding', ETag: first.etag });
    }
    const changed = answerFromCopy(
      copy,
      request({ acceptEncoding: 'br', ifNoneMatch: other.etag }),
    );
    expect([changed.status, changed.headers.ETag]).toEqual([200, first.etag]);
  });

  it('prefers brotli, then gzip, and takes q=0 as a refusal', () => {
    expect(preferredCoding('BR')).toBe('br');
    expect(preferredCoding('*')).toBe('br');
    expect(preferredCoding('*, br;q=0')).toBe('gzip');
    expect(preferredCoding('x-gzip')).toBe('gzip');
    expect(preferredCoding('gzip;q=0.001')).toBe('gzip');
    expect(preferredCoding('gzip;q=0.000')).toBe('identity');
    expect(preferredCoding('')).toBe('identity');
    expect(preferredCoding(null)).toBe('identity');
  });
});
