// Kept public pages over HTTP, through the local server and its compression() (npm test builds
// before the unit tests; run `npm run build` before running this alone).
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '#tests/integration/local-server';

let server: LocalServer;
beforeAll(async () => {
  server = await startLocalServer();
});
afterAll(() => server.stop());

type Answer = { status: number; headers: Record<string, string | undefined>; body: Buffer };

/** One request, its body as sent on the wire (node:http never decompresses). */
function get(path: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<Answer>((resolve, reject) => {
    const outgoing = request(`${server.origin}${path}`, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers as Record<string, string | undefined>,
          body: Buffer.concat(chunks),
        }),
      );
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

function decoded({ headers, body }: Answer): string {
  const coding = headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(body).toString('utf8');
  if (coding === 'gzip') return gunzipSync(body).toString('utf8');
  expect(coding).toBeUndefined();
  return body.toString('utf8');
}

const TOKEN = /<div hidden="" data-page-view-token="([^"]+)"><\/div>/;
/** A page-view token: its payload starts {"p":"page-view". */
const PAGE_VIEW_TOKEN = /eyJwIjoicGFnZS12aWV3[\w-]*\.[\w-]+/;
const nonce = (answer: Answer) =>
  /'nonce-([^']+)'/.exec(answer.headers['content-security-policy']!)?.[1];

describe('kept public pages', () => {
  it('answers a kept page in the coding asked for, each the same page with its own token', async () => {
    const first = await get('/', { 'accept-encoding': 'gzip' });
    expect(first.status).toBe(200);
    const answers = {
      br: await get('/', { 'accept-encoding': 'gzip, deflate, br' }),
      gzip: await get('/', { 'accept-encoding': 'gzip' }),
      identity: await get('/'),
      refused: await get('/', { 'accept-encoding': 'br;q=0, gzip;q=0' }),
    };
    const pages = Object.entries(answers).map(([name, answer]) => {
      expect(answer.status, name).toBe(200);
      expect(answer.headers.vary, name).toMatch(/Accept-Encoding/i);
      expect(answer.headers.etag, name).toMatch(/^W\/"/);
      expect(Number(answer.headers['content-length']), name).toBe(answer.body.length);
      expect(nonce(answer), name).toBe(nonce(answers.br));
      return decoded(answer);
    });
    expect(answers.br.headers['content-encoding']).toBe('br');
    expect(answers.gzip.headers['content-encoding']).toBe('gzip');
    // compression() left the page cache's bodies alone: each decodes once, to the whole page.
    const tokens = pages.map((html) => TOKEN.exec(html)?.[1]);
    expect(new Set(tokens).size).toBe(pages.length);
    expect(new Set(pages.map((html) => html.replace(TOKEN, ''))).size).toBe(1);
    expect(pages[0]).toContain('</body></html>');
    // Compressed once, the whole page: only the token and what follows it are stored as they are.
    expect(answers.br.body.length).toBeLessThan(answers.identity.body.length / 2);
    expect(answers.gzip.body.length).toBeLessThan(answers.identity.body.length / 2);
  });

  it('answers 304 with no body to a client that holds the copy, and HEAD with the headers of GET', async () => {
    await get('/about');
    const page = await get('/about', { 'accept-encoding': 'br' });
    expect(page.status).toBe(200);
    const etag = page.headers.etag!;
    expect(etag).toBeTruthy();

    const unchanged = await get('/about', { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(unchanged.status).toBe(304);
    expect(unchanged.body.length).toBe(0);
    expect(unchanged.headers.etag).toBe(etag);
    expect(unchanged.headers['content-encoding']).toBeUndefined();
    expect(nonce(unchanged)).toBe(nonce(page));
    const other = await get('/about', { 'accept-encoding': 'br', 'if-none-match': 'W/"other"' });
    expect(other.status).toBe(200);

    const head = await get('/about', { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    for (const name of ['etag', 'content-encoding', 'content-length', 'vary'])
      expect(head.headers[name], name).toBe(page.headers[name]);
  });

  it('answers 20 requests at once, rendered or from the copy, each whole with its own token', async () => {
    const path = '/privacy-policy';
    const codings = ['br', 'gzip', 'identity', 'gzip;q=0, br'];
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, n) => get(path, { 'accept-encoding': codings[n % 4]! })),
    );
    const pages = answers.map((answer) => {
      expect(answer.status).toBe(200);
      return decoded(answer);
    });
    for (const html of pages) expect(html).toContain('</html>');
    // A hydrated page carries its token in the root's data, escaped in a script's string.
    const tokens = pages.map((html) => PAGE_VIEW_TOKEN.exec(html)?.[0]);
    expect(tokens.every(Boolean)).toBe(true);
    expect(new Set(tokens).size).toBe(20);
  });

  it('keeps no page a CDN may not share: each answer is rendered anew', async () => {
    const path = '/subscribed-to-newsletter';
    const answers = [
      await get(path),
      await get(path),
      await get(path, { 'accept-encoding': 'br' }),
    ];
    for (const answer of answers) {
      expect(answer.headers['cache-control']).toMatch(/private|no-store/);
      expect(answer.headers.etag).toBeUndefined();
    }
    expect(new Set(answers.map(nonce)).size).toBe(3);
  });
});
