// The admin guard: every /admin-panel loader and action calls requireAdmin, which refuses a
// state-changing request from another site (403) and answers a redirect to the sign-in page (with
// returnUrl) when there is no valid session.
import { createCookie, redirect } from '@remix-run/node';
import * as Auth from '#core/auth';
import { config } from '#core/config';
import { sitePath } from '#web/lib/site-path';

const secure = () => config().PUBLIC_URL.startsWith('https://');

export const sessionCookie = () =>
  createCookie('cluefeed_admin', {
    httpOnly: true,
    sameSite: 'lax',
    secure: secure(),
    path: '/admin-panel',
    maxAge: Auth.SESSION_TTL_SECONDS,
    secrets: [config().APP_SECRET],
  });

/** The last admin page visited, where sign-in returns to (the spec's "last admin route"). */
export const lastRouteCookie = () =>
  createCookie('cluefeed_admin_last', {
    httpOnly: true,
    sameSite: 'lax',
    secure: secure(),
    path: '/admin-panel',
    maxAge: 30 * 86_400,
  });

/**
 * The device token of the browser's last successful sign-in, which keeps it out of the user
 * name's lockout (core/auth's throttle). Signed by core, so the cookie itself is not; only the
 * sign-in page reads it.
 */
export const deviceCookie = () =>
  createCookie('cluefeed_admin_device', {
    httpOnly: true,
    sameSite: 'lax',
    secure: secure(),
    path: '/admin-panel/authorize',
    maxAge: Auth.DEVICE_TOKEN_TTL_SECONDS,
  });

export async function deviceToken(request: Request): Promise<string | undefined> {
  const value: unknown = await deviceCookie().parse(request.headers.get('Cookie'));
  return typeof value === 'string' ? value : undefined;
}

export async function sessionToken(request: Request): Promise<string | undefined> {
  const value: unknown = await sessionCookie().parse(request.headers.get('Cookie'));
  return typeof value === 'string' ? value : undefined;
}

/** Only paths inside the admin panel may be returned to, so returnUrl cannot send anyone away. */
export function safeAdminPath(path: string | null | undefined): string | undefined {
  const checked = path?.startsWith('/admin-panel/') ? sitePath(path) : undefined;
  return checked?.startsWith('/admin-panel/authorize') ? undefined : checked;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** An Origin of our own: PUBLIC_URL's origin, or the host the request itself was sent to. */
export function isOwnOrigin(origin: string, request: Request): boolean {
  if (!URL.canParse(origin)) return false;
  const from = new URL(origin);
  if (from.protocol !== 'https:' && from.protocol !== 'http:') return false;
  return (
    from.origin === new URL(config().PUBLIC_URL).origin || from.host === new URL(request.url).host
  );
}

/**
 * Refuses a POST (or any unsafe method) whose Origin is missing or another site's: a defence
 * against cross-site request forgery that does not lean on SameSite=Lax alone (a same-site
 * subdomain or an older browser would pass that). Browsers send Origin on every POST.
 */
export function requireSameOrigin(request: Request): void {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return;
  const origin = request.headers.get('Origin');
  if (origin && isOwnOrigin(origin, request)) return;
  throw new Response('This request did not come from the admin panel.', {
    status: 403,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
  });
}

export async function requireAdmin(request: Request): Promise<Auth.SignedInUser> {
  requireSameOrigin(request);
  const user = await Auth.sessionUser(await sessionToken(request));
  if (user) return user;
  const url = new URL(request.url);
  const returnUrl = safeAdminPath(`${url.pathname}${url.search}`);
  throw redirect(
    `/admin-panel/authorize${returnUrl ? `?${new URLSearchParams({ returnUrl })}` : ''}`,
  );
}
