// GET /admin-panel/logs/lines?date=&lines=: the log viewer's refresh, as data.
import type { LoaderFunctionArgs } from '@remix-run/node';
import { loadLines } from './logs.server';

export const loader = ({ request }: LoaderFunctionArgs) => loadLines(request);
