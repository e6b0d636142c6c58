// GET /admin-panel/logs/lines?date=&lines=: the log viewer's refresh, as data.
import type { LoaderFunctionArgs } from '@remix-run/node';
import { json } from '#web/lib/api.server';
import { requireAdmin } from '#web/lib/admin.server';
import { privatePageHeaders } from '#web/lib/cache';
import { readOnly, storingLogs } from '#web/lib/resource-route.server';
import { loadLines } from './logs.server';

/** Admin data is never kept by a browser or a CDN (the root's public page cache must not apply). */
export const headers = privatePageHeaders;

// When fetched as a resource route Remix ignores `headers`, so `json` sets no-store itself too.
export const loader = storingLogs(async function loader({ request }: LoaderFunctionArgs) {
  return json(await loadLines(request));
});

export const action = readOnly(requireAdmin);
