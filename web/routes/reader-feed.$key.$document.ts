// GET /reader-feed/{key}/feed.xml | feed.json | subscriptions.opml: a reader's private feed for
// reader apps (ADR 0061). The key in the path is the only credential; log lines never carry it
// (entry.server redacts the path). `?rating=` picks ratings as on /feed. Answers conditional GETs;
// a URL asked for too often gets a 429 with Retry-After.
import type { LoaderFunctionArgs } from '@remix-run/node';
import type { RelevanceLabel } from '#core/ai';
import { isVisibleError } from '#core/common';
import { config } from '#core/config';
import * as ReaderFeeds from '#core/reader-feeds';
import { readOnly, storingLogs } from '#web/lib/resource-route.server';
import { securityHeaders } from '#web/lib/security-headers.server';

const DOCUMENTS: Record<string, ReaderFeeds.Format> = {
  'feed.xml': 'rss',
  'feed.json': 'json',
  'subscriptions.opml': 'opml',
};

export const NOT_FOUND_MESSAGE =
  'This feed address does not work (it may have been rotated or turned off). Get the new one from your account page.';

const text = (status: number, message: string, more: Record<string, string> = {}) =>
  new Response(message, {
    status,
    headers: {
      ...securityHeaders(),
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'no-store',
      ...more,
    },
  });

export const loader = storingLogs(async function loader({ request, params }: LoaderFunctionArgs) {
  const format = DOCUMENTS[params.document ?? ''];
  if (!format) return text(404, NOT_FOUND_MESSAGE);
  const url = new URL(request.url);
  try {
    const served = await ReaderFeeds.serve({
      key: params.key ?? '',
      format,
      // Checked by the core operation: an unknown rating is a 400 naming the ratings there are.
      ratings: url.searchParams.getAll('rating') as RelevanceLabel[],
      ifNoneMatch: request.headers.get('If-None-Match') ?? undefined,
      ifModifiedSince: request.headers.get('If-Modified-Since') ?? undefined,
      origin: config().PUBLIC_URL,
    });
    if (served.status === 404) return text(404, NOT_FOUND_MESSAGE);
    if (served.status === 429) return text(429, served.body, served.headers);
    const headers = { ...securityHeaders(), ...served.headers };
    return new Response(served.status === 200 ? served.body : null, {
      status: served.status,
      headers,
    });
  } catch (error) {
    if (!isVisibleError(error)) throw error;
    return text(error.status, error.message);
  }
});

export const action = readOnly();
