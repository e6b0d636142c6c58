// The local web server in front of the real Remix build (npm test builds before the unit tests).
import { Agent } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  logsDuring,
  send,
  startLocalServer,
  type LocalServer,
} from '#tests/integration/local-server';
import { frontDoor } from '../../stacks/front-door';

let server: LocalServer;

/**
 * A request written byte for byte on a TCP socket, so its request line is exactly `target` (an
 * HTTP client would turn an absolute URL into a path); answers the status line's code and the body.
 */
function rawRequest(target: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(origin).port), '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const chunked = /^transfer-encoding: chunked$/im.test(head);
      // A chunked body's pieces, without their sizes (the size lines are the even lines).
      const pieces = body.split('\r\n').filter((_, index) => index % 2 === 1);
      resolve({ status: Number(head.split(' ')[1]), body: chunked ? pieces.join('') : body });
    });
    socket.write(`GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
  });
}
let origin: string;

beforeAll(async () => {
  server = await startLocalServer();
  origin = server.origin;
});
afterAll(() => server.stop());

describe('local web server', () => {
  it("serves the build's public files for a week and leaves every other path to the app", async () => {
    const favicon = await fetch(`${origin}/favicon.svg`);
    expect(favicon.status).toBe(200);
    expect(favicon.headers.get('cache-control')).toBe('public, max-age=604800');
    expect(await favicon.text()).toContain('<svg');
    const cover = await fetch(`${origin}/covers/grid.svg`);
    expect([cover.status, cover.headers.get('content-type')]).toEqual([200, 'image/svg+xml']);
    const missing = await fetch(`${origin}/covers/missing.svg`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('<title>');
    const app = await fetch(`${origin}/healthz`);
    expect([app.status, await app.text()]).toEqual([200, 'ok']);
  });

  it('answers a malformed percent-encoding with the branded 400 page and logs no error', async () => {
    const errors = vi.spyOn(console, 'error');
    const response = await fetch(`${origin}/a/%E0%A4%A`);
    const html = await response.text();
    expect(response.status).toBe(400);
    expect(html).toContain('<title>Bad request · Cluefeed</title>');
    expect(html).toMatch(/<h1>Bad request<\/h1>/);
    expect(html).toContain('class="site-header');
    expect(html).not.toMatch(/URIError|at decode_param/);
    expect(errors).not.toHaveBeenCalled();
  });

  it.each(['http://evil.example', 'null', 'not a url', 'http://127.0.0.1.evil.example'])(
    'refuses a write with the Origin %s at the front door with a 403, not a 500',
    async (foreign) => {
      const response = await fetch(`${origin}/a/some-audience`, {
        method: 'POST',
        headers: { Origin: foreign, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'email=reader%40example.org',
      });
      expect(response.status).toBe(403);
      expect(await response.text()).toBe('This request came from another site and was refused.');
    },
  );

  it('lets same-site writes, writes without an Origin and reads through to the app', async () => {
    const sameSite = await fetch(`${origin}/healthz`, {
      method: 'POST',
      headers: { Origin: origin },
    });
    const noOrigin = await fetch(`${origin}/healthz`, { method: 'POST' });
    const read = await fetch(`${origin}/healthz`, { headers: { Origin: 'http://evil.example' } });
    expect([sameSite.status, noOrigin.status, read.status]).toEqual([405, 405, 200]);
  });

  it('answers a method CloudFront does not forward with 405 and the methods it does', async () => {
    for (const method of ['TRACE', 'PROPFIND', 'MKCOL']) {
      const answer = await send(server, { method, path: '/' });
      expect(answer.status, method).toBe(405);
      expect(answer.headers.allow).toBe('DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT');
      expect(answer.body).toBe(`This site does not answer ${method} requests.`);
    }
  });

  it.each(['a b', '[::1', 'a:70000', 'evil.example@127.0.0.1', '127.0.0.1/x', '127.1', ''])(
    'answers the Host %j with a 400 that says so',
    async (host) => {
      const answer = await send(server, { path: '/login', headers: { Host: host } });
      expect(answer.status).toBe(400);
      expect(answer.body).toBe('The Host header does not name a host.');
    },
  );

  // (Node's own parser refuses a target such as `login` before Express sees it.)
  it.each(['http://evil.example/', 'http://127.0.0.1/login', '*', 'HTTP://EVIL.EXAMPLE'])(
    'answers the request target %j, which is not a path, with a 400 that says so',
    async (target) => {
      const { lines, consoleErrors } = await logsDuring(async () => {
        const answer = await rawRequest(target, server.host);
        expect(answer.status).toBe(400);
        expect(answer.body).toBe('The request target must be a path.');
      });
      expect(lines.filter((line) => line.level === 'error')).toEqual([]);
      expect(consoleErrors).toEqual([]);
    },
  );

  it('still answers a path sent on a raw socket (so the 400s above mean something)', async () => {
    const answer = await rawRequest('/healthz', server.host);
    expect([answer.status, answer.body]).toEqual([200, 'ok']);
  });

  it('builds the page from the Host, whatever X-Forwarded-Host says', async () => {
    for (const forwarded of ['a:70000', 'evil.example', '[::1', 'evil.example, other.example']) {
      const answer = await send(server, {
        path: '/login',
        headers: { 'X-Forwarded-Host': forwarded },
      });
      expect(answer.status, forwarded).toBe(200);
      expect(answer.body).toContain('<title>Sign in · Cluefeed</title>');
    }
  });

  it('lets a same-site write through to the app whatever X-Forwarded-Host names', async () => {
    const answer = await send(server, {
      method: 'POST',
      path: '/login',
      headers: {
        Origin: origin,
        'X-Forwarded-Host': 'evil.example',
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: 'email=',
    });
    // The action ran: it refused the empty sign-in.
    expect(answer.status).toBe(401);
    expect(answer.body).toContain('Access denied: Invalid credentials');
  });

  it('refuses a write whose Origin names the forwarded host instead of the Host', async () => {
    const answer = await send(server, {
      method: 'POST',
      path: '/login',
      headers: {
        Origin: 'http://evil.example',
        'X-Forwarded-Host': 'evil.example',
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: 'email=reader%40example.org',
    });
    expect(answer.status).toBe(403);
    expect(answer.body).toBe('This request came from another site and was refused.');
  });

  it('refuses a write to a Host in capitals at the front door, which Remix would answer with a 500', async () => {
    const host = server.host.replace('127.0.0.1', 'LOCALHOST');
    const answer = await send(server, {
      method: 'POST',
      path: '/login',
      headers: {
        Host: host,
        Origin: `http://${host}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: 'email=reader%40example.org',
    });
    expect(answer.status).toBe(403);
  });

  it('answers a body sent chunked past the limit with a 413 that says so, not a reset', async () => {
    const megabyte = Array.from({ length: 64 }, () => Buffer.alloc(16 * 1024, 'a'));
    const api = await send(server, {
      method: 'POST',
      path: '/api/events',
      headers: { 'Content-Type': 'application/json' },
      body: [Buffer.from('{"name":"'), ...megabyte],
    });
    expect(api.status).toBe(413);
    expect(JSON.parse(api.body)).toEqual({
      error: { code: 'request.too_large', message: 'The request body is too large' },
    });

    const form = await send(server, {
      method: 'POST',
      path: '/login',
      headers: { Origin: origin, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: [Buffer.from('email='), ...megabyte],
    });
    expect(form.status).toBe(413);
    expect(form.body).toContain('The request body is too large');
  });

  it('keeps a keep-alive connection usable after refusing a body past the limit', async () => {
    // One connection, kept open between requests as a browser keeps it.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const overLimit = [
      Buffer.from('email='),
      ...Array.from({ length: 4 }, () => Buffer.alloc(8192)),
    ];
    try {
      const chunked = await send(server, {
        method: 'POST',
        path: '/login',
        headers: { Origin: origin, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: overLimit,
        agent,
      });
      const declared = await send(server, {
        method: 'POST',
        path: '/login',
        headers: { Origin: origin, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: Buffer.concat(overLimit).toString(),
        agent,
      });
      const next = await send(server, { path: '/healthz', agent });

      expect([chunked.status, declared.status, next.status]).toEqual([413, 413, 200]);
      expect([declared.reusedSocket, next.reusedSocket]).toEqual([true, true]);
    } finally {
      agent.destroy();
    }
  });

  it("keeps an idle keep-alive connection open past Node's 5 s, so a paused client is not reset", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect((await send(server, { path: '/healthz', agent })).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      const after = await send(server, { path: '/healthz', agent });
      expect([after.status, after.reusedSocket]).toEqual([200, true]);
    } finally {
      agent.destroy();
    }
  });

  it('answers concurrent requests for a missing post each with the 404 page', async () => {
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => fetch(`${origin}/p/no-such-post-${Date.now()}`)),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(404));
  });

  it('logs requests it refused with a 4xx at info at most, and writes nothing to console.error', async () => {
    const { lines, consoleErrors } = await logsDuring(async () => {
      const statuses = [];
      for (const path of [
        '/?_data=routes/nope',
        '/?_data=routes/home',
        '/a/x?_data=routes/audience',
      ]) {
        statuses.push((await send(server, { path })).status);
      }
      statuses.push((await send(server, { method: 'OPTIONS', path: '/' })).status);
      statuses.push((await send(server, { method: 'DELETE', path: '/about' })).status);
      // A public page answers an old client's ?_data= with itself (it has no data route: ADR 35).
      expect(statuses).toEqual([403, 200, 404, 405, 405]);
    });
    expect(lines.filter((line) => line.level === 'error' || line.level === 'unparsed')).toEqual([]);
    expect(lines.filter((line) => line.message === 'Request refused').length).toBeGreaterThan(0);
    expect(consoleErrors).toEqual([]);
  });
});

