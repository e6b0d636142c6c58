// Reader sign-in through the routes: the /feed guard and its returnUrl, /login (and its refusal
// of open redirects), /logout, renewal cookies, and admin and reader sessions kept apart.
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import * as Users from '#core/users';
import { call, request } from '#tests/integration/route-call';
import { readerWithPassword, READER_PASSWORD } from '#tests/integration/readers';
import { sessionCookie as adminSessionCookie } from '#web/lib/admin.server';
import { signedInAdmin } from '#web/lib/admin.server.test-helpers';
import { safeReturnPath, userDeviceCookie, userSessionCookie } from '#web/lib/user.server';
import { loader as statusLoader } from './admin/status';
import { loader as feedLoader } from './feed';
import { action as loginAction, loader as loginLoader } from './login';
import { action as logoutAction, loader as logoutLoader } from './logout';

const ORIGIN = 'http://localhost:3000';
const HOUR = 3600 * 1000;

const userCookie = async (token: string) =>
  (await userSessionCookie().serialize(token)).split(';')[0]!;

async function signedInReader(now = Date.now()) {
  const reader = await readerWithPassword({ clues: ['build DeFi protocols', 'trade NFTs'] });
  const { token } = await Users.signIn(
    { login: reader.email, password: READER_PASSWORD },
    { ip: `192.0.2.${ulid()}` },
    now,
  );
  return { ...reader, token, cookie: await userCookie(token) };
}

function loginPost(
  fields: Record<string, string>,
  {
    query = '',
    origin = ORIGIN,
    headers = {},
  }: { query?: string; origin?: string | null; headers?: Record<string, string> } = {},
) {
  return request(`${ORIGIN}/login${query}`, {
    method: 'POST',
    body: new URLSearchParams(fields).toString(),
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      ...(origin && { Origin: origin }),
      ...headers,
    },
  });
}

const args = (req: Request) => ({ request: req, params: {}, context: {} });

describe('the /feed guard', () => {
  it('sends a visitor without a session to /login with the page as returnUrl', async () => {
    const answer = await call(feedLoader, request('/feed?rating=Relevant'));
    expect(answer.status).toBe(302);
    expect(answer.location).toBe('/login?returnUrl=%2Ffeed%3Frating%3DRelevant');
  });

  it('shows a signed-in reader their name and clues', async () => {
    const { cookie, user } = await signedInReader();
    const answer = await call(feedLoader, request('/feed', { headers: { Cookie: cookie } }));
    expect(answer.status).toBe(200);
    expect(answer.data).toMatchObject({
      name: user.name,
      email: user.email,
      clues: [{ clue: 'build DeFi protocols' }, { clue: 'trade NFTs' }],
    });
  });

  it('refuses forged, unsigned and ended sessions', async () => {
    const { cookie, token } = await signedInReader();
    await Users.signOut(token);
    for (const stranger of [cookie, 'cluefeed_user=forged', await userCookie('no-such-session')]) {
      const answer = await call(feedLoader, request('/feed', { headers: { Cookie: stranger } }));
      expect(answer.location, stranger).toBe('/login?returnUrl=%2Ffeed');
    }
  });

  it('renews a session older than 3 hours with a new cookie; the old cookie lasts only a short grace', async () => {
    const { cookie, token } = await signedInReader(Date.now() - 4 * HOUR);
    const answer = (await feedLoader(args(request('/feed', { headers: { Cookie: cookie } })))) as {
      init: ResponseInit;
    };
    const setCookie = new Headers(answer.init.headers).get('Set-Cookie') ?? '';
    expect(setCookie).toMatch(
      /^cluefeed_user=[^;]+; Max-Age=604800; Path=\/; HttpOnly; SameSite=Lax/,
    );
    const renewed: unknown = await userSessionCookie().parse(setCookie);
    expect(renewed).toEqual(expect.any(String));
    expect(renewed).not.toBe(token);
    // A request sent with the old cookie while the renewal ran (or after its answer was lost) is
    // answered with the same new cookie.
    const late = (await feedLoader(args(request('/feed', { headers: { Cookie: cookie } })))) as {
      init: ResponseInit;
    };
    const lateCookie = new Headers(late.init.headers).get('Set-Cookie') ?? '';
    expect(await userSessionCookie().parse(lateCookie)).toBe(renewed);
    const fresh = await call(
      feedLoader,
      request('/feed', { headers: { Cookie: await userCookie(renewed as string) } }),
    );
    expect(fresh.status).toBe(200);
    await Users.signOut(renewed as string);
    const old = await call(feedLoader, request('/feed', { headers: { Cookie: cookie } }));
    expect(old.location).toBe('/login?returnUrl=%2Ffeed');
  });
});

