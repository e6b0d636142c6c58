// Matching a request must not rebuild the route table: @remix-run/router flattened, ranked and
// compiled every route on every match (react-router issue 8653), twice per request, which cost two
// thirds of a trivial request's CPU. patches/@remix-run+router+*.patch memoizes it in both builds:
// the CommonJS one Node loads, and the ESM one bundlers pick (the Lambda's server bundle and the
// browser's); the first two tests fail on an unpatched file (docs/performance.md).
import { createRequire } from 'node:module';
import type { AgnosticRouteObject } from '@remix-run/router';
import { describe, expect, it } from 'vitest';
import { remixBuild } from '#tests/integration/remix-build';

// The build the server loads: @remix-run/server-runtime requires it, so the same module instance.
const require = createRequire(import.meta.url);
const CommonJS = require('@remix-run/router') as typeof import('@remix-run/router');
// The build esbuild bundles into the Lambda (mainFields module, main) and Vite into the browser.
const Esm = (await import(
  '@remix-run/router/dist/router.js' as string
)) as typeof import('@remix-run/router');
const BUILDS = [
  ['CommonJS', CommonJS],
  ['ESM', Esm],
] as const;
const { createRequestHandler } = require('@remix-run/node') as typeof import('@remix-run/node');

const MATCHES = 100;

type Route = { id: string; path?: string; index?: boolean; children?: Route[] };

/** Route objects that count every read of their `children` (flattening reads each one). */
function countingRoutes(routes: Route[], reads: { children: number }): AgnosticRouteObject[] {
  return counting(routes, reads) as AgnosticRouteObject[];
}
function counting(routes: Route[], reads: { children: number }): Route[] {
  return routes.map(
    (route) =>
      new Proxy(
        { ...route, children: route.children && counting(route.children, reads) },
        {
          get(target, key, receiver) {
            if (key === 'children') reads.children++;
            return Reflect.get(target, key, receiver) as unknown;
          },
        },
      ),
  );
}

const TABLE: Route[] = [
  { id: 'home', index: true },
  { id: 'audience', path: 'a/:slug' },
  { id: 'post', path: 'p/:slug' },
  { id: 'subscribed', path: 'subscribed-to-newsletter/:slug?' },
  { id: 'healthz', path: 'healthz' },
  {
    id: 'admin',
    path: 'admin-panel',
    children: [
      { id: 'admin-index', index: true },
      { id: 'admin-issue', path: 'setup-campaign/:id' },
    ],
  },
  { id: 'catch-all', path: '*' },
];

/** A path that counts each time it is read as text (flattening and compiling both read it so). */
class CountingPath extends String {
  static reads = 0;
  override toString(): string {
    CountingPath.reads++;
    return super.toString();
  }
  override valueOf(): string {
    CountingPath.reads++;
    return super.valueOf();
  }
}

/** A small Remix server build: a root and resource routes, every path a CountingPath. */
function serverBuild() {
  const text = (body: string) => () =>
    new Response(body, { headers: { 'content-type': 'text/plain' } });
  const route = (id: string, path: string, loader: () => Response) => ({
    id,
    parentId: 'root',
    path: new CountingPath(path) as unknown as string,
    module: { loader },
  });
  const routes = {
    root: { id: 'root', path: '', module: { default: () => null } },
    healthz: route('healthz', 'healthz', text('ok')),
    audience: route('audience', 'a/:slug', text('audience')),
    post: route('post', 'p/:slug', text('post')),
    admin: route('admin', 'admin-panel/outbox/:id', text('admin')),
  };
  return remixBuild({ routes, entry: () => new Response('document', { status: 500 }) });
}

