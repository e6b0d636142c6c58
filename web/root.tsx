// The document shell: header with the featured-audience menu, the page, and first-party page views
// (each page served carries its page-view token). A public document gets the small public-page
// script instead of React and the Remix runtime, and its token in a meta element at its end.
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import type { ShouldRevalidateFunction } from '@remix-run/react';
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from '@remix-run/react';
import type { ReactNode } from 'react';
import * as Analytics from '#core/analytics';
import * as Audiences from '#core/audiences';
import { publicConfig } from '#core/config';
import { SiteHeader } from './components/site-header';
import { SiteFooter } from './components/site-footer';
import { NotFoundPage } from './components/not-found-page';
import { PageViews } from './components/page-views';
import { PAGE_VIEW_ATTRIBUTE } from './browser/page-view';
import { useNonce } from './lib/nonce';
import appStylesheet from './styles/app.css?url';
import publicStylesheet from './styles/public.css?url';
import { publicPageHeaders } from './lib/cache';
import { cachedRead } from './lib/public-cache.server';
import { isPublicDocument, useIsPublicDocument } from './lib/public-document';
// Bundled by Vite on its own (the worker pipeline is its way to build a separate entry and
// name its URL); loaded as a classic deferred script.
import publicPageScript from './browser/public-page.ts?worker&url';

export const links: LinksFunction = () => [
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

export const meta: MetaFunction = ({ error }) => [
  {
    title:
      isRouteErrorResponse(error) && error.status === 404
        ? 'Page not found · Cluefeed'
        : isRouteErrorResponse(error) && error.status === 400
          ? 'Bad request · Cluefeed'
          : isRouteErrorResponse(error) && error.status === 405
            ? 'Method not allowed · Cluefeed'
            : 'Cluefeed',
  },
  { name: 'description', content: 'Personalised web3 news, picked and explained for you.' },
];

export const headers = publicPageHeaders;

/** A path with a broken percent-encoding (/a/%E0%A4%A) names no page: the client's mistake. */
function isMalformedPath(url: string): boolean {
  try {
    decodeURIComponent(new URL(url).pathname);
    return false;
  } catch {
    return true;
  }
}

export async function loader({ request }: LoaderFunctionArgs) {
  if (isMalformedPath(request.url)) throw new Response('Bad request', { status: 400 });
  const featured = await cachedRead('featured-audiences', async () =>
    (await Audiences.featured()).map(({ title, slug }) => ({ title, slug })),
  );
  return { featured, pageView: Analytics.pageViewToken(request.url), ...publicConfig() };
}

export type RootData = Awaited<ReturnType<typeof loader>>;

/**
 * Leaving for a public document unloads the app: its data would be fetched for nothing. Any other
 * new path gets its own page-view token.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({
  currentUrl,
  nextUrl,
  defaultShouldRevalidate,
}) =>
  !isPublicDocument(nextUrl.pathname) &&
  (defaultShouldRevalidate || currentUrl.pathname !== nextUrl.pathname);

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const publicDocument = useIsPublicDocument();
  const pageView = useRouteLoaderData<RootData>('root')?.pageView;
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#ffffff" />
        <Meta />
        {/* One stylesheet a page, a fingerprinted file cached for a year (not inlined: it was 90% of
            the home page). A public document takes only the public pages' rules: its first style
            pass is what Lighthouse counts as blocking time. A public document is never rendered by
            the app's router, so the app's pages always have theirs. */}
        <link rel="stylesheet" href={publicDocument ? publicStylesheet : appStylesheet} />
        <Links />
        {publicDocument && <script defer src={publicPageScript} nonce={nonce} />}
      </head>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        {children}
        {/* A public document loads its one script (in the head) instead of the app (ADR 35). */}
        {!publicDocument && <ScrollRestoration nonce={nonce} />}
        {!publicDocument && <Scripts nonce={nonce} />}
        {/* Last, so a kept copy compresses everything before it once (ADR 0055); the deferred
            script reads it after parsing. */}
        {publicDocument && pageView && <div hidden {...{ [PAGE_VIEW_ATTRIBUTE]: pageView }} />}
      </body>
    </html>
  );
}

/** Admin pages bring their own frame (`handle = { chrome: 'admin' }`). */
function useAdminChrome(): boolean {
  return useMatches().some(
    (match) => (match.handle as { chrome?: string } | undefined)?.chrome === 'admin',
  );
}

export default function App() {
  const { featured, pageView } = useLoaderData<typeof loader>();
  if (useAdminChrome()) return <Outlet />;
  return (
    <>
      <SiteHeader featured={featured} />
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <SiteFooter />
      <PageViews token={pageView} />
    </>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const root = useRouteLoaderData<RootData>('root');
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const badRequest = isRouteErrorResponse(error) && error.status === 400;
  const notAllowed = isRouteErrorResponse(error) && error.status === 405;
  // A refusal (4xx) is the visitor's doing, not an error of ours.
  if (!isRouteErrorResponse(error) || error.status >= 500) console.error(error);
  return (
    <>
      <SiteHeader featured={root?.featured ?? []} />
      <main id="main" tabIndex={-1}>
        {notFound ? (
          <NotFoundPage />
        ) : badRequest ? (
          <section className="page narrow center">
            <h1>Bad request</h1>
            <p>This address is not valid. Check the link, or start again from the home page.</p>
            <a href="/" className="button">
              Back to Home
            </a>
          </section>
        ) : notAllowed ? (
          <section className="page narrow center">
            <h1>Method not allowed</h1>
            <p>This page can be read, not sent a form. Open it from a link instead.</p>
            <a href="/" className="button">
              Back to Home
            </a>
          </section>
        ) : (
          <section className="page narrow center">
            <h1>Something went wrong</h1>
            <p>We could not show this page. Please try again in a moment.</p>
          </section>
        )}
      </main>
      <SiteFooter />
    </>
  );
}
