// Server rendering: bots get the whole document, browsers a stream; every response carries the
// security headers and a fresh CSP nonce for Remix's inline scripts. A response's body ends only
// after the request's log lines are stored: on Lambda the process may freeze once it is sent.
import { PassThrough } from 'node:stream';
import { randomBytes } from 'node:crypto';
import type {
  AppLoadContext,
  EntryContext,
  HandleDataRequestFunction,
  HandleErrorFunction,
} from '@remix-run/node';
import { createReadableStreamFromReadable } from '@remix-run/node';
import { isRouteErrorResponse, RemixServer } from '@remix-run/react';
import { isbot } from 'isbot';
import { flush, logger } from '#core/logs';
import * as ReaderFeeds from '#core/reader-feeds';
// Registers every job, so a request can queue one by name (a reader's scoring; ADR 0057).
import '#core/worker';
import { renderToPipeableStream } from 'react-dom/server';
import { DocumentProvider } from './lib/nonce';
import { securityHeaders } from './lib/security-headers.server';
import {
  answerFromCopy,
  isShareable,
  keepingBody,
  keepSharedPage,
  sharedPage,
} from './lib/shared-pages.server';

const ABORT_DELAY = 5_000;
export const streamTimeout = ABORT_DELAY;

/** The local web process stores what is still buffered before it stops (scripts/local/web-process.ts). */
export const flushLogs = flush;

/** A stream that passes `body` through and, before it ends, stores the buffered log lines. */
function storingLogsAtEnd(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  return body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({ flush: () => flush() }));
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  const readyEvent = isbot(request.headers.get('user-agent') ?? '') ? 'onAllReady' : 'onShellReady';
  const shareable = isShareable(request.method, responseStatusCode, responseHeaders);
  const key = `${readyEvent} ${request.url}`;
  // A HEAD gets the headers of the GET it stands for, so it is answered from the same copy.
  const servable =
    shareable ||
    (request.method === 'HEAD' && isShareable('GET', responseStatusCode, responseHeaders));
  const kept = servable ? sharedPage(key) : undefined;
  const nonce = kept?.nonce ?? randomBytes(16).toString('base64');
  // This request's page-view token, which the root loader made for it (web/root.tsx).
  const pageView = (
    remixContext.staticHandlerContext.loaderData.root as { pageView?: string } | undefined
  )?.pageView;
  const externalImages = remixContext.staticHandlerContext.matches.some(
    (match) =>
      (
        remixContext.routeModules[match.route.id]?.handle as
          { externalImages?: boolean } | undefined
      )?.externalImages === true,
  );
  for (const [name, value] of Object.entries(securityHeaders(nonce, { externalImages })))
    responseHeaders.set(name, value);
  if (responseStatusCode === 405) responseHeaders.set('Allow', allowedMethods(remixContext));
  if (kept) {
    const answer = answerFromCopy(kept, {
      acceptEncoding: request.headers.get('Accept-Encoding'),
      ifNoneMatch: request.headers.get('If-None-Match'),
      pageView,
    });
    responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
    for (const [name, value] of Object.entries(answer.headers)) responseHeaders.set(name, value);
    return flush().then(
      () => new Response(answer.body ?? null, { headers: responseHeaders, status: answer.status }),
    );
  }

  return new Promise<Response>((resolve, reject) => {
    let failed = false;
    // A page is kept only once it rendered whole and without an error.
    const keepIfShareable = (body: ReadableStream<Uint8Array>) =>
      shareable
        ? keepingBody(body, (html) => {
            if (!failed) keepSharedPage(key, { nonce, status: responseStatusCode, html, pageView });
          })
        : body;
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <DocumentProvider value={{ nonce }}>
        <RemixServer
          context={remixContext}
          url={request.url}
          abortDelay={ABORT_DELAY}
          nonce={nonce}
        />
      </DocumentProvider>,
      {
        nonce,
        [readyEvent]() {
          shellRendered = true;
          const body = new PassThrough();
          responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
          resolve(
            new Response(
              storingLogsAtEnd(keepIfShareable(createReadableStreamFromReadable(body))),
              {
                headers: responseHeaders,
                status: responseStatusCode,
              },
            ),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          failed = true;
          responseStatusCode = 500;
          if (shellRendered)
            logger.error('Rendering failed', { url: withoutTokens(request.url), error });
        },
      },
    );
    setTimeout(abort, ABORT_DELAY + 1_000);
  });
}

/** What the page a 405 refused takes: it is read, and posted to only if it has an action. */
function allowedMethods(remixContext: EntryContext): string {
  const leaf = remixContext.staticHandlerContext.matches.at(-1)?.route.id;
  const module = leaf ? (remixContext.routeModules[leaf] as { action?: unknown }) : undefined;
  return module?.action ? 'GET, HEAD, POST' : 'GET, HEAD';
}

export const handleDataRequest: HandleDataRequestFunction = async (response) => {
  for (const [name, value] of Object.entries(securityHeaders())) response.headers.set(name, value);
  if (!response.body) {
    await flush();
    return response;
  }
  const { status, statusText, headers } = response;
  return new Response(storingLogsAtEnd(response.body), { status, statusText, headers });
};

/** Log lines never carry a subscriber's token, a private feed's key or a vote link's signature. */
function withoutTokens(url: string): string {
  const parsed = new URL(url);
  for (const secret of ['subscriberHash', 'signature']) {
    if (parsed.searchParams.has(secret)) parsed.searchParams.set(secret, '[redacted]');
  }
  parsed.pathname = ReaderFeeds.redactedKeys(parsed.pathname);
  return parsed.toString();
}

/**
 * Remix's notice, on every `?_data=` request, that the client speaks the data protocol this app
 * left for single fetch: a stale tab or a prober asked for it, nothing failed on our side.
 */
const DATA_PROTOCOL_NOTICE = 'Warning: Single fetch-enabled apps should not be making ?_data';

/**
 * Unexpected errors of loaders, actions and rendering reach the server log as errors (aborted
 * requests do not). A request Remix itself refused with a 4xx (no such route, a method the route
 * does not take, an old client's `?_data=`) is the client's doing, logged at info (the notice
 * about the old protocol itself at debug).
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  const fields = { method: request.method, url: withoutTokens(request.url) };
  if (isRouteErrorResponse(error) && error.status < 500) {
    // Remix's own refusals quote the path they refused: the same redaction applies.
    const reason =
      typeof error.data === 'string' ? ReaderFeeds.redactedKeys(error.data) : error.data;
    logger.info('Request refused', { ...fields, status: error.status, reason });
  } else if (error instanceof Error && error.message.startsWith(DATA_PROTOCOL_NOTICE)) {
    logger.debug('Request in the old data protocol', fields);
  } else {
    logger.error('Request failed', { ...fields, error });
  }
};