describe.each(BUILDS)('route matching, %s build', (_build, Router) => {
  it('reads the route table once, not on every match', () => {
    const reads = { children: 0 };
    const routes = countingRoutes(TABLE, reads);
    expect(Router.matchRoutes(routes, '/a/defi')?.map((m) => m.route.id)).toEqual(['audience']);
    const afterFirst = reads.children;
    expect(afterFirst).toBeGreaterThan(0);

    for (let i = 0; i < MATCHES; i++) {
      expect(Router.matchRoutes(routes, `/p/post-${i}`)?.at(-1)?.params).toEqual({
        slug: `post-${i}`,
      });
      expect(Router.matchRoutes(routes, '/admin-panel')?.at(-1)?.route.id).toBe('admin-index');
    }
    expect(reads.children - afterFirst).toBe(0);
  });

  it('answers a request without reading a route path again once warm', async () => {
    const handle = createRequestHandler(serverBuild(), 'production');
    const get = async (path: string) => {
      const response = await handle(new Request(`http://localhost${path}`));
      return { status: response.status, body: await response.text() };
    };
    expect(await get('/healthz')).toEqual({ status: 200, body: 'ok' });
    const warm = CountingPath.reads;
    expect(warm).toBeGreaterThan(0);

    for (let i = 0; i < MATCHES; i++) {
      expect(await get('/healthz')).toEqual({ status: 200, body: 'ok' });
      expect(await get(`/a/audience-${i}`)).toEqual({ status: 200, body: 'audience' });
    }
    expect(CountingPath.reads - warm).toBe(0);
  });

  it('matches what lazy route discovery patches into a route tree it already matched', () => {
    const router = Router.createRouter({
      routes: [{ id: 'root', path: '/', children: [] }],
      history: Router.createMemoryHistory(),
    });
    // patchRoutes adds to the root's children in place; a caller may still hold this array.
    const routes = router.routes;
    expect(Router.matchRoutes(routes, '/later')).toBeNull();
    router.patchRoutes('root', [{ id: 'later', path: 'later' }]);
    expect(Router.matchRoutes(routes, '/later')?.map((m) => m.route.id)).toEqual(['root', 'later']);
    router.dispose();
  });

  it('hands out matches a caller may change without changing the next match', () => {
    const routes = countingRoutes(TABLE, { children: 0 });
    const first = Router.matchRoutes(routes, '/admin-panel/setup-campaign/7')!;
    expect(first.map((m) => m.params)).toEqual([{ id: '7' }, { id: '7' }]);
    (first[1]!.params as Record<string, string>).id = 'changed';
    first[1]!.pathname = '/changed';
    first.pop();
    const again = Router.matchRoutes(routes, '/admin-panel/setup-campaign/7')!;
    expect(again.map((m) => [m.route.id, m.pathname, m.params])).toEqual([
      ['admin', '/admin-panel', { id: '7' }],
      ['admin-issue', '/admin-panel/setup-campaign/7', { id: '7' }],
    ]);
    expect(again[0]!.params).toBe(again[1]!.params);
  });

  it('matches the same paths as before, case and trailing slashes included', () => {
    const routes = countingRoutes(TABLE, { children: 0 });
    const ids = (path: string) => Router.matchRoutes(routes, path)?.map((m) => m.route.id);
    for (let round = 0; round < 2; round++) {
      expect(ids('/')).toEqual(['home']);
      expect(ids('/A/Defi/')).toEqual(['audience']);
      expect(ids('/subscribed-to-newsletter')).toEqual(['subscribed']);
      expect(ids('/subscribed-to-newsletter/defi')).toEqual(['subscribed']);
      expect(ids('/admin-panel/setup-campaign/1')).toEqual(['admin', 'admin-issue']);
      expect(ids('/nothing/here')).toEqual(['catch-all']);
      expect(Router.matchPath({ path: '/x/:id', caseSensitive: true }, '/X/1')).toBeNull();
      expect(Router.matchPath({ path: '/x/:id', caseSensitive: false }, '/X/1')?.params).toEqual({
        id: '1',
      });
      expect(Router.matchPath({ path: '/x', end: false }, '/x/y')?.pathnameBase).toBe('/x');
      expect(Router.matchPath({ path: '/x', end: true }, '/x/y')).toBeNull();
    }
  });
});
