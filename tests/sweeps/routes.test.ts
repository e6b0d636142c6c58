// Route sweep: walks web/routes.ts itself and checks every route by who may use it (see
// tests/integration/route-table.ts and docs/decisions/0011-route-sweeps.md). Adding a route to the
// table adds it here; nobody edits this file for a new route. Every public route is sent NUL,
// control characters, invalid UTF-8 and lone surrogates; none of it may ever be stored.
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import * as ReaderTokens from '#core/reader-tokens';
import * as Tokens from '#core/tokens';
import {
  adminCookie,
  call,
  changes,
  readerCookie,
  request,
  storedItems,
} from '#tests/integration/route-call';
import {
  accessOf,
  routeEntries,
  routeTable,
  samplePath,
  USER_API_PREFIXES,
  type SweptRoute,
} from '#tests/integration/route-table';
import {
  seedSweepWorld,
  sweepTable,
  twoReaders,
  type SweepReader,
  type SweepWorld,
} from '#tests/integration/sweep-world';
import { storesLogs } from '#web/lib/resource-route.server';

const table = await routeTable();
const admin = table.filter((route) => route.access === 'admin');
const user = table.filter((route) => route.access === 'user');
const isReaderApi = (route: SweptRoute) =>
  USER_API_PREFIXES.some((prefix) => route.pattern.startsWith(`${prefix}/`));
const readerApis = user.filter(isReaderApi);
const publicActions = table.filter((route) => route.access === 'public' && route.module.action);

sweepTable('routes');

let world: SweepWorld;
let readers: { a: SweepReader; b: SweepReader };
let ghostCookie: string;
beforeAll(async () => {
  [world, readers] = await Promise.all([seedSweepWorld(), twoReaders()]);
  ghostCookie = await adminCookie('a-token-that-names-no-session');
});

function tampered(token: string): string {
  return token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
}

/** A refusal: 401/403, or a redirect to `signIn` (never the page's data, never a 5xx). */
function refuses(answer: { status: number; location?: string }, signIn: string): boolean {
  if (answer.status === 401 || answer.status === 403) return true;
  return (
    answer.status >= 300 &&
    answer.status < 400 &&
    (answer.location === signIn || answer.location?.startsWith(`${signIn}?`) === true)
  );
}

describe('the route table', () => {
  it('is read from web/routes.ts, every module loaded and classified', () => {
    expect(table.length).toBeGreaterThan(20);
    expect(table.map((route) => route.pattern)).toEqual(
      expect.arrayContaining(['/', '/a/:slug', '/admin-panel/logs', '/admin-panel/authorize']),
    );
    for (const route of table) expect(route.module, route.file).toBeTypeOf('object');
    expect(admin.map((route) => route.pattern)).not.toContain('/admin-panel/authorize');
  });

  it('reads the same pages and access without loading the modules (the browser sweeps do)', () => {
    expect(routeEntries().map(({ pattern, access, page }) => ({ pattern, access, page }))).toEqual(
      table.map(({ pattern, access, module }) => ({ pattern, access, page: 'default' in module })),
    );
  });

  it('classifies by path, and a handle can only make a route stricter', () => {
    expect(accessOf('/admin-panel/anything/:id')).toBe('admin');
    expect(accessOf('/admin-panel/authorize')).toBe('public');
    expect(accessOf('/feed')).toBe('user');
    expect(accessOf('/settings/e-mail')).toBe('user');
    expect(accessOf('/assistant/:threadId')).toBe('user');
    expect(accessOf('/account/tokens')).toBe('user');
    expect(accessOf('/api/users/me/articles')).toBe('user');
    expect(accessOf('/api/users/meow')).toBe('public');
    expect(accessOf('/login')).toBe('public');
    expect(accessOf('/about', { access: 'user' })).toBe('user');
    expect(accessOf('/admin-panel/logs', { access: 'public' })).toBe('admin');
    expect(samplePath('/a/:slug/:id?', { slug: 'defi' })).toEqual({
      path: '/a/defi/01JSWEEP0000000000000SAMPLE',
      params: { slug: 'defi', id: '01JSWEEP0000000000000SAMPLE' },
    });
  });
});

describe('resource routes store their log lines before they answer', () => {
  // A route without a page never passes through entry.server, which stores a page's lines.
  const resources = table.filter((route) => !('default' in route.module));

  it.each(resources.map((route) => [route.pattern, route] as const))(
    '%s wraps its loader and action in storingLogs',
    (_pattern, route) => {
      for (const handler of [route.module.loader, route.module.action].filter(Boolean)) {
        expect(storesLogs(handler), route.file).toBe(true);
      }
    },
  );
});

