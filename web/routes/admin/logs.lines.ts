// GET /admin-panel/logs/lines?date=&lines=: the log viewer's refresh, as data.
import type { LoaderFunctionArgs } from '@remix-run/node';
import { loadLines } from './logs.server';
import { privatePageHeaders } from '#web/lib/cache';

/** Admin data is never kept by a browser or a CDN (the root's public page cache must not apply). */
export const headers = privatePageHeaders;

export const loader = ({ request }: LoaderFunctionArgs) => loadLines(request);
