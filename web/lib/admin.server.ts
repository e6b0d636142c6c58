// The admin guard: every /admin-panel loader and action calls requireAdmin, which answers a
// redirect to the sign-in page (with returnUrl) when there is no valid session.
import { createCookie, redirect } from '@remix-run/node';
import * as Auth from '#core/auth';
import { config } from '#core/config';

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

export async function sessionToken(request: Request): Promise<string | undefined> {
  const value: unknown = await sessionCookie().parse(request.headers.get('Cookie'));
  return typeof value === 'string' ? value : undefined;
}

/** Only paths inside the admin panel may be returned to, so returnUrl cannot send anyone away. */
export function safeAdminPath(path: string | null | undefined): string | undefined {
  if (!path || !path.startsWith('/admin-panel/') || path.length > 500) return undefined;
  if (/%2e|%2f|%5c|\\/i.test(path)) return undefined;
  // Dot segments resolved: the path that would be visited must be the path checked.
  const resolved = new URL(path, 'http://cluefeed.invalid');
  if (
    resolved.origin !== 'http://cluefeed.invalid' ||
    `${resolved.pathname}${resolved.search}` !== path
  ) {
    return undefined;
  }
  return resolved.pathname.startsWith('/admin-panel/authorize') ? undefined : path;
}

export async function requireAdmin(request: Request): Promise<Auth.SignedInUser> {
  const user = await Auth.sessionUser(await sessionToken(request));
  if (user) return user;
  const url = new URL(request.url);
  const returnUrl = safeAdminPath(`${url.pathname}${url.search}`);
  throw redirect(
    `/admin-panel/authorize${returnUrl ? `?${new URLSearchParams({ returnUrl })}` : ''}`,
  );
}
