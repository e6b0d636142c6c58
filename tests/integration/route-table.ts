// The app's route table as the sweeps see it: web/routes.ts flattened into one entry per route
// module, each with its full URL pattern, a sample URL for its dynamic segments, the module itself
// and who may use it. Nothing here is a hand-kept list of routes, so a new route is swept as soon
// as it is added to web/routes.ts.
import { fileURLToPath } from 'node:url';
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import routes from '#web/routes';

/**
 * Who may use a route:
 * - `admin`: paths under /admin-panel (or a module with `handle.access = 'admin'`); without an
 *   admin session the loader redirects to the sign-in page and an action refuses.
 * - `user`: paths under one of USER_PATH_PREFIXES (or `handle.access = 'user'`); without a user
 *   session the route redirects to /login. Paths under one of USER_API_PREFIXES are the reader
 *   API's: without a session or a reader's token they answer 401.
 * - `public`: everything else, including the sign-in pages themselves.
 * A module's `handle.access` can only make a route stricter than its path says, never looser.
 */
export type Access = 'public' | 'user' | 'admin';

/** First path segments that belong to signed-in readers (none exist yet; the spec plans them). */
export const USER_PATH_PREFIXES = ['feed', 'settings', 'assistant', 'account'] as const;
/** The reader API: routes that answer only a reader's session or personal access token. */
export const USER_API_PREFIXES = ['/api/users/me'] as const;
/** The pages that must answer without a session because they create it. */
export const SIGN_IN_PAGES = ['/admin-panel/authorize', '/login'] as const;

export type RouteModule = {
  loader?: (args: LoaderFunctionArgs) => unknown;
  action?: (args: ActionFunctionArgs) => unknown;
  handle?: { access?: Access };
};

export type SweptRoute = {
  id: string;
  file: string;
  /** The full URL pattern, e.g. `/a/:slug` or `/admin-panel/outbox/:id`. */
  pattern: string;
  /** The pattern with every dynamic segment replaced by its sample value. */
  path: string;
  params: Record<string, string>;
  access: Access;
  module: RouteModule;
};

type ConfigEntry = {
  id?: string;
  file: string;
  path?: string;
  index?: boolean;
  children?: ConfigEntry[];
};

const STRICTNESS: Record<Access, number> = { public: 0, user: 1, admin: 2 };

/** Classifies a URL pattern (and its module's handle) by the rules above. */
export function accessOf(pattern: string, handle?: { access?: Access }): Access {
  if ((SIGN_IN_PAGES as readonly string[]).includes(pattern)) return 'public';
  const first = pattern.split('/')[1] ?? '';
  const readerApi = USER_API_PREFIXES.some(
    (prefix) => pattern === prefix || pattern.startsWith(`${prefix}/`),
  );
  const byPath: Access =
    first === 'admin-panel'
      ? 'admin'
      : readerApi || (USER_PATH_PREFIXES as readonly string[]).includes(first)
        ? 'user'
        : 'public';
  const declared = handle?.access;
  return declared && STRICTNESS[declared] > STRICTNESS[byPath] ? declared : byPath;
}

/**
 * Sample values for dynamic segments: a named value when the sweep seeds one (e.g. an existing
 * audience's slug), otherwise a ULID-shaped placeholder that names nothing.
 */
export function samplePath(
  pattern: string,
  samples: Record<string, string> = {},
): { path: string; params: Record<string, string> } {
  const params: Record<string, string> = {};
  const path = pattern
    .split('/')
    .map((segment) => {
      if (segment === '*') {
        params['*'] = samples['*'] ?? 'sweep/unknown-page';
        return params['*'];
      }
      if (!segment.startsWith(':')) return segment;
      const name = segment.slice(1).replace(/\?$/, '');
      params[name] = samples[name] ?? '01JSWEEP0000000000000SAMPLE';
      return params[name];
    })
    .join('/');
  return { path: path || '/', params };
}

function flatten(entries: ConfigEntry[], parent = ''): Omit<SweptRoute, 'module' | 'access'>[] {
  return entries.flatMap((entry) => {
    const joined = entry.path ? `${parent}/${entry.path}` : parent;
    const pattern = joined.replace(/\/+/g, '/') || '/';
    const id = entry.id ?? entry.file.replace(/\.[jt]sx?$/, '');
    const own = { id, file: entry.file, pattern, ...samplePath(pattern) };
    return [own, ...flatten(entry.children ?? [], joined)];
  });
}

/**
 * Every route of web/routes.ts without loading its module, for the browser sweeps (tests/e2e),
 * which must not pull the server code into the test runner: access by path alone, and a page is
 * a `.tsx` module (a resource route is `.ts`). routes.test.ts checks both against the modules.
 */
export function routeEntries(
  samples: Record<string, string> = {},
): (Omit<SweptRoute, 'module'> & { page: boolean })[] {
  return flatten(routes as ConfigEntry[]).map((route) => ({
    ...route,
    ...samplePath(route.pattern, samples),
    access: accessOf(route.pattern),
    page: route.file.endsWith('.tsx'),
  }));
}

/** Every route of web/routes.ts with its module loaded, in the order the table lists them. */
export async function routeTable(samples: Record<string, string> = {}): Promise<SweptRoute[]> {
  const flat = flatten(routes as ConfigEntry[]);
  return Promise.all(
    flat.map(async (route) => {
      const module = (await import(
        fileURLToPath(new URL(`../../web/${route.file}`, import.meta.url))
      )) as RouteModule;
      return {
        ...route,
        ...samplePath(route.pattern, samples),
        module,
        access: accessOf(route.pattern, module.handle),
      };
    }),
  );
}

/** The route with this pattern, which must still have an action (field-aware fuzzers use it). */
export function actionRoute(table: SweptRoute[], pattern: string): SweptRoute {
  const found = table.find((candidate) => candidate.pattern === pattern);
  if (!found?.module.action) throw new Error(`${pattern} is no longer an action in web/routes.ts`);
  return found;
}