describe('admin routes refuse without an admin session', () => {
  const strangers = () => ({
    'no cookie': undefined,
    'an unsigned cookie': 'cluefeed_admin=forged-session-token',
    'a signed cookie naming no session': ghostCookie,
    "a non-admin user's session": world.user.cookie,
  });

  it.each(admin.filter((route) => route.module.loader).map((route) => [route.pattern, route]))(
    'GET %s',
    async (_pattern, route: SweptRoute) => {
      for (const [who, cookie] of Object.entries(strangers())) {
        const answer = await call(
          route.module.loader!,
          request(route.path, { headers: cookie ? { Cookie: cookie } : {} }),
          route.params,
        );
        expect(refuses(answer, '/admin-panel/authorize'), `${who}: ${JSON.stringify(answer)}`).toBe(
          true,
        );
      }
    },
  );

  it.each(admin.filter((route) => route.module.action).map((route) => [route.pattern, route]))(
    'POST %s',
    async (_pattern, route: SweptRoute) => {
      const before = await storedItems();
      for (const [who, cookie] of Object.entries(strangers())) {
        for (const method of ['POST', 'DELETE']) {
          const answer = await call(
            route.module.action!,
            request(route.path, {
              method,
              body: 'intent=import&confirm=yes&collection=articles',
              headers: {
                'Content-Type': 'application/x-www-form-urlencoded',
                ...(cookie && { Cookie: cookie }),
              },
            }),
            route.params,
          );
          expect(
            refuses(answer, '/admin-panel/authorize'),
            `${method} ${who}: ${JSON.stringify(answer)}`,
          ).toBe(true);
        }
      }
      // Ending the session a request presents is what logout is for, whoever it belonged to.
      const changed = changes(before, await storedItems());
      expect(changed.filter((line) => !line.startsWith('removed session#'))).toEqual([]);
    },
  );

  it('lets the same requests through with an admin session (so the refusals mean something)', async () => {
    const opened = [];
    for (const route of admin.filter((candidate) => candidate.module.loader)) {
      const answer = await call(
        route.module.loader!,
        request(route.path, { headers: { Cookie: world.admin.cookie } }),
        route.params,
      );
      expect(answer.status, route.pattern).toBeLessThan(500);
      if (answer.status === 200) opened.push(route.pattern);
      // Remix ignores `headers` on a route without a page: such a route marks its own answer.
      if (answer.status === 200 && !('default' in route.module)) {
        expect(answer.cacheControl ?? '', `${route.pattern} is never cached`).toMatch(
          /no-store|private/,
        );
      }
    }
    expect(opened).toEqual(
      expect.arrayContaining(['/admin-panel', '/admin-panel/logs', '/admin-panel/logs/lines']),
    );
  });
});

describe('user routes refuse without a user session: pages go to /login, the reader API is a 401', () => {
  it('would catch a user route that answers without a session', async () => {
    const open = await call(() => ({ stories: [] }), request('/feed'));
    const guarded = await call(() => {
      throw new Response(null, { status: 302, headers: { Location: '/login?returnTo=%2Ffeed' } });
    }, request('/feed'));
    expect([refuses(open, '/login'), refuses(guarded, '/login')]).toEqual([false, true]);
  });

  it('knows the reader API and the token page', () => {
    expect(readerApis.map((route) => route.pattern)).toContain('/api/users/me/articles');
    expect(user.map((route) => route.pattern)).toContain('/account/tokens');
  });

  /** What a stranger may present: nothing, or a session or token that is not a reader's. */
  const strangers = async (): Promise<Record<string, Record<string, string>>> => ({
    'no cookie': {},
    'an unsigned cookie': { Cookie: 'cluefeed_user=forged-session-token' },
    'a signed cookie naming no session': { Cookie: await readerCookie('no-such-session') },
    "an admin's session": { Cookie: world.admin.cookie },
    'a token naming nothing': { Authorization: `Bearer cfr_${'A'.repeat(43)}` },
    "a reader's token sent as a cookie": { Cookie: await readerCookie(readers.a.apiToken) },
    'a malformed Authorization': { Authorization: 'Basic c3dlZXA6c3dlZXA=' },
  });

  it(`checks every user route (${user.length} today)`, async () => {
    for (const route of user) {
      for (const handler of [route.module.loader, route.module.action]) {
        if (!handler) continue;
        const method = handler === route.module.action ? 'POST' : 'GET';
        for (const [who, headers] of Object.entries(await strangers())) {
          const answer = await call(
            handler,
            request(route.path, {
              method,
              body: method === 'POST' ? '' : null,
              headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
            }),
            route.params,
          );
          const what = `${method} ${route.pattern}, ${who}: ${JSON.stringify(answer)}`;
          if (isReaderApi(route)) expect(answer.status, what).toBe(401);
          else expect(refuses(answer, '/login'), what).toBe(true);
        }
      }
    }
  });

  it.each(readerApis.map((route) => [route.pattern, route] as const))(
    '%s answers a stranger 401 JSON with WWW-Authenticate: Bearer, never cached',
    async (_pattern, route) => {
      const response = (await route.module.loader!({
        request: request(route.path),
        params: route.params,
        context: {},
      })) as Response;
      expect(response.status).toBe(401);
      expect(response.headers.get('WWW-Authenticate')).toMatch(/^Bearer /);
      expect(response.headers.get('Cache-Control')).toBe('private, no-store');
      expect(await response.json()).toMatchObject({ error: { message: expect.any(String) } });
    },
  );
});