describe('admin and reader sessions never open each other', () => {
  it("an admin's session does not open /feed, in its own cookie or in the reader's", async () => {
    const admin = await signedInAdmin();
    for (const cookie of [admin.cookie, await userCookie(admin.token)]) {
      const answer = await call(feedLoader, request('/feed', { headers: { Cookie: cookie } }));
      expect(answer.location, cookie).toBe('/login?returnUrl=%2Ffeed');
    }
  });

  it("a reader's session does not open the admin panel, in its own cookie or in the admin's", async () => {
    const reader = await signedInReader();
    const inAdminCookie = (await adminSessionCookie().serialize(reader.token)).split(';')[0]!;
    for (const cookie of [reader.cookie, inAdminCookie]) {
      const answer = await call(
        statusLoader,
        request('/admin-panel/status', { headers: { Cookie: cookie } }),
      );
      expect(answer.status, cookie).toBe(302);
      expect(answer.location).toMatch(/^\/admin-panel\/authorize/);
    }
  });
});

describe('/login', () => {
  it('signs in and goes to the feed, with HttpOnly SameSite=Lax session and device cookies', async () => {
    const { email } = await readerWithPassword();
    const answer = (await loginAction(
      args(loginPost({ login: email.toUpperCase(), password: READER_PASSWORD })),
    )) as Response;
    expect(answer.status).toBe(302);
    expect(answer.headers.get('Location')).toBe('/feed');
    const [setCookie = '', setDevice = '', ...more] = answer.headers.getSetCookie();
    expect(more).toEqual([]);
    expect(setCookie).toMatch(/^cluefeed_user=.+; Path=\/; HttpOnly; SameSite=Lax$/);
    const token: unknown = await userSessionCookie().parse(setCookie);
    expect((await Users.sessionUser(token as string))?.user.email).toBe(email);
    // The device cookie goes back to the sign-in form only, for 30 days.
    expect(setDevice).toMatch(
      /^cluefeed_device=[^;]+; Max-Age=2592000; Path=\/login; HttpOnly; SameSite=Lax$/,
    );
    expect(await userDeviceCookie().parse(setDevice)).toEqual(expect.any(String));
  });

  it('signs in a browser that signed in before while failures elsewhere lock its login', async () => {
    const { email } = await readerWithPassword();
    const right = { login: email, password: READER_PASSWORD };
    const from = () => ({ 'X-Forwarded-For': `192.0.2.${ulid()}` });
    const first = (await loginAction(args(loginPost(right, { headers: from() })))) as Response;
    const device = first.headers.getSetCookie()[1]!.split(';')[0]!;
    for (let i = 0; i < Users.USER_LOGIN_LIMIT_PER_LOGIN.max; i += 1) {
      const failed = await call(
        loginAction,
        loginPost({ login: email, password: 'wrong-password-1' }, { headers: from() }),
      );
      expect(failed.status).toBe(401);
    }
    const stranger = (await loginAction(args(loginPost(right, { headers: from() })))) as {
      data: unknown;
      init: ResponseInit;
    };
    expect(stranger.init.status).toBe(429);
    expect(stranger.data).toEqual({ error: Users.USER_LOGIN_THROTTLED });
    const known = (await loginAction(
      args(loginPost(right, { headers: { ...from(), Cookie: device } })),
    )) as Response;
    expect(known.status).toBe(302);
    const token: unknown = await userSessionCookie().parse(known.headers.getSetCookie()[0]!);
    expect((await Users.sessionUser(token as string))?.user.email).toBe(email);
  });

  it('follows a returnUrl of this site, and ignores any that would lead away', async () => {
    const { email } = await readerWithPassword();
    const to = async (returnUrl: string) => {
      const answer = (await loginAction(
        args(
          loginPost(
            { login: email, password: READER_PASSWORD },
            { query: `?${new URLSearchParams({ returnUrl })}` },
          ),
        ),
      )) as Response;
      return answer.headers.get('Location');
    };
    expect(await to('/feed?rating=Relevant')).toBe('/feed?rating=Relevant');
    for (const returnUrl of [
      'https://evil.example/feed',
      '//evil.example/feed',
      '/\\evil.example',
      '\\\\evil.example',
      '/%2f%2fevil.example',
      '/feed/../../evil',
      'javascript:alert(1)',
      '/login?returnUrl=https://evil.example',
      `/${'a'.repeat(600)}`,
      'feed',
    ]) {
      expect(await to(returnUrl), returnUrl).toBe('/feed');
    }
  });

  it('shows the one generic message with a 401 on failure, and sets no cookie', async () => {
    const { email } = await readerWithPassword();
    const attempts: Record<string, string>[] = [
      { login: email, password: 'wrong-password-1' },
      { login: 'nobody@example.org', password: READER_PASSWORD },
      { login: '', password: '' },
      {},
    ];
    for (const fields of attempts) {
      const answer = (await loginAction(args(loginPost(fields)))) as {
        data: unknown;
        init: ResponseInit;
      };
      expect(answer.init.status, JSON.stringify(fields)).toBe(401);
      expect(answer.data).toEqual({ error: 'Access denied: Invalid credentials' });
      expect(new Headers(answer.init.headers).get('Set-Cookie')).toBeNull();
    }
  });

  it('answers bad requests with a 4xx, never a 500', async () => {
    const { email } = await readerWithPassword();
    const body = new URLSearchParams({ login: email, password: READER_PASSWORD }).toString();
    const cases: [string, Request][] = [
      ['no Origin', loginPost({ login: email, password: READER_PASSWORD }, { origin: null })],
      ['foreign Origin', loginPost({}, { origin: 'https://evil.example' })],
      [
        'JSON',
        request(`${ORIGIN}/login`, {
          method: 'POST',
          body: JSON.stringify({ login: email }),
          headers: { 'Content-Type': 'application/json', Origin: ORIGIN },
        }),
      ],
      [
        'PUT',
        request(`${ORIGIN}/login`, {
          method: 'PUT',
          body,
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: ORIGIN },
        }),
      ],
      ['oversize', loginPost({ login: 'x'.repeat(20_000), password: 'x' })],
      ['broken encoding', loginPost({ login: '%E0%A4%A', password: '%' })],
    ];
    for (const [name, req] of cases) {
      const answer = await call(loginAction, req);
      expect(answer.status, name).toBeGreaterThanOrEqual(400);
      expect(answer.status, name).toBeLessThan(500);
    }
  });

  it('sends a reader who is already signed in to the feed (or the returnUrl)', async () => {
    const { cookie } = await signedInReader();
    expect(
      (await call(loginLoader, request('/login', { headers: { Cookie: cookie } }))).location,
    ).toBe('/feed');
    expect(
      (
        await call(
          loginLoader,
          request('/login?returnUrl=%2Ffeed%3Fx%3D1', { headers: { Cookie: cookie } }),
        )
      ).location,
    ).toBe('/feed?x=1');
    expect((await call(loginLoader, request('/login'))).status).toBe(200);
  });
});

