// The local web server: the Remix build behind Express with compression and long-lived assets.
// It stands in for CloudFront + Lambda, so it also sets X-Forwarded-For from the socket.
import type { Server } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequestHandler } from '@remix-run/express';
import type { ServerBuild } from '@remix-run/node';
import compression from 'compression';
import express from 'express';
import { frontDoor } from '../../stacks/front-door';

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
  // CloudFront's viewer-request function, run as it runs there (stacks/front-door.ts).
  app.use((req, res, next) => {
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([name, value]) => [
        name,
        { value: Array.isArray(value) ? value.join(', ') : (value ?? '') },
      ]),
    );
    const request = { method: req.method, headers };
    const refusal = frontDoor(request, req.socket.remoteAddress ?? 'unknown');
    if (refusal) {
      res.status(refusal.statusCode);
      for (const [name, { value }] of Object.entries(refusal.headers)) res.setHeader(name, value);
      res.send(refusal.body.data);
      return;
    }
    req.headers['x-viewer-address'] = request.headers['x-viewer-address']!.value;
    next();
  });
  app.use(createRequestHandler({ build, mode: 'production' }));
  return new Promise((resolve, reject) => {
    const server = app.listen(options.port, options.host ?? '127.0.0.1', () => resolve(server));
    server.on('error', reject);
  });
}
