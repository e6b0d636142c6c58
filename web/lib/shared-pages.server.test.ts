import { describe, expect, it } from 'vitest';
import * as Analytics from '#core/analytics';
import {
  copyFor,
  isShareable,
  keepingBody,
  keepSharedPage,
  sharedPage,
} from '#web/lib/shared-pages.server';
import { NO_STORE, PUBLIC_PAGE_CACHE } from '#web/lib/cache';

const headers = (init: Record<string, string>) => new Headers(init);

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
    expect(sharedPage('onShellReady http://x/a/one', 30_999)).toMatchObject({ nonce: 'n1', html });
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

  it("serves each copy with its own request's page-view token, in the head and the root's data", () => {
    const rendered = Analytics.pageViewToken('http://localhost/?utm=spring');
    const fresh = Analytics.pageViewToken('http://localhost/?utm=spring');
    const html = new Uint8Array(
      Buffer.from(
        `<meta name="page-view-token" content="${rendered}"/><script>"pageView","${rendered}"</script>`,
      ),
    );
    const page = { nonce: 'n', status: 200, html, pageView: rendered, expires: 0 };
    const served = Buffer.from(copyFor(page, fresh)).toString();
    expect(served).not.toContain(rendered);
    expect(served.split(fresh)).toHaveLength(3);
    // A page without a token (an admin page, a refusal) is served as kept.
    expect(copyFor({ ...page, pageView: undefined }, fresh)).toBe(html);
  });
});
