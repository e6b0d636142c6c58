// patches/@remix-run+react+*.patch and patches/react-router-dom+*.patch, in both builds: the
// CommonJS ones Node loads; the ESM @remix-run/react esbuild bundles into the Lambda (it takes
// react-router-dom's server.js, the CommonJS one, there too) and server.mjs (docs/performance.md).
// RemixServer built the whole server route tree for every document, and createStaticRouter
// converted it to data routes again, so React Router matched a new array on every render, past the
// router patch's memo (kept per routes array). Both are now kept: per build, and per routes array.
import { createRequire } from 'node:module';
import type { EntryContext } from '@remix-run/server-runtime';
import { createElement, type ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { remixBuild } from '#tests/integration/remix-build';

const require = createRequire(import.meta.url);
const { createRequestHandler } = require('@remix-run/server-runtime') as {
  createRequestHandler: typeof import('@remix-run/server-runtime').createRequestHandler;
};
type RemixServer = ComponentType<{ context: EntryContext; url: string }>;
type StaticRouter = {
  createStaticRouter: (routes: object[], context: object) => { routes: object[] };
};
const BUILDS = [
  [
    'CommonJS',
    (require('@remix-run/react') as { RemixServer: RemixServer }).RemixServer,
    require('react-router-dom/server') as StaticRouter,
  ],
  [
    'ESM',
    (
      (await import('@remix-run/react/dist/esm/server.js' as string)) as {
        RemixServer: RemixServer;
      }
    ).RemixServer,
    (await import('react-router-dom/server.mjs' as string)) as StaticRouter,
  ],
] as const;

/**
 * An app of a root (with an error boundary), a page that shows the reader its loader names from
 * the URL, and a page whose loader fails, with a document entry that renders RemixServer; the
 * manifest's routes count how often something lists them while a document renders (building the
 * tree lists them).
 */
function app(RemixServer: RemixServer) {
  const { Outlet, useLoaderData } =
    require('@remix-run/react') as typeof import('@remix-run/react');
  const counted = { rendering: false, listed: 0, html: [] as string[] };
  const manifestRoutes = new Proxy(
    {
      root: { id: 'root', path: '', hasLoader: false, hasErrorBoundary: true, module: '/root.js' },
      page: { id: 'page', parentId: 'root', path: 'page', hasLoader: true, module: '/page.js' },
      broken: { id: 'broken', parentId: 'root', path: 'broken', hasLoader: true, module: '/b.js' },
    },
    {
      ownKeys(target) {
        if (counted.rendering) counted.listed++;
        return Reflect.ownKeys(target);
      },
    },
  );
  const build = remixBuild({
    entry: async (request, status, headers, context) => {
      counted.rendering = true;
      const html = renderToString(createElement(RemixServer, { context, url: request.url }));
      counted.rendering = false;
      counted.html.push(html);
      return new Response(html, { status, headers });
    },
    manifestRoutes,
    routes: {
      root: {
        id: 'root',
        path: '',
        module: {
          default: () => createElement('main', null, createElement(Outlet)),
          ErrorBoundary: () => createElement('h1', null, 'Something went wrong'),
        },
      },
      page: {
        id: 'page',
        parentId: 'root',
        path: 'page',
        module: {
          default: () =>
            createElement('p', null, `for ${useLoaderData<{ reader: string }>().reader}`),
          loader: ({ request }: { request: Request }) => ({
            reader: new URL(request.url).searchParams.get('reader'),
          }),
        },
      },
      broken: {
        id: 'broken',
        parentId: 'root',
        path: 'broken',
        module: {
          default: () => createElement('p', null, 'never shown'),
          loader: () => {
            throw new Error('the store is down');
          },
        },
      },
    },
  });
  return { handler: createRequestHandler(build), counted };
}

describe.each(BUILDS)('a document render (%s build)', (_name, RemixServer, router) => {
  it('builds the server route tree once per build, and renders each document whole', async () => {
    const { handler, counted } = app(RemixServer);
    expect((await handler(new Request('http://localhost/page?reader=ada'))).status).toBe(200);
    const first = counted.listed;
    expect(first, 'the first render builds the tree').toBeGreaterThan(0);
    for (let i = 0; i < 3; i++)
      expect((await handler(new Request('http://localhost/page?reader=ada'))).status).toBe(200);
    expect(counted.listed).toBe(first);
    expect(counted.html).toHaveLength(4);
    for (const html of counted.html) expect(html).toContain('<main><p>for ada</p></main>');
  });

  it('renders each document from its own request, whatever the documents before it held', async () => {
    const { handler, counted } = app(RemixServer);
    // The runtime logs the failing loader's error; it is expected here.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    onTestFinished(() => logged.mockRestore());
    const visits = ['ada', 'broken', 'grace', 'ada', 'broken', 'linus'];
    for (const visit of visits) {
      const url = visit === 'broken' ? '/broken' : `/page?reader=${visit}`;
      const response = await handler(new Request(`http://localhost${url}`));
      expect(response.status).toBe(visit === 'broken' ? 500 : 200);
    }
    expect(counted.html).toHaveLength(visits.length);
    visits.forEach((visit, i) => {
      const html = counted.html[i]!;
      if (visit === 'broken') {
        expect(html).toContain('<h1>Something went wrong</h1>');
        expect(html).not.toContain('<p>for ');
      } else {
        expect(html).toContain(`<main><p>for ${visit}</p></main>`);
        expect(html).not.toContain('Something went wrong');
      }
    });
  });

  it("converts a routes array to data routes once, so matching finds the router's kept table", () => {
    const routes = [{ id: 'root', path: '/', children: [{ id: 'page', path: 'page' }] }];
    const context = { matches: [], basename: '/', location: { pathname: '/page' } };
    const first = router.createStaticRouter(routes, context).routes;
    expect(router.createStaticRouter(routes, context).routes).toBe(first);
    expect(first[0]).toMatchObject({ id: 'root', children: [{ id: 'page' }] });
    const other = [{ id: 'root', path: '/' }];
    expect(router.createStaticRouter(other, context).routes).not.toBe(first);
  });
});
