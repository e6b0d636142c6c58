// Cross-site request forgery: every admin POST (through the one admin guard, and sign-in and
// logout beside it) is refused unless its Origin is our own.
import { describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import * as Auth from '#core/auth';
import {
  ADMIN_PASSWORD as password,
  signedInAdmin as signedIn,
} from '#web/lib/admin.server.test-helpers';
import { action as authorizeAction } from './authorize';
import { action as automationsAction } from './content-automations';
import { action as logoutAction } from './logout';
import { loader as statusLoader } from './status';

/** PUBLIC_URL's origin in tests (its default). */
const PUBLIC_ORIGIN = 'http://localhost:3000';
const FOREIGN_ORIGINS = [
  undefined,
  'null',
  'https://evil.example',
  'http://localhost:3000.evil.example',
  'http://localhost:3001',
  'not a url',
];

function post(url: string, body: string, headers: Record<string, string | undefined>): Request {
  const defined = Object.entries(headers).filter((entry): entry is [string, string] =>
    Boolean(entry[1]),
  );
  return new Request(url, {
    method: 'POST',
    body,
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      ...Object.fromEntries(defined),
    },
  });
}

/** The status an action answered with, whether it returned or threw. */
async function statusOf(run: () => Promise<unknown>): Promise<number> {
  try {
    const result = await run();
    if (result instanceof Response) return result.status;
    return (result as { init?: { status?: number } | null }).init?.status ?? 200;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.status;
    throw thrown;
  }
}

const args = (request: Request) => ({ request, params: {}, context: {} });

describe('admin POSTs check Origin', () => {
  it('refuses an admin action without our Origin, even with a valid session', async () => {
    const { cookie } = await signedIn();
    for (const origin of FOREIGN_ORIGINS) {
      const request = post('http://localhost:3000/admin-panel/content-automations', 'intent=x', {
        Cookie: cookie,
        Origin: origin,
      });
      expect(await statusOf(() => automationsAction(args(request))), String(origin)).toBe(403);
    }
  });

  it('lets the admin act from PUBLIC_URL or from the host the request was sent to', async () => {
    const { cookie } = await signedIn();
    for (const [url, origin] of [
      ['http://localhost:3000/admin-panel/content-automations', PUBLIC_ORIGIN],
      ['http://127.0.0.1:4321/admin-panel/content-automations', 'http://127.0.0.1:4321'],
    ] as const) {
      const request = post(url, 'intent=nonsense', { Cookie: cookie, Origin: origin });
      // Past the guard: the action itself answers the unknown intent.
      expect(await statusOf(() => automationsAction(args(request))), origin).toBe(400);
    }
  });

  it('refuses a cross-site sign-in and sets no session cookie', async () => {
    const userName = `admin-${ulid().toLowerCase()}`;
    await Auth.ensureAdmin({ userName, password });
    const body = new URLSearchParams({ userName, password }).toString();
    for (const origin of FOREIGN_ORIGINS) {
      const request = post('http://localhost:3000/admin-panel/authorize', body, {
        Origin: origin,
        'X-Forwarded-For': `203.0.113.${ulid()}`,
      });
      expect(await statusOf(() => authorizeAction(args(request))), String(origin)).toBe(403);
    }
    const request = post('http://localhost:3000/admin-panel/authorize', body, {
      Origin: PUBLIC_ORIGIN,
      'X-Forwarded-For': `203.0.113.${ulid()}`,
    });
    const answer = (await authorizeAction(args(request))) as Response;
    expect(answer.status).toBe(302);
    expect(answer.headers.get('Set-Cookie')).toMatch(/^cluefeed_admin=/);
  });

  it('refuses a cross-site logout and keeps the session', async () => {
    const { cookie, token } = await signedIn();
    const forged = post('http://localhost:3000/admin-panel/logout', '', {
      Cookie: cookie,
      Origin: 'https://evil.example',
    });
    expect(await statusOf(() => logoutAction(args(forged)))).toBe(403);
    expect(await Auth.sessionUser(token)).toBeDefined();
    const own = post('http://localhost:3000/admin-panel/logout', '', {
      Cookie: cookie,
      Origin: PUBLIC_ORIGIN,
    });
    expect(await statusOf(() => logoutAction(args(own)))).toBe(302);
    expect(await Auth.sessionUser(token)).toBeUndefined();
  });

  it('leaves reads alone: a GET needs no Origin', async () => {
    const { cookie } = await signedIn();
    const request = new Request('http://localhost:3000/admin-panel/status', {
      headers: { Cookie: cookie },
    });
    expect(await statusOf(() => statusLoader(args(request)))).toBe(200);
  });
});
