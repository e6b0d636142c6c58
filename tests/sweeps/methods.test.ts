// Method sweep over the built app (the local server, as a client reaches it): every route answers
// a method it does not take with a 405 that says so and an Allow header naming what it takes,
// never Remix's own `{"message":"Unexpected Server Error"}`; an admin route asks for a session
// before it says anything about itself. Walks web/routes.ts, so a new route is swept as it is added.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, startLocalServer, type LocalServer } from '#tests/integration/local-server';
import { routeTable, type SweptRoute } from '#tests/integration/route-table';
import { signedInAdmin } from '#web/lib/admin.server.test-helpers';
import { isReadOnly } from '#web/lib/resource-route.server';

const table = await routeTable();
/** A layout shares its path with its index route, which is the one a request reaches. */
const isLayout = (route: SweptRoute) =>
  table.some(
    (other) => other !== route && other.pattern === route.pattern && other.id.endsWith('index'),
  );
const readOnly = table.filter(
  (route) =>
    route.module.loader &&
    !isLayout(route) &&
    (!route.module.action || isReadOnly(route.module.action)),
);
const REMIX_OWN = 'Unexpected Server Error';

let server: LocalServer;
let adminCookie: string;
beforeAll(async () => {
  [server, { cookie: adminCookie }] = await Promise.all([startLocalServer(), signedInAdmin()]);
});
afterAll(() => server.stop());

const post = (path: string, cookie?: string) =>
  send(server, {
    method: 'POST',
    path,
    headers: {
      Origin: server.origin,
      'Content-Type': 'application/x-www-form-urlencoded',
      ...(cookie && { Cookie: cookie }),
    },
    body: 'intent=anything',
  });

/** The 405 a read-only route gives: its words, page or JSON, and GET among the methods it takes. */
function expectNotAllowed(answer: Awaited<ReturnType<typeof send>>, route: SweptRoute) {
  expect(answer.status, route.pattern).toBe(405);
  expect(answer.headers.allow, route.pattern).toMatch(/^GET, HEAD/);
  // (A page's hydration data carries Remix's sanitized error; the page shows its own words.)
  if ('default' in route.module) expect(answer.body).toContain('<h1>Method not allowed</h1>');
  else
    expect(JSON.parse(answer.body), route.pattern).toEqual({
      error: { code: 'request.method_not_allowed', message: 'Method not allowed. Use GET, HEAD.' },
    });
}

describe('a POST to a route that is only read', () => {
  it('finds routes of every kind to sweep', () => {
    const kinds = new Set(readOnly.map((route) => `${route.access} ${'default' in route.module}`));
    expect(kinds).toEqual(new Set(['public true', 'public false', 'admin true', 'admin false']));
  });

  it.each(readOnly.filter((route) => route.access !== 'admin').map((r) => [r.pattern, r]))(
    '%s answers 405 and says the method is not allowed',
    async (_pattern, route: SweptRoute) => {
      expectNotAllowed(await post(route.path), route);
    },
  );

  it.each(readOnly.filter((route) => route.access === 'admin').map((r) => [r.pattern, r]))(
    '%s asks a stranger to sign in, and answers an admin 405',
    async (_pattern, route: SweptRoute) => {
      const stranger = await post(route.path);
      if (!('default' in route.module)) {
        expect([stranger.status, stranger.headers.location], route.pattern).toEqual([
          302,
          expect.stringMatching(/^\/admin-panel\/authorize/),
        ]);
      }
      expectNotAllowed(await post(route.path, adminCookie), route);
    },
  );
});

describe('a GET to the invitation preview, which is only posted', () => {
  const path = '/admin-panel/user-management/preview';

  it('sends a stranger to sign in first', async () => {
    const answer = await send(server, { path });
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe(
      `/admin-panel/authorize?${new URLSearchParams({ returnUrl: path })}`,
    );
  });

  it('answers an admin 405 with the method it takes', async () => {
    const answer = await send(server, { path, headers: { Cookie: adminCookie } });
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe('POST');
    expect(JSON.parse(answer.body)).toEqual({
      error: { code: 'request.method_not_allowed', message: 'Method not allowed. Use POST.' },
    });
  });
});

describe('a GET to any route without a page', () => {
  it.each(table.filter((route) => !('default' in route.module)).map((r) => [r.pattern, r]))(
    "%s never answers Remix's own error",
    async (_pattern, route: SweptRoute) => {
      const answer = await send(server, {
        path: route.path,
        headers: route.access === 'admin' ? { Cookie: adminCookie } : {},
      });
      expect(answer.body, route.pattern).not.toContain(REMIX_OWN);
      expect(answer.status, route.pattern).toBeLessThan(500);
    },
  );
});
