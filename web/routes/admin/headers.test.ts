// Admin data must never be cached: the root's headers give every route a public CDN cache, and
// single-fetch data requests (the status and log polls, page revalidations) inherit it unless the
// route says otherwise. Walks the route table, so a new admin route is checked without an edit.
import type { RouteConfigEntry } from '@remix-run/route-config';
import { describe, expect, it } from 'vitest';
import routes from '#web/routes';

function adminRoutes(entries: RouteConfigEntry[], parent = ''): { path: string; file: string }[] {
  return entries.flatMap((entry) => {
    const path = [parent, entry.path ?? ''].filter(Boolean).join('/');
    const own = path.startsWith('admin-panel') ? [{ path, file: entry.file }] : [];
    return [...own, ...adminRoutes(entry.children ?? [], path)];
  });
}

describe('admin routes', () => {
  const admin = adminRoutes(routes);

  it('are found in the route table', () => {
    expect(admin.map(({ path }) => path)).toEqual(
      expect.arrayContaining(['admin-panel/status', 'admin-panel/logs/lines', 'admin-panel']),
    );
  });

  it.each(admin)('$path is private and never stored', async ({ file }) => {
    const module = (await import(`#web/${file.replace(/\.tsx?$/, '')}`)) as {
      headers?: (args: unknown) => HeadersInit;
    };
    expect(module.headers, `${file} exports headers`).toBeTypeOf('function');
    const headers = new Headers(
      module.headers!({
        loaderHeaders: new Headers(),
        parentHeaders: new Headers({ 'Cache-Control': 'public, s-maxage=300' }),
        actionHeaders: new Headers(),
        errorHeaders: undefined,
      }),
    );
    expect(headers.get('Cache-Control')).toBe('private, no-store');
  });
});
