// POST /logout: ends the reader's session and returns to /login (the spec's user-level logout).
import { redirect, type ActionFunctionArgs } from '@remix-run/node';
import * as Users from '#core/users';
import { privatePageHeaders } from '#web/lib/cache';
import { storingLogs } from '#web/lib/resource-route.server';
import {
  clearedSessionCookieHeader,
  requireSameSite,
  userSessionToken,
} from '#web/lib/user.server';

export const headers = privatePageHeaders;

export const action = storingLogs(async function action({ request }: ActionFunctionArgs) {
  // A forged logout from another site must not end the reader's session.
  requireSameSite(request);
  await Users.signOut(await userSessionToken(request));
  return redirect('/login', {
    headers: { ...(await clearedSessionCookieHeader()), 'Cache-Control': 'no-store' },
  });
});

/** Signing out changes state, so a link or a prefetch (GET) never does it. */
export const loader = storingLogs(function loader() {
  return redirect('/login', { headers: { 'Cache-Control': 'no-store' } });
});
