// patches/@remix-run+server-runtime+*.patch, in both builds: the CommonJS one Node loads, the ESM
// one esbuild bundles into the Lambda (docs/performance.md).
// - A document request must not encode the loader data for the browser unless something reads
//   it: the runtime turbo-stream-encoded every document's data on every request, even when
//   web/entry.server.tsx answers with a public page's kept copy and renders nothing (17% of the
//   audience page's CPU under load). `serverHandoffStream` is a property encoded on first read.
// - A loader or action gets the request itself when there is no `index`, `_data` or `_routes`
//   parameter to strip: the runtime copied every request twice per route (about a quarter of
//   /healthz's CPU).
import { createRequire } from 'node:module';
import type { EntryContext, ServerBuild } from '@remix-run/server-runtime';
import { describe, expect, it } from 'vitest';
import { remixBuild } from '#tests/integration/remix-build';

const require = createRequire(import.meta.url);
type Runtime = {
  createRequestHandler: typeof import('@remix-run/server-runtime').createRequestHandler;
};
const BUILDS = [
  ['CommonJS', require('@remix-run/server-runtime') as Runtime],
  ['ESM', (await import('@remix-run/server-runtime/dist/esm/index.js' as string)) as Runtime],
] as const;

/** The requests the resource route's loader and action were handed. */
const handed: Request[] = [];
const resource = async ({ request }: { request: Request }) => {
  handed.push(request);
  return new Response('ok');
};

/** An app whose document entry hands its context to `seen`, with a resource route at /data. */
function app(seen: (context: EntryContext) => Promise<void> = async () => {}): ServerBuild {
  return remixBuild({
    entry: async (_request, status, headers, context) => {
      await seen(context);
      return new Response('<!doctype html><p>page</p>', { status, headers });
    },
    routes: {
      root: {
        id: 'root',
        path: '',
        module: { default: () => null, loader: () => ({ stories: ['one', 'two'] }) },
      },
      data: {
        id: 'data',
        parentId: 'root',
        path: 'data',
        module: { loader: resource, action: resource },
      },
    },
  });
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

describe.each(BUILDS)("a loader's or action's request (%s build)", (_name, runtime) => {
  const handler = runtime.createRequestHandler(app());

  it('is the request itself when there is no parameter to strip', async () => {
    handed.length = 0;
    const read = new Request('http://localhost/data?q=ethereum');
    const post = new Request('http://localhost/data', { method: 'POST', body: 'a=1' });
    expect((await handler(read)).status).toBe(200);
    expect((await handler(post)).status).toBe(200);
    expect(handed).toHaveLength(2);
    expect(handed[0]).toBe(read);
    expect(handed[1]).toBe(post);
    expect(await handed[1]!.text()).toBe('a=1');
  });

  it('is a copy without the parameters to strip when there are some, the others kept', async () => {
    handed.length = 0;
    const controller = new AbortController();
    const read = new Request('http://localhost/data?index&_routes=root&q=ethereum', {
      signal: controller.signal,
    });
    expect((await handler(read)).status).toBe(200);
    expect(handed).toHaveLength(1);
    expect(handed[0]).not.toBe(read);
    expect(new URL(handed[0]!.url).search).toBe('?q=ethereum');
    controller.abort();
    expect(handed[0]!.signal.aborted, 'the copy follows the request').toBe(true);
  });
});
