// Admin sign-in through the route: the session and device cookies it sets, and the device cookie
// that lets a browser which signed in before past the user name's lockout.
import { describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import * as Auth from '#core/auth';
import { call } from '#tests/integration/route-call';
import { deviceCookie, sessionCookie } from '#web/lib/admin.server';
import { ADMIN_PASSWORD as password } from '#web/lib/admin.server.test-helpers';
import { action } from './authorize';

const ORIGIN = 'http://localhost:3000';

function signIn(fields: Record<string, string>, cookie?: string): Request {
  return new Request(`${ORIGIN}/admin-panel/authorize`, {
    method: 'POST',
    body: new URLSearchParams(fields).toString(),
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Origin: ORIGIN,
      'X-Forwarded-For': `203.0.113.${ulid()}`,
      ...(cookie && { Cookie: cookie }),
    },
  });
}

const args = (request: Request) => ({ request, params: {}, context: {} });

describe('/admin-panel/authorize', () => {
  it("sets the session and an HttpOnly device cookie for the sign-in page's path only", async () => {
    const userName = `admin-${ulid().toLowerCase()}`;
    await Auth.ensureAdmin({ userName, password });
    const answer = (await action(args(signIn({ userName, password })))) as Response;
    expect(answer.status).toBe(302);
    const [session = '', device = '', ...more] = answer.headers.getSetCookie();
    expect(more).toEqual([]);
    const token = (await sessionCookie().parse(session)) as string;
    expect(await Auth.sessionUser(token)).toMatchObject({ userName });
    expect(device).toMatch(
      /^cluefeed_admin_device=[^;]+; Max-Age=2592000; Path=\/admin-panel\/authorize; HttpOnly; SameSite=Lax$/,
    );
  });

  it('signs in a browser that signed in before while failures elsewhere lock the name', async () => {
    const userName = `admin-${ulid().toLowerCase()}`;
    await Auth.ensureAdmin({ userName, password });
    const first = (await action(args(signIn({ userName, password })))) as Response;
    const device = first.headers.getSetCookie()[1]!.split(';')[0]!;
    for (let i = 0; i < Auth.LOGIN_LIMIT_PER_USER_NAME.max; i++) {
      const failed = await call(action, signIn({ userName, password: 'nope nope nope' }));
      expect(failed.status).toBe(401);
    }
    const stranger = await call(action, signIn({ userName, password }));
    expect(stranger).toMatchObject({
      status: 429,
      data: { error: 'Too many sign-in attempts. Please wait 15 minutes and try again.' },
    });
    // Another admin's device cookie is a stranger's too.
    const other = `admin-${ulid().toLowerCase()}`;
    await Auth.ensureAdmin({ userName: other, password });
    const others = (await action(args(signIn({ userName: other, password })))) as Response;
    const othersDevice = others.headers.getSetCookie()[1]!.split(';')[0]!;
    expect((await call(action, signIn({ userName, password }, othersDevice))).status).toBe(429);
    const known = (await action(args(signIn({ userName, password }, device)))) as Response;
    expect(known.status).toBe(302);
    const token = (await sessionCookie().parse(known.headers.getSetCookie()[0]!)) as string;
    expect(await Auth.sessionUser(token)).toMatchObject({ userName });
    expect(await deviceCookie().parse(known.headers.getSetCookie()[1]!)).toEqual(
      expect.any(String),
    );
  });
});
