// The Remix build behind Express: each request handed to it as a Fetch API Request, and its
// Response written back. In place of @remix-run/express, which gives every request an
// AbortSignal of its own: making one, and the Request's copy that follows it, was a measurable
// share of a small request's CPU (docs/performance.md). Only a request with a body gets one: an
// action, such as an assessment's model call, stops when the visitor goes away; a read runs to
// its end, as it does on Lambda, where nothing tells the app that a viewer left.
import {
  createReadableStreamFromReadable,
  createRequestHandler,
  writeReadableStreamToWritable,
  type ServerBuild,
} from '@remix-run/node';
import type { Request as ExpressRequest, RequestHandler, Response } from 'express';

/**
 * The request as the app sees it: the URL from the Host header the edge checks let through, the
 * headers as the front door left them (a list the Request copies once, not a Headers to copy).
 */
export function remixRequest(req: ExpressRequest, res: Response): Request {
  const headers: [string, string][] = [];
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const one of value) headers.push([name, one]);
    else if (value) headers.push([name, value]);
  }
  const url = `${req.protocol}://${req.headers.host}${req.originalUrl}`;
  if (req.method === 'GET' || req.method === 'HEAD') {
    return new Request(url, { method: req.method, headers });
  }
  // Aborted when the connection closes before the answer is written whole.
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return new Request(url, {
    method: req.method,
    headers,
    body: createReadableStreamFromReadable(req),
    signal: controller.signal,
    duplex: 'half',
  } as RequestInit);
}

async function send(res: Response, answer: globalThis.Response): Promise<void> {
  res.statusMessage = answer.statusText;
  res.status(answer.status);
  for (const [name, value] of answer.headers.entries()) res.append(name, value);
  if (/text\/event-stream/i.test(answer.headers.get('Content-Type') ?? '')) res.flushHeaders();
  if (answer.body) await writeReadableStreamToWritable(answer.body, res);
  else res.end();
}

export function remixHandler(build: ServerBuild): RequestHandler {
  const handleRequest = createRequestHandler(build, 'production');
  return async (req, res, next) => {
    try {
      await send(res, await handleRequest(remixRequest(req, res)));
    } catch (error) {
      // Express does not await handlers: an error goes on to its error handler.
      next(error);
    }
  };
}
