// /not-found and every unknown path: the 404 page with HTTP status 404.
import { data, type MetaFunction } from '@remix-run/node';
import { NotFoundPage } from '#web/components/not-found-page';
import { NOT_FOUND_CACHE, publicPageHeaders } from '#web/lib/cache';

export const meta: MetaFunction = () => [{ title: 'Page not found · Cluefeed' }];
export const headers = publicPageHeaders;

export function loader() {
  return data(null, { status: 404, headers: { 'Cache-Control': NOT_FOUND_CACHE } });
}

export default NotFoundPage;
