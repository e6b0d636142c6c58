// The JavaScript a page makes a browser load: every script response (entry, chunks, route
// modules, Remix's manifest) and every inline script, each sized as gzip would send it. Used by
// the page-weight journey (a budget) and by `npm run bench:page-weight` (the figures).
import { gzipSync } from 'node:zlib';
import type { Page } from '@playwright/test';

/** At most this much JavaScript (gzip) on a public page (issue 18, ADR 35). */
export const PUBLIC_PAGE_JS_BUDGET = 60_000;

export type PageScript = { source: string; bytes: number; gzip: number };
export type PageJavaScript = { scripts: PageScript[]; bytes: number; gzip: number };

const isJavaScript = (contentType: string | undefined) =>
  /\b(java|ecma)script\b/.test(contentType ?? '');

/** Opens `url` in `page`, waits until the network is quiet, and sizes the JavaScript it loaded. */
export async function javaScriptOf(page: Page, url: string): Promise<PageJavaScript> {
  const loaded: Promise<PageScript | undefined>[] = [];
  page.on('response', (response) => {
    if (!isJavaScript(response.headers()['content-type'])) return;
    loaded.push(
      response.body().then(
        (body) => ({ source: response.url(), bytes: body.length, gzip: gzipSync(body).length }),
        () => undefined,
      ),
    );
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  const inline = await page.$$eval('script:not([src])', (scripts) =>
    scripts.map((script) => script.textContent ?? ''),
  );
  const scripts = [
    ...(await Promise.all(loaded)).filter((script): script is PageScript => Boolean(script)),
    ...inline
      .filter((text) => text.trim() !== '')
      .map((text, index) => {
        const body = Buffer.from(text);
        return { source: `inline #${index + 1}`, bytes: body.length, gzip: gzipSync(body).length };
      }),
  ];
  return {
    scripts,
    bytes: scripts.reduce((sum, script) => sum + script.bytes, 0),
    gzip: scripts.reduce((sum, script) => sum + script.gzip, 0),
  };
}
