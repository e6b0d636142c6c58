// POST /admin-panel/logout: ends the session and returns to the sign-in page with returnUrl.
import { redirect, type ActionFunctionArgs } from '@remix-run/node';
import * as Auth from '#core/auth';
import {
  requireSameOrigin,
  safeAdminPath,
  sessionCookie,
  sessionToken,
} from '#web/lib/admin.server';
import { privatePageHeaders } from '#web/lib/cache';
import { storingLogs } from '#web/lib/resource-route.server';

/** Admin data is never kept by a browser or a CDN (the root's public page cache must not apply). */
export const headers = privatePageHeaders;

export const action = storingLogs(async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  await Auth.signOut(await sessionToken(request));
  const referer = request.headers.get('Referer') ?? '';
  const from = URL.canParse(referer)
    ? safeAdminPath(new URL(referer).pathname + new URL(referer).search)
    : undefined;
  return redirect(
    `/admin-panel/authorize${from ? `?${new URLSearchParams({ returnUrl: from })}` : ''}`,
    {
      headers: { 'Set-Cookie': await sessionCookie().serialize('', { maxAge: 0 }) },
    },
  );
});

export const loader = storingLogs(function loader() {
  return redirect('/admin-panel/authorize');
});
