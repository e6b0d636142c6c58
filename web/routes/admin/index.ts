// /admin-panel: the last admin route, or Content Automations.
import { redirect, type LoaderFunctionArgs } from '@remix-run/node';
import { lastRouteCookie, requireAdmin, safeAdminPath } from '#web/lib/admin.server';
import { privatePageHeaders } from '#web/lib/cache';
import { readOnly, storingLogs } from '#web/lib/resource-route.server';

/** Admin data is never kept by a browser or a CDN (the root's public page cache must not apply). */
export const headers = privatePageHeaders;

export const loader = storingLogs(async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const last = safeAdminPath(
    (await lastRouteCookie().parse(request.headers.get('Cookie'))) as string | null,
  );
  return redirect(last ?? '/admin-panel/content-automations');
});

export const action = readOnly(requireAdmin);
