// GET /admin-panel/logs/lines?date=&lines=: the log viewer's refresh, as data.
import type { LoaderFunctionArgs } from '@remix-run/node';
import { json } from '#web/lib/api.server';
import { storingLogs } from '#web/lib/resource-route.server';
import { loadLines } from './logs.server';

// A resource route: Remix applies no `headers` export here, so `json` sets no-store itself.
export const loader = storingLogs(async function loader({ request }: LoaderFunctionArgs) {
  return json(await loadLines(request));
});
