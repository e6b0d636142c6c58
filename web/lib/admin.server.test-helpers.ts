// For tests of admin loaders and actions: a signed-in admin, and requests as its browser sends them.
import * as Auth from '#core/auth';
import { config } from '#core/config';
import { ulid } from '#core/ids';
import { sessionCookie } from './admin.server';

export const ADMIN_PASSWORD = 'correct horse battery staple';

/** A new admin, signed in: its user name, session token and the Cookie header that carries it. */
export async function signedInAdmin() {
  const userName = `admin-${ulid().toLowerCase()}`;
  await Auth.ensureAdmin({ userName, password: ADMIN_PASSWORD });
  const { token, user } = await Auth.authorize({
    userName,
    password: ADMIN_PASSWORD,
    ip: `203.0.113.${ulid()}`,
  });
  const cookie = (await sessionCookie().serialize(token)).split(';')[0]!;
  return { user, token, cookie };
}

/** A same-origin form POST to an admin path, as the panel's own page sends it. */
export function adminPost(path: string, form: Record<string, string>, cookie: string): Request {
  const origin = new URL(config().PUBLIC_URL).origin;
  return new Request(new URL(path, origin), {
    method: 'POST',
    body: new URLSearchParams(form).toString(),
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Cookie: cookie,
      Origin: origin,
    },
  });
}