describe('front door', () => {
  it("names the viewer's own address, over whatever address the client sent", () => {
    const request = {
      method: 'GET',
      headers: { 'x-viewer-address': { value: '198.51.100.7' }, host: { value: 'cluefeed.xyz' } },
    };
    expect(frontDoor(request, '203.0.113.9')).toBeUndefined();
    expect(request.headers['x-viewer-address']).toEqual({ value: '203.0.113.9' });
  });

  it('forwards the Host as the host, over whatever X-Forwarded-Host the client sent', () => {
    const request = {
      method: 'GET',
      headers: {
        host: { value: 'cluefeed.xyz' },
        'x-forwarded-host': { value: 'evil.example' },
      } as Record<string, { value: string }>,
    };
    expect(frontDoor(request, '203.0.113.9')).toBeUndefined();
    expect(request.headers['x-forwarded-host']).toEqual({ value: 'cluefeed.xyz' });
  });

  it('compares the Origin with the host the request was sent to', () => {
    const write = (origin: string, host = 'cluefeed.xyz') => ({
      method: 'POST',
      headers: { origin: { value: origin }, host: { value: host } },
    });
    expect(frontDoor(write('https://cluefeed.xyz'), '203.0.113.9')).toBeUndefined();
    expect(frontDoor(write('https://CLUEFEED.xyz'), '203.0.113.9')).toBeUndefined();
    expect(frontDoor(write('https://cluefeed.xyz:443'), '203.0.113.9')).toBeUndefined();
    expect(frontDoor(write('http://localhost:3000', 'localhost:3000'), '1.2.3.4')).toBeUndefined();
    for (const [foreign, host] of [
      ['https://cluefeed.xyz.evil.example', 'cluefeed.xyz'],
      ['https://cluefeed.xyz/path', 'cluefeed.xyz'],
      // Remix compares `new URL(origin).host` with the Host as written, so these would be 500s.
      ['https://cluefeed.xyz', 'CLUEFEED.xyz'],
      ['https://cluefeed.xyz:443', 'cluefeed.xyz:443'],
      ['http://localhost:03000', 'localhost:03000'],
    ]) {
      expect(
        frontDoor(write(foreign!, host), '203.0.113.9'),
        `${foreign} to ${host}`,
      ).toMatchObject({
        statusCode: 403,
      });
    }
  });
});
