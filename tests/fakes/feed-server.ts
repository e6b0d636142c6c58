// Feeds on 127.0.0.1 for tests, the benchmark and the local runtime: the fixture files (with strong
// ETags, Last-Modified and 304s, as a well-behaved publisher), feeds made up in memory, and routes
// that misbehave on purpose (slow, huge, redirecting, failing).
import { createHash, randomBytes } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve as resolvePath, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURE_FEEDS_DIR = fileURLToPath(new URL('../fixtures/feeds', import.meta.url));

export type FeedRoute = (req: IncomingMessage, res: ServerResponse) => void;

export type FeedServer = {
  /** http://127.0.0.1:{port} */
  origin: string;
  /** The absolute URL of a path on this server. */
  url(path: string): string;
  /** Serves `body` at `path` from memory (validators and 304s included); replaces any earlier one. */
  put(path: string, body: string, contentType?: string): string;
  /** Makes up `count` RSS feeds of `itemsPerFeed` items, unique to this call; returns their URLs. */
  addGenerated(count: number, itemsPerFeed: number): string[];
  /** Requests received for a path (query string ignored). */
  hits(path: string): number;
  stop(): Promise<void>;
};

type Document = { body: Buffer; contentType: string; etag: string; lastModified: string };

/** Past the 5 MB cap of fetchFeed, so a streamed body is refused before it ends. */
const HUGE_BYTES = 8 * 1024 * 1024;

function contentTypeOf(path: string, body: Buffer): string {
  if (extname(path) === '.json') return 'application/feed+json; charset=utf-8';
  const head = body.subarray(0, 1_000).toString('utf8');
  return head.includes('<feed')
    ? 'application/atom+xml; charset=utf-8'
    : 'application/rss+xml; charset=utf-8';
}

function documentOf(body: Buffer, contentType: string, modified: Date): Document {
  return {
    body,
    contentType,
    etag: `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`,
    lastModified: modified.toUTCString(),
  };
}

/** Answers 304 when the request's validators match, as RFC 9110 orders them. */
function isNotModified(req: IncomingMessage, document: Document): boolean {
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch) {
    return ifNoneMatch
      .split(',')
      .map((tag) => tag.trim())
      .some((tag) => tag === '*' || tag === document.etag);
  }
  const since = Date.parse(req.headers['if-modified-since'] ?? '');
  return !Number.isNaN(since) && Date.parse(document.lastModified) <= since;
}

function serve(req: IncomingMessage, res: ServerResponse, document: Document) {
  const headers = { etag: document.etag, 'last-modified': document.lastModified };
  if (isNotModified(req, document)) {
    res.writeHead(304, headers).end();
    return;
  }
  res
    .writeHead(200, {
      ...headers,
      'content-type': document.contentType,
      'content-length': document.body.length,
    })
    .end(document.body);
}

function generatedFeed(batch: string, feed: number, items: number): string {
  const entries = Array.from({ length: items }, (_, i) => {
    const published = new Date(Date.UTC(2026, 10, 20, 12) - (feed * items + i) * 60_000);
    const slug = `${batch}-${feed}-${i}`;
    return `    <item>
      <title>Synthetic story ${slug}: validators, rollups and fees</title>
      <link>https://generated.example/${batch}/feed-${feed}/story-${i}?utm_source=rss</link>
      <guid isPermaLink="false">${slug}</guid>
      <pubDate>${published.toUTCString()}</pubDate>
      <description><![CDATA[<p>Story ${slug} reports on block space, fees and the people who run the network. It is long enough to have a summary worth trimming, and unique so that no fingerprint repeats.</p><p>Second paragraph of ${slug}.</p>]]></description>
    </item>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0">
  <channel>
    <title>Generated feed ${batch}-${feed}</title>
    <link>https://generated.example/${batch}/feed-${feed}</link>
    <description>A synthetic feed.</description>
${entries.join('\n')}
  </channel>
</rss>
`;
}

/** Starts the server; `port` fixed for the local runtime, whose stored stream URLs must not move. */
export async function startFeedServer(
  options: { dir?: string; port?: number; routes?: Record<string, FeedRoute> } = {},
): Promise<FeedServer> {
  const dir = resolvePath(options.dir ?? FIXTURE_FEEDS_DIR);
  const memory = new Map<string, Document>();
  const counts = new Map<string, number>();
  let origin = '';

  async function fromDisk(path: string): Promise<Document | undefined> {
    const file = normalize(join(dir, decodeURIComponent(path)));
    if (!file.startsWith(dir + sep)) return undefined;
    try {
      const [body, info] = await Promise.all([readFile(file), stat(file)]);
      return documentOf(body, contentTypeOf(file, body), info.mtime);
    } catch {
      return undefined;
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const { pathname } = new URL(req.url ?? '/', 'http://localhost');
    counts.set(pathname, (counts.get(pathname) ?? 0) + 1);
    const route = options.routes?.[pathname];
    if (route) return route(req, res);
    if (pathname === '/slow') return; // Never answers; the client's deadline has to end it.
    if (pathname === '/slow-body') {
      res.writeHead(200, { 'content-type': 'application/rss+xml' });
      res.write('<?xml version="1.0"?><rss version="2.0"><channel>');
      return; // Headers and a start, then nothing.
    }
    if (pathname === '/loop') {
      res.writeHead(302, { location: '/loop' }).end();
      return;
    }
    const redirect = /^\/redirect\/(.+)$/.exec(pathname);
    if (redirect) {
      res.writeHead(302, { location: `/${redirect[1]}` }).end();
      return;
    }
    const status = /^\/status\/(\d{3})$/.exec(pathname);
    if (status) {
      res.writeHead(Number(status[1]), { 'content-type': 'text/plain' }).end(`Status ${status[1]}`);
      return;
    }
    if (pathname === '/huge') {
      res.writeHead(200, { 'content-type': 'application/rss+xml' });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      let sent = 0;
      const pump = () => {
        while (sent < HUGE_BYTES && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      return pump();
    }
    const document = memory.get(pathname) ?? (await fromDisk(pathname));
    if (!document) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    serve(req, res, document);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const url = (path: string) => new URL(path, origin).href;
  const put = (path: string, body: string, contentType?: string) => {
    const buffer = Buffer.from(body);
    memory.set(path, documentOf(buffer, contentType ?? contentTypeOf(path, buffer), new Date()));
    return url(path);
  };

  return {
    origin,
    url,
    put,
    addGenerated(count, itemsPerFeed) {
      const batch = randomBytes(6).toString('hex');
      return Array.from({ length: count }, (_, feed) =>
        put(`/generated/${batch}/feed-${feed}.xml`, generatedFeed(batch, feed, itemsPerFeed)),
      );
    },
    hits: (path) => counts.get(path) ?? 0,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Ends the deliberately hanging responses and idle keep-alive sockets.
        server.closeAllConnections();
      }),
  };
}
