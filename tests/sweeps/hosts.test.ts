// Host sweep: every public route of web/routes.ts through the local server (what CloudFront
// refuses itself, the front door, Express and the real build), with hostile Host,
// X-Forwarded-Host and Origin headers and methods the app does not take. No answer may be a 5xx
// or log an error; a write whose Origin is not the Host gets the front door's 403
// (docs/decisions/0013). Adding a route to web/routes.ts adds it here. Needs `npm run build`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  logsDuring,
  send,
  startLocalServer,
  type LocalServer,
  type RawAnswer,
} from '#tests/integration/local-server';
import { routeTable, samplePath, type SweptRoute } from '#tests/integration/route-table';
import { seedSweepWorld, type SweepWorld } from '#tests/integration/sweep-world';

const table = await routeTable();
const publicRoutes = table.filter((route) => route.access === 'public');
const writable = publicRoutes.filter((route) => route.module.action);

const REFUSED = 'This request came from another site and was refused.';
const FORWARDED_METHODS = 'DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT';
/** Host headers that name no host: a 400 before any code of ours runs. */
const MALFORMED_HOSTS = [
  'a b',
  '[::1',
  'a:70000',
  'evil.example@127.0.0.1',
  '127.0.0.1/x',
  '127.0.0.1:80:80',
  '%41.example',
  '',
];
/** What a client may claim in X-Forwarded-Host: ignored, the Host is the host. */
const FORWARDED_HOSTS = ['evil.example', 'a:70000', '[::1', 'evil.example, other.example', ' '];

let server: LocalServer;
let world: SweepWorld;
beforeAll(async () => {
  [server, world] = await Promise.all([startLocalServer(), seedSweepWorld()]);
});
afterAll(() => server.stop());

const pathOf = (route: SweptRoute) => encodeURI(samplePath(route.pattern, world.samples).path);

/** Origins that name another host than the one a write is sent to. */
function foreignOrigins(): string[] {
  const port = server.host.split(':')[1]!;
  return [
    'http://evil.example',
    'null',
    'not a url',
    `http://${server.host}.evil.example`,
    `http://evil.example:${port}`,
    `http://localhost:${port}`,
    'http://127.0.0.1',
    `${server.origin}/`,
  ];
}

/** Runs `requests`, then expects no 5xx among the answers and no error in the log. */
async function sweep(requests: () => Promise<[string, RawAnswer][]>): Promise<RawAnswer[]> {
  let answers: [string, RawAnswer][] = [];
  const { lines, consoleErrors } = await logsDuring(async () => {
    answers = await requests();
  });
  const failed = answers.filter(([, answer]) => answer.status >= 500);
  expect(failed.map(([what, answer]) => `${what} -> ${answer.status}`)).toEqual([]);
  expect(lines.filter((line) => line.level === 'error')).toEqual([]);
  expect(consoleErrors).toEqual([]);
  return answers.map(([, answer]) => answer);
}

describe('every public route, with hostile host headers', () => {
  it.each(publicRoutes.map((route) => [route.pattern, route] as const))(
    'GET %s',
    async (_pattern, route) => {
      const path = pathOf(route);
      const malformed: [string, RawAnswer][] = [];
      await sweep(async () => {
        const answers: [string, RawAnswer][] = [];
        for (const host of MALFORMED_HOSTS) {
          const answer = await send(server, { path, headers: { Host: host } });
          malformed.push([`Host ${JSON.stringify(host)}`, answer]);
          answers.push([`Host ${JSON.stringify(host)}`, answer]);
        }
        for (const forwarded of FORWARDED_HOSTS) {
          answers.push([
            `X-Forwarded-Host ${JSON.stringify(forwarded)}`,
            await send(server, { path, headers: { 'X-Forwarded-Host': forwarded } }),
          ]);
        }
        const capitals = server.host.replace('127.0.0.1', 'LOCALHOST');
        answers.push([
          `Host ${capitals}`,
          await send(server, { path, headers: { Host: capitals } }),
        ]);
        return answers;
      });
      for (const [what, answer] of malformed) {
        expect([answer.status, answer.body], what).toEqual([
          400,
          'The Host header does not name a host.',
        ]);
      }
    },
  );
});

describe('every public route, with methods it does not take', () => {
  it.each(publicRoutes.map((route) => [route.pattern, route] as const))(
    '%s',
    async (_pattern, route) => {
      const path = pathOf(route);
      const unknown: [string, RawAnswer][] = [];
      await sweep(async () => {
        const answers: [string, RawAnswer][] = [];
        for (const method of ['TRACE', 'PROPFIND', 'MKCOL']) {
          const answer = await send(server, { method, path });
          unknown.push([method, answer]);
          answers.push([method, answer]);
        }
        for (const method of ['OPTIONS', 'PUT', 'PATCH', 'DELETE']) {
          answers.push([method, await send(server, { method, path })]);
          answers.push([
            `${method} from this site`,
            await send(server, { method, path, headers: { Origin: server.origin } }),
          ]);
        }
        return answers;
      });
      for (const [method, answer] of unknown) {
        expect([answer.status, answer.headers.allow], method).toEqual([405, FORWARDED_METHODS]);
      }
    },
  );
});

describe('every public write, from another site', () => {
  const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
  const body = 'email=sweep%40example.org&intent=subscribe';

  it.each(writable.map((route) => [route.pattern, route] as const))(
    'POST %s',
    async (_pattern, route) => {
      const path = `${pathOf(route)}?subscriberHash=${encodeURIComponent(world.tokens.manage)}`;
      const capitals = server.host.replace('127.0.0.1', 'LOCALHOST');
      const foreign: [string, RawAnswer][] = [];
      let sameSite: RawAnswer | undefined;
      await sweep(async () => {
        for (const origin of foreignOrigins()) {
          foreign.push([
            `Origin ${origin}`,
            await send(server, {
              method: 'POST',
              path,
              headers: { ...form, Origin: origin },
              body,
            }),
          ]);
        }
        // Names the claimed host, not the one the request was sent to.
        foreign.push([
          'Origin and X-Forwarded-Host evil.example',
          await send(server, {
            method: 'POST',
            path,
            headers: { ...form, Origin: 'http://evil.example', 'X-Forwarded-Host': 'evil.example' },
            body,
          }),
        ]);
        // Remix compares `new URL(origin).host` with the Host as written: a 500 before.
        foreign.push([
          `Host ${capitals}`,
          await send(server, {
            method: 'POST',
            path,
            headers: { ...form, Host: capitals, Origin: `http://${capitals}` },
            body,
          }),
        ]);
        sameSite = await send(server, {
          method: 'POST',
          path,
          headers: { ...form, Origin: server.origin, 'X-Forwarded-Host': 'evil.example' },
          body,
        });
        return [...foreign, ['this site, with a foreign X-Forwarded-Host', sameSite]];
      });
      for (const [what, answer] of foreign) {
        expect([answer.status, answer.body], what).toEqual([403, REFUSED]);
      }
      // The same-site write reached the route, whatever X-Forwarded-Host claimed.
      expect(sameSite!.body).not.toBe(REFUSED);
    },
  );
});
