// The smallest Remix server build the runtime takes, with this app's future flags: the tests of our
// patches of Remix and React Router (web/*-patch.test.ts, web/route-matching.test.ts) give it their
// own routes and document entry and hand it to createRequestHandler.
import type { EntryContext, ServerBuild } from '@remix-run/server-runtime';

type DocumentEntry = (
  request: Request,
  status: number,
  headers: Headers,
  context: EntryContext,
) => Promise<Response> | Response;

export function remixBuild({
  routes,
  entry,
  manifestRoutes = {},
}: {
  routes: Record<string, { id: string; parentId?: string; path?: string; module: object }>;
  entry: DocumentEntry;
  /** The browser's manifest of the routes (`assets.routes`); a document render reads it. */
  manifestRoutes?: object;
}): ServerBuild {
  return {
    mode: 'production',
    entry: { module: { default: entry } },
    routes,
    assets: {
      entry: { imports: [], module: '/entry.js' },
      routes: manifestRoutes,
      url: '/manifest.js',
      version: '1',
    },
    assetsBuildDirectory: 'build/client',
    publicPath: '/assets/',
    future: {
      v3_singleFetch: true,
      v3_fetcherPersist: true,
      v3_relativeSplatPath: true,
      v3_throwAbortReason: true,
      v3_lazyRouteDiscovery: true,
    },
    isSpaMode: false,
    basename: undefined,
    routeDiscovery: { mode: 'lazy', manifestPath: '/__manifest' },
  } as unknown as ServerBuild;
}