describe('/logout', () => {
  it('needs a POST from this site: a GET or a foreign Origin keeps the session', async () => {
    const { cookie, token } = await signedInReader();
    const get = await call(logoutLoader, request('/logout', { headers: { Cookie: cookie } }));
    expect(get).toMatchObject({ status: 302, location: '/login' });
    for (const origin of [undefined, 'https://evil.example', 'null']) {
      const forged = await call(
        logoutAction,
        request(`${ORIGIN}/logout`, {
          method: 'POST',
          headers: { Cookie: cookie, ...(origin && { Origin: origin }) },
        }),
      );
      expect(forged.status, String(origin)).toBe(403);
    }
    expect(await Users.sessionUser(token)).toBeDefined();
  });

  it('ends the session, clears the cookie and goes back to /login', async () => {
    const { cookie, token } = await signedInReader();
    const answer = (await logoutAction(
      args(
        request(`${ORIGIN}/logout`, {
          method: 'POST',
          headers: { Cookie: cookie, Origin: ORIGIN },
        }),
      ),
    )) as Response;
    expect(answer.status).toBe(302);
    expect(answer.headers.get('Location')).toBe('/login');
    expect(answer.headers.get('Set-Cookie')).toMatch(/^cluefeed_user=; Max-Age=0/);
    expect(await Users.sessionUser(token)).toBeUndefined();
    const feed = await call(feedLoader, request('/feed', { headers: { Cookie: cookie } }));
    expect(feed.location).toBe('/login?returnUrl=%2Ffeed');
  });
});

describe('safeReturnPath', () => {
  it('keeps paths of this site with their query, and nothing else', () => {
    expect(safeReturnPath('/feed?rating=Relevant')).toBe('/feed?rating=Relevant');
    expect(safeReturnPath('/a/defi')).toBe('/a/defi');
    for (const path of ['/logout', '/login', '/login?x=1', '/%2e%2e/x', '/feed\n', null]) {
      expect(safeReturnPath(path), String(path)).toBeUndefined();
    }
  });
});
