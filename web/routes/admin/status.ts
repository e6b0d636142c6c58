// GET /admin-panel/status: the active processes, polled every 10 seconds by the admin pages.
import type { LoaderFunctionArgs } from '@remix-run/node';
import * as Jobs from '#core/jobs';
import { json } from '#web/lib/api.server';
import { requireAdmin } from '#web/lib/admin.server';
import { processView } from '#web/lib/processes.server';
import { privatePageHeaders } from '#web/lib/cache';
import { readOnly, storingLogs } from '#web/lib/resource-route.server';

/** Admin data is never kept by a browser or a CDN (the root's public page cache must not apply). */
export const headers = privatePageHeaders;

export const loader = storingLogs(async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  // Polled by a plain request (not a page's data request): it carries the admin pages' header.
  return json({ processes: (await Jobs.active()).map(processView) }, 200, {
    'Cache-Control': 'private, no-store',
  });
});

export const action = readOnly(requireAdmin);
