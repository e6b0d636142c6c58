// The local web server: the Remix build behind Express with compression and long-lived assets.
// It stands in for CloudFront + Lambda: it refuses what CloudFront refuses before any code of ours
// runs, then runs the front door (stacks/front-door.ts) on every request as CloudFront does.
import { readdirSync, statSync } from 'node:fs';
import type { Server } from 'node:http';
import { join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServerBuild } from '@remix-run/node';
import compression from 'compression';
import express, { type Response } from 'express';
import { frontDoor, type FrontDoorRefusal } from '../../stacks/front-door';
import { remixHandler } from './remix-handler';

/** How long an idle keep-alive connection stays open. */
export const KEEP_ALIVE_MS = 65_000;

/** The methods CloudFront passes to the app (the Router's allowed methods); it refuses others. */
const FORWARDED_METHODS = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'];

function refusal(statusCode: number, message: string, headers: Record<string, string> = {}) {
  return {
    statusCode,
    headers: Object.fromEntries(
      Object.entries({
        'content-type': 'text/plain; charset=utf-8',
        'cache-control': 'no-store',
        ...headers,
      }).map(([name, value]) => [name, { value }]),
    ),
    body: { encoding: 'text', data: message },
  } satisfies FrontDoorRefusal;
}

/**
 * A Host a URL parser keeps as it is (case and the default port aside): no user, path, port out
 * of range or unusual spelling of an address, so the app can build its URL from it.
 */
function isHost(host: string): boolean {
  try {
    return new URL(`http://${host}`).host === host.toLowerCase().replace(/:80$/, '');
  } catch {
    return false;
  }
}

/**
 * What CloudFront answers itself before its viewer-request function runs: a method it does not
 * forward, a Host that is not one of its names (here: not a host at all), and a request target
 * that is not a path (`GET http://evil.example/`, `GET *`), which CloudFront never hands to the
 * app. Without this the request reached Remix, which cannot build a Request from it (it appends
 * the target to the Host), and Express answered a bare 500.
 */
function edgeRefusal(
  method: string,
  host: string | undefined,
  target: string,
): FrontDoorRefusal | undefined {
  if (!FORWARDED_METHODS.includes(method)) {
    return refusal(405, `This site does not answer ${method} requests.`, {
      allow: FORWARDED_METHODS.join(', '),
    });
  }
  if (!host || !isHost(host)) return refusal(400, 'The Host header does not name a host.');
  if (!target.startsWith('/')) return refusal(400, 'The request target must be a path.');
  return undefined;
}

function send(res: Response, { statusCode, headers, body }: FrontDoorRefusal) {
  res.status(statusCode);
  for (const [name, { value }] of Object.entries(headers)) res.setHeader(name, value);
  res.send(body.data);
}

/** The URL paths of the files in the client build outside assets/ (`/favicon.svg`, ...). */
function listPublicFiles(clientDir: string): Set<string> {
  const paths = readdirSync(clientDir, { recursive: true, encoding: 'utf8' })
    .map((name) => name.split(sep).join('/'))
    .filter((name) => !name.startsWith('assets/') && statSync(join(clientDir, name)).isFile());
  return new Set(paths.map((name) => `/${name}`));
}

export async function startWebServer(options: {
  buildDir: string;
  port: number;
  host?: string;
}): Promise<Server> {
  const build = (await import(
    pathToFileURL(join(options.buildDir, 'server', 'index.js')).href
  )) as ServerBuild;
  const app = express();
  app.disable('x-powered-by');
  // Compresses each answer as it is sent, as CloudFront does on AWS. A kept public page comes
  // already encoded (Content-Encoding), compressed once per copy, and is left alone (ADR 0055).
  app.use(compression());
  // What CloudFront refuses itself, before anything else.
  app.use((req, res, next) => {
    const refused = edgeRefusal(req.method, req.headers.host, req.originalUrl);
    if (refused) return send(res, refused);
    next();
  });
  app.use(
    '/assets',
    express.static(join(options.buildDir, 'client', 'assets'), {
      immutable: true,
      maxAge: '1y',
      index: false,
    }),
  );
  // Covers, avatars and icons are not content-hashed: a week, then revalidated. Only the files the
  // build holds, listed once: a page request does not look on disk first (on AWS these files
  // are in S3 and never reach the app).
  const clientDir = join(options.buildDir, 'client');
  const publicFiles = listPublicFiles(clientDir);
  const servePublicFile = express.static(clientDir, {
    maxAge: '7d',
    index: false,
    redirect: false,
  });
  app.use((req, res, next) => {
    if (!publicFiles.has(req.path)) return next();
    servePublicFile(req, res, next);
  });
  // CloudFront's viewer-request function, run as it runs there (stacks/front-door.ts); the app
  // gets the request with the headers it set or removed.
  app.use((req, res, next) => {
    const sent = Object.fromEntries(
      Object.entries(req.headers).map(([name, value]) => [
        name,
        Array.isArray(value) ? value.join(', ') : (value ?? ''),
      ]),
    );
    const headers = Object.fromEntries(
      Object.entries(sent).map(([name, value]) => [name, { value }]),
    );
    const request = { method: req.method, headers };
    const refusal = frontDoor(request, req.socket.remoteAddress ?? 'unknown');
    if (refusal) return send(res, refusal);
    for (const name of Object.keys(sent)) if (!(name in headers)) delete req.headers[name];
    for (const [name, { value }] of Object.entries(headers)) {
      if (sent[name] !== value) req.headers[name] = value;
    }
    next();
  });
  app.use(remixHandler(build));
  return new Promise((resolve, reject) => {
    const server = app.listen(options.port, options.host ?? '127.0.0.1', () => resolve(server));
    // Node closes an idle keep-alive connection after 5 s, so a client that pauses longer and
    // reuses it meets a reset ('socket hang up'); 65 s leaves room for pauses of up to a minute,
    // with the headers' timer above it as Node requires.
    server.keepAliveTimeout = KEEP_ALIVE_MS;
    server.headersTimeout = KEEP_ALIVE_MS + 1_000;
    server.on('error', reject);
  });
}