describe("a reader's session or token reaches nothing of another reader's", () => {
  /** What names reader B: their ids, token, e-mail and story; none may reach reader A. */
  const markers = (b: SweepReader) => [
    b.id,
    b.email,
    b.tokenId,
    b.tokenName,
    b.articleId,
    b.storyTitle,
  ];
  /** Reader B's stored items: their partitions, their records and their token's key. */
  const ofReader = async (b: SweepReader) => {
    const hash = createHash('sha256').update(b.apiToken).digest('hex');
    const items = await storedItems();
    return new Map([...items].filter(([key]) => key.includes(b.id) || key.includes(hash)));
  };
  /** Every query or form field a route might read an id from, naming reader B's things. */
  const namingB = (b: SweepReader) => ({
    id: b.tokenId,
    tokenId: b.tokenId,
    userId: b.id,
    user: b.id,
    articleId: b.articleId,
    email: b.email,
    kind: 'like',
  });
  const as = (a: SweepReader) => ({
    session: { Cookie: a.cookie },
    token: { Authorization: `Bearer ${a.apiToken}` },
  });

  it.each(
    user.filter((route) => route.module.loader).map((route) => [route.pattern, route] as const),
  )("GET %s as reader A, naming reader B's things, shows none of them", async (_pattern, route) => {
    const { a, b } = readers;
    const query = new URLSearchParams(namingB(b)).toString();
    for (const [how, headers] of Object.entries(as(a))) {
      // Pages take a session only; the reader API takes either.
      if (how === 'token' && !isReaderApi(route)) continue;
      const answer = (await route.module.loader!({
        request: request(`${route.path}?${query}`, { headers }),
        params: route.params,
        context: {},
      })) as unknown;
      const reduced = await call(async () => answer, request(route.path));
      expect(reduced.status, `${how}: ${JSON.stringify(reduced)}`).toBe(200);
      const shown = answer instanceof Response ? await answer.text() : JSON.stringify(reduced.data);
      for (const marker of markers(b))
        expect(shown, `${how} shows ${marker}`).not.toContain(marker);
      if (isReaderApi(route)) expect(shown).toContain(a.storyTitle);
    }
  });

  it.each(
    user.filter((route) => route.module.action).map((route) => [route.pattern, route] as const),
  )(
    "POST %s as reader A, naming reader B's things, changes nothing of B's",
    async (_pattern, route) => {
      const { a, b } = readers;
      const before = await ofReader(b);
      // The intents readers' forms take today, and a few they may take tomorrow.
      const intents = ['revoke', 'create', 'feedback', 'add-clue', 'open-assistant', 'delete', ''];
      for (const intent of intents) {
        for (const [how, headers] of Object.entries(as(a))) {
          const answer = await call(
            route.module.action!,
            request(route.path, {
              method: 'POST',
              body: new URLSearchParams({ intent, ...namingB(b) }).toString(),
              headers: {
                'Content-Type': 'application/x-www-form-urlencoded',
                Origin: 'http://localhost',
                ...headers,
              },
            }),
            route.params,
          );
          expect(answer.status, `${intent}, ${how}: ${JSON.stringify(answer)}`).toBeLessThan(500);
        }
      }
      expect(changes(before, await ofReader(b))).toEqual([]);
      expect((await ReaderTokens.readerOf(b.apiToken))?.reader.id).toBe(b.id);
    },
  );

  it("revoking reader B's token id as reader A answers 404, as a missing one", async () => {
    const route = user.find((candidate) => candidate.pattern === '/account/tokens')!;
    const answer = await call(
      route.module.action!,
      request(route.path, {
        method: 'POST',
        body: new URLSearchParams({ intent: 'revoke', id: readers.b.tokenId }).toString(),
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          Origin: 'http://localhost',
          Cookie: readers.a.cookie,
        },
      }),
    );
    expect(answer).toMatchObject({
      status: 404,
      data: { error: ReaderTokens.READER_TOKEN_MESSAGES.notFound },
    });
  });

  it.each(readerApis.map((route) => [route.pattern, route] as const))(
    '%s answers odd query values with a 4xx, never a 5xx',
    async (_pattern, route) => {
      const wrong: string[] = [];
      for (const raw of ['%ED%A0%80', '%00', '%C0%AF%FF', 'a%01%07%7Fb', '-1', '1e3', '0x10', '']) {
        const query = ['limit', 'offset', 'rating'].map((name) => `${name}=${raw}`).join('&');
        const answer = await call(
          route.module.loader!,
          request(`${route.path}?${query}`, {
            headers: { Authorization: `Bearer ${readers.a.apiToken}` },
          }),
          route.params,
        );
        if (answer.status < 400 || answer.status >= 500)
          wrong.push(`?${query} -> ${answer.status}`);
      }
      expect(wrong).toEqual([]);
    },
  );
});

