// A public document: a page rendered on the server that loads one small script
// (web/browser/public-page.ts) instead of React and the Remix runtime (ADR 35). Its route exports
// `handle` and `clientLoader` from here; the root renders the script in place of <Scripts />.
import { useMatches } from '@remix-run/react';

export const handle = { document: 'public' } as const;

/** The paths of the public documents: home, an audience, a post, a content card. */
export function isPublicDocument(pathname: string): boolean {
  return pathname === '/' || /^\/(a|p|cc)\/[^/]+\/?$/.test(pathname);
}

/** Whether a link's `to` names a public document, so the browser should load it whole. */
export function linksToPublicDocument(to: string): boolean {
  const path = to.split(/[?#]/)[0] ?? '';
  return path.startsWith('/') && isPublicDocument(path);
}

/**
 * Reached from a hydrated page by a route change the links did not catch (a redirect after an
 * action), the page loads as a document, so its script runs and React never renders it in the
 * browser. The root does not revalidate for it (`shouldRevalidate`), so no request is cut short.
 */
export function clientLoader({ request }: { request: Request }): Promise<never> {
  window.location.assign(request.url);
  return new Promise<never>(() => undefined);
}

/** Whether the page being rendered is a public document. */
export function useIsPublicDocument(): boolean {
  return useMatches().some(
    (match) => (match.handle as { document?: string } | undefined)?.document === 'public',
  );
}
