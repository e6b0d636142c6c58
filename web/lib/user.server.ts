// The reader guard: every user route's loader and action calls requireUser, which refuses a
// state-changing request from another site (403) and answers a redirect to /login (with
// returnUrl) when there is no valid reader session. A renewed session's new cookie travels in the
// returned headers, which the route must put on its answer.
import { createCookie, redirect } from '@remix-run/node';
import * as Auth from '#core/auth';
import { config } from '#core/config';
import * as Users from '#core/users';
import { isOwnOrigin } from '#web/lib/admin.server';
import { sitePath } from '#web/lib/site-path';

const secure = () => config().PUBLIC_URL.startsWith('https://');

/** Its own name, apart from the admin's `cluefeed_admin`: neither session opens the other's pages. */
export const userSessionCookie = () =>
  createCookie('cluefeed_user', {
    httpOnly: true,
    sameSite: 'lax',
    secure: secure(),
    path: '/',
    maxAge: Users.USER_SESSION_TTL_SECONDS,
    secrets: [config().APP_SECRET],
  });

/**
 * The device token of the browser's last successful sign-in, which keeps it out of the login's
 * lockout (core/auth's throttle). Signed by core, so the cookie itself is not; only /login reads it.
 */
export const userDeviceCookie = () =>
  createCookie('cluefeed_device', {
    httpOnly: true,
    sameSite: 'lax',
    secure: secure(),
    path: '/login',
    maxAge: Auth.DEVICE_TOKEN_TTL_SECONDS,
  });

export async function userDeviceToken(request: Request): Promise<string | undefined> {
  const value: unknown = await userDeviceCookie().parse(request.headers.get('Cookie'));
  return typeof value === 'string' ? value : undefined;
}

export async function userSessionToken(request: Request): Promise<string | undefined> {
  const value: unknown = await userSessionCookie().parse(request.headers.get('Cookie'));
  return typeof value === 'string' ? value : undefined;
}

/** The Set-Cookie that starts (or renews) a reader's session. */
export async function sessionCookieHeader(token: string): Promise<Record<string, string>> {
  return { 'Set-Cookie': await userSessionCookie().serialize(token) };
}

/** The Set-Cookie that ends it in the browser. */
export async function clearedSessionCookieHeader(): Promise<Record<string, string>> {
  return { 'Set-Cookie': await userSessionCookie().serialize('', { maxAge: 0 }) };
}

const LOOPING = /^\/(login|logout)(\/|\?|$)/;

/**
 * A path of this site to return to after sign-in; anything that could lead elsewhere (another
 * origin, `//host`, backslashes, encoded slashes or dots) or back to /login is refused.
 */
export function safeReturnPath(path: string | null | undefined): string | undefined {
  const checked = sitePath(path);
  return checked && !LOOPING.test(checked) ? checked : undefined;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Refuses a POST (or any unsafe method) whose Origin is missing or another site's. */
export function requireSameSite(request: Request): void {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return;
  const origin = request.headers.get('Origin');
  if (origin && isOwnOrigin(origin, request)) return;
  throw new Response('This request did not come from Cluefeed.', {
    status: 403,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
  });
}

export type SignedInReader = {
  user: Users.SessionUser;
  /** Set-Cookie for a renewed session (empty otherwise): put it on the answer. */
  headers: Record<string, string>;
};

/** The signed-in reader, if any (a renewed session brings its new cookie). */
export async function optionalUser(request: Request): Promise<SignedInReader | undefined> {
  const session = await Users.sessionUser(await userSessionToken(request));
  if (!session) return undefined;
  return {
    user: session.user,
    headers: session.renewedToken ? await sessionCookieHeader(session.renewedToken) : {},
  };
}

/** The signed-in reader, or a redirect to /login that brings them back here afterwards. */
export async function requireUser(request: Request): Promise<SignedInReader> {
  requireSameSite(request);
  const reader = await optionalUser(request);
  if (reader) return reader;
  const url = new URL(request.url);
  const returnUrl = safeReturnPath(`${url.pathname}${url.search}`);
  throw redirect(`/login${returnUrl ? `?${new URLSearchParams({ returnUrl })}` : ''}`, {
    headers: { 'Cache-Control': 'no-store' },
  });
}