/** Requests no public form or API may accept: each must get a 4xx, never a 2xx, 3xx or 5xx. */
function badRequests(): { name: string; method: string; type?: string; body: BodyInit }[] {
  const plausible = 'email=sweep%40example.org&intent=toggle&audiences=defi';
  const plausibleJson = JSON.stringify({
    name: 'page_view',
    path: '/',
    email: 'sweep@example.org',
  });
  const megabyte = 'x'.repeat(1024 * 1024);
  // What no field stores, in every field a public form or API reads.
  const unreadable = (text: string) => ({
    email: `${text}reader@x.co`,
    audiences: `zk rollups${text}, defi lending`,
    name: 'page_view',
    path: `/${text}`,
    referrer: `https://example.org/${text}`,
    clue: `build ${text} lending protocols`,
    message: `hello ${text}`,
    login: `${text}reader@x.co`,
    userName: `sweep${text}admin`,
    password: `sweep-password-1${text}`,
  });
  const unreadableForm = (text: string) =>
    `${new URLSearchParams(unreadable(text)).toString()}&intent=toggle`;
  return [
    ...['PUT', 'PATCH', 'DELETE'].flatMap((method) => [
      {
        name: `${method} form`,
        method,
        type: 'application/x-www-form-urlencoded',
        body: plausible,
      },
      { name: `${method} JSON`, method, type: 'application/json', body: plausibleJson },
    ]),
    { name: 'text/plain', method: 'POST', type: 'text/plain', body: '{"email":"a@b.org"}' },
    { name: 'application/xml', method: 'POST', type: 'application/xml', body: '<email/>' },
    { name: 'no content type', method: 'POST', body: new Blob([new Uint8Array([0, 159, 146])]) },
    { name: 'malformed JSON', method: 'POST', type: 'application/json', body: '{"email":' },
    { name: 'JSON array', method: 'POST', type: 'application/json', body: '[1,2,3]' },
    {
      name: 'broken percent-encoding',
      method: 'POST',
      type: 'application/x-www-form-urlencoded',
      body: 'email=%E0%A4%A&intent=%',
    },
    {
      name: 'binary form body',
      method: 'POST',
      type: 'application/x-www-form-urlencoded',
      body: new Uint8Array([0xff, 0xfe, 0x00, 0x3d, 0x26, 0xc3]),
    },
    {
      name: 'empty form',
      method: 'POST',
      type: 'application/x-www-form-urlencoded',
      body: '',
    },
    {
      name: 'garbage multipart',
      method: 'POST',
      type: 'multipart/form-data; boundary=sweep',
      body: '--sweep\r\nnot a part',
    },
    ...[
      ['NUL', '\u0000'],
      ['control characters', 'ctl\u0001\u0007\u007f'],
      ['U+FFFD', '\uFFFD'],
    ].flatMap(([what, text]) => [
      {
        name: `${what} in every form field`,
        method: 'POST',
        type: 'application/x-www-form-urlencoded',
        body: unreadableForm(text!),
      },
      {
        name: `${what} in every JSON field`,
        method: 'POST',
        type: 'application/json',
        body: JSON.stringify(unreadable(text!)),
      },
    ]),
    {
      name: 'a lone surrogate in every JSON field',
      method: 'POST',
      type: 'application/json',
      body: JSON.stringify(unreadable('\uD800')),
    },
    {
      name: 'invalid UTF-8 in every form field (%ED%A0%80)',
      method: 'POST',
      type: 'application/x-www-form-urlencoded',
      body: 'email=%ED%A0%80%40x.co&audiences=zk%20rollups%ED%A0%80&path=/%C0%AF&clue=%FF&message=%80&intent=toggle',
    },
    {
      name: 'invalid UTF-8 bytes in a JSON body',
      method: 'POST',
      type: 'application/json',
      body: new Uint8Array([
        ...new TextEncoder().encode('{"email":"a'),
        0xed,
        0xa0,
        0x80,
        ...new TextEncoder().encode('@x.co","name":"page_view","path":"/'),
        0xff,
        ...new TextEncoder().encode('","clue":"'),
        0xc0,
        0xaf,
        ...new TextEncoder().encode('"}'),
      ]),
    },
    {
      name: 'oversize form (1 MiB)',
      method: 'POST',
      type: 'application/x-www-form-urlencoded',
      body: `email=${megabyte}`,
    },
    {
      name: 'oversize JSON (1 MiB)',
      method: 'POST',
      type: 'application/json',
      body: JSON.stringify({ email: megabyte }),
    },
  ];
}

