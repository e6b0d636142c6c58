// Cache-Control for public pages: a CDN may keep them briefly and serve stale while refreshing.
import type { HeadersFunction } from '@remix-run/node';

export const PUBLIC_PAGE_CACHE = 'public, max-age=0, s-maxage=300, stale-while-revalidate=86400';
export const NOT_FOUND_CACHE = 'public, max-age=0, s-maxage=60, stale-while-revalidate=600';
export const NO_STORE = 'no-store';

export const publicPageHeaders: HeadersFunction = ({ loaderHeaders, errorHeaders }) => ({
  'Cache-Control':
    errorHeaders?.get('Cache-Control') ?? loaderHeaders.get('Cache-Control') ?? PUBLIC_PAGE_CACHE,
});

/** The 404 a loader throws for a missing audience, post or card. */
export function notFound(): Response {
  return new Response('Not found', { status: 404, headers: { 'Cache-Control': NOT_FOUND_CACHE } });
}

/** Pages that carry a subscriber's token: never stored by a browser or a CDN. */
export const privatePageHeaders: HeadersFunction = () => ({ 'Cache-Control': 'private, no-store' });
