// The local web server: the Remix build behind Express with compression and long-lived assets.
// It stands in for CloudFront + Lambda, so it also sets X-Forwarded-For from the socket.
import type { Server } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequestHandler } from '@remix-run/express';
import type { ServerBuild } from '@remix-run/node';
import compression from 'compression';
import express from 'express';

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
  app.use(compression());
  app.use(
    '/assets',
    express.static(join(options.buildDir, 'client', 'assets'), {
      immutable: true,
      maxAge: '1y',
      index: false,
    }),
  );
  // Covers, avatars and icons are not content-hashed: a week, then revalidated.
  app.use(
    express.static(join(options.buildDir, 'client'), {
      maxAge: '7d',
      index: false,
      redirect: false,
    }),
  );
  app.use((req, _res, next) => {
    req.headers['x-forwarded-for'] = req.socket.remoteAddress ?? 'unknown';
    next();
  });
  app.use(createRequestHandler({ build, mode: 'production' }));
  return new Promise((resolve, reject) => {
    const server = app.listen(options.port, options.host ?? '127.0.0.1', () => resolve(server));
    server.on('error', reject);
  });
}