describe('public POSTs answer bad requests with a 4xx and store nothing', () => {
  it.each(publicActions.map((route) => [route.pattern, route]))(
    'POST %s',
    async (_pattern, route: SweptRoute) => {
      const { path, params } = samplePath(route.pattern, world.samples);
      // A tampered link token: a valid one would make an empty or lenient form a real request
      // (the unsubscribe page's button posts no fields). The waiting-list token is valid, so the
      // JSON API's body checks are reached; the fuzzers go past the link tokens.
      const url = `${path}?subscriberHash=${encodeURIComponent(tampered(world.tokens.manage))}`;
      const before = await storedItems();
      const wrong: string[] = [];
      for (const bad of badRequests()) {
        const answer = await call(
          route.module.action!,
          request(url, {
            method: bad.method,
            body: bad.body,
            headers: {
              ...(bad.type && { 'Content-Type': bad.type }),
              'X-API-Token': Tokens.sign('waitlist', 600),
            },
          }),
          params,
        );
        if (answer.status < 400 || answer.status >= 500) {
          wrong.push(`${bad.name} -> ${answer.status} ${String(answer.error ?? '')}`);
        }
      }
      expect(wrong).toEqual([]);
      expect(changes(before, await storedItems())).toEqual([]);
    },
  );
});

describe('public pages answer odd URLs without a 5xx (and store none of it: see sweepTable)', () => {
  // As a router hands them over: decoded, so invalid UTF-8 arrives as U+FFFD.
  const odd = [
    '%E0%A4%A',
    'x'.repeat(2000),
    '..%2f..%2fetc',
    '<script>',
    '',
    '\u0000',
    'ctl\u0001\u0007\u007f',
    '\uFFFD\uFFFD\uFFFD',
  ];
  /** Query values sent as is: invalid UTF-8 and a lone surrogate's bytes, percent-encoded. */
  const rawQueries = ['%ED%A0%80', '%00', '%C0%AF%FF', 'a%01%07%7Fb'];
  it.each(
    table
      .filter((route) => route.access === 'public' && route.module.loader)
      .map((route) => [route.pattern, route]),
  )('GET %s', async (_pattern, route: SweptRoute) => {
    const wrong: string[] = [];
    for (const value of odd) {
      const names = Object.keys(samplePath(route.pattern).params);
      const { path, params } = samplePath(
        route.pattern,
        Object.fromEntries(names.map((name) => [name, value])),
      );
      const query = `?subscriberHash=${encodeURIComponent(value)}&slug=${encodeURIComponent(value)}&date=${encodeURIComponent(value)}`;
      const answer = await call(
        route.module.loader!,
        request(`${encodeURI(path)}${query}`),
        params,
      );
      if (answer.status >= 500)
        wrong.push(`${JSON.stringify(value)} -> ${answer.status} ${String(answer.error)}`);
    }
    for (const raw of rawQueries) {
      const query = ['subscriberHash', 'slug', 'date', 'user', 'q', 'email', 'utm', 'returnTo']
        .map((name) => `${name}=${raw}`)
        .join('&');
      const answer = await call(
        route.module.loader!,
        request(`${route.path}?${query}`),
        route.params,
      );
      if (answer.status >= 500) wrong.push(`?${query} -> ${answer.status} ${String(answer.error)}`);
    }
    expect(wrong).toEqual([]);
  });
});
