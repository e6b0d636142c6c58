// The local web server (scripts/local/server.ts) over the real build, for tests that must see what
// a client sees: what CloudFront refuses itself, the front door, Express and Remix's own request
// handling. `npm test` builds before the unit tests; run `npm run build` before running one alone.
import { request, type Agent, type IncomingHttpHeaders, type Server } from 'node:http';
import { join } from 'node:path';
import { vi } from 'vitest';
import { freePort } from '#scripts/local/net';
import { startWebServer } from '#scripts/local/server';

export type LocalServer = {
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  /** The Host a browser sends for it, e.g. 127.0.0.1:41234. */
  host: string;
  stop(): void;
};

export async function startLocalServer(): Promise<LocalServer> {
  const port = await freePort();
  const server: Server = await startWebServer({
    buildDir: join(import.meta.dirname, '..', '..', 'build'),
    port,
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    stop: () => {
      server.close();
      server.closeAllConnections();
    },
  };
}

export type RawAnswer = {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** Whether the request went on a connection an earlier request had used (keep-alive). */
  reusedSocket: boolean;
};

/**
 * A request as any client may send it: any method (fetch refuses TRACE), any Host. A `body` of
 * several pieces is sent chunked, without a Content-Length, as each piece is written; all of it
 * is sent, as a browser would, even when the answer comes first. `agent` keeps connections open
 * between requests (keep-alive), as browsers do.
 */
export function send(
  server: LocalServer,
  options: {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer[];
    agent?: Agent;
  } = {},
): Promise<RawAnswer> {
  const { method = 'GET', path = '/', headers = {}, body, agent } = options;
  return new Promise((resolve, reject) => {
    const outgoing = request(
      `${server.origin}${path}`,
      {
        method,
        headers,
        agent,
        setHost: !Object.keys(headers).some((name) => /^host$/i.test(name)),
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            reusedSocket: outgoing.reusedSocket,
          }),
        );
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    if (Array.isArray(body)) {
      const pieces = [...body];
      const writeNext = () => {
        while (pieces.length > 0) {
          if (!outgoing.write(pieces.shift())) return void outgoing.once('drain', writeNext);
        }
        outgoing.end();
      };
      writeNext();
    } else {
      outgoing.end(body);
    }
  });
}

/**
 * The log lines (JSON on stdout) written while `run` ran, and what went to console.error; a line
 * that is not JSON counts as an error line.
 */
export async function logsDuring(run: () => Promise<unknown>) {
  const lines: { level: string; message: string }[] = [];
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    for (const line of String(chunk).split('\n').filter(Boolean)) {
      try {
        lines.push(JSON.parse(line) as { level: string; message: string });
      } catch {
        lines.push({ level: 'error', message: line });
      }
    }
    return true;
  });
  const consoleErrors = vi.spyOn(console, 'error').mockImplementation(() => {});
  try {
    await run();
    return { lines, consoleErrors: consoleErrors.mock.calls };
  } finally {
    stdout.mockRestore();
    consoleErrors.mockRestore();
  }
}
