// A document request must not encode the loader data for the browser unless something reads it:
// @remix-run/server-runtime turbo-stream-encoded every document's data on every request, even
// when web/entry.server.tsx answers with a public page's kept copy and renders nothing (17% of the
// audience page's CPU under load). patches/@remix-run+server-runtime+*.patch makes
// `serverHandoffStream` a property encoded on first read (RemixServer reads it whenever it
// renders), in both builds: the CommonJS one Node loads, the ESM one esbuild bundles into the
// Lambda (docs/performance.md).
import { createRequire } from 'node:module';
import type { EntryContext, ServerBuild } from '@remix-run/server-runtime';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
type Runtime = {
  createRequestHandler: typeof import('@remix-run/server-runtime').createRequestHandler;
};
const BUILDS = [
  ['CommonJS', require('@remix-run/server-runtime') as Runtime],
  ['ESM', (await import('@remix-run/server-runtime/dist/esm/index.js' as string)) as Runtime],
] as const;

/** A one-route app whose document entry hands its context to `seen`. */
function app(seen: (context: EntryContext) => Promise<void>): ServerBuild {
  return {
    mode: 'production',
    entry: {
      module: {
        default: async (
          _request: Request,
          status: number,
          headers: Headers,
          context: EntryContext,
        ) => {
          await seen(context);
          return new Response('<!doctype html><p>page</p>', { status, headers });
        },
      },
    },
    routes: {
      root: {
        id: 'root',
        path: '',
        module: { default: () => null, loader: () => ({ stories: ['one', 'two'] }) },
      },
    },
    assets: {
      entry: { imports: [], module: '/entry.js' },
      routes: {},
      url: '/manifest.js',
      version: '1',
    },
    assetsBuildDirectory: 'build/client',
    publicPath: '/assets/',
    future: {
      v3_singleFetch: true,
      v3_fetcherPersist: true,
      v3_relativeSplatPath: true,
      v3_throwAbortReason: true,
      v3_lazyRouteDiscovery: true,
    },
    isSpaMode: false,
    basename: undefined,
    routeDiscovery: { mode: 'lazy', manifestPath: '/__manifest' },
  } as unknown as ServerBuild;
}

describe.each(BUILDS)('the browser handoff of a document request (%s build)', (_name, runtime) => {
  it('is encoded only when it is read', async () => {
    let descriptor: PropertyDescriptor | undefined;
    const handler = runtime.createRequestHandler(
      app(async (context) => {
        descriptor = Object.getOwnPropertyDescriptor(context, 'serverHandoffStream');
      }),
    );
    const response = await handler(new Request('http://localhost/'));
    expect(response.status).toBe(200);
    expect(descriptor?.get, 'a property made on first read').toBeTypeOf('function');
    expect(descriptor).not.toHaveProperty('value');
  });

  it('holds the loader data when read, the same stream on every read', async () => {
    let text = '';
    const handler = runtime.createRequestHandler(
      app(async (context) => {
        const stream = context.serverHandoffStream!;
        expect(context.serverHandoffStream).toBe(stream);
        text = await new Response(stream).text();
      }),
    );
    await handler(new Request('http://localhost/'));
    expect(text).toContain('stories');
    expect(text).toContain('two');
  });
});
