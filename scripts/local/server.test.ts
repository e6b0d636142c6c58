// The local web server in front of the real Remix build (npm test builds before the unit tests).
import type { Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { frontDoor } from '../../stacks/front-door';
import { freePort } from './net';
import { startWebServer } from './server';

const root = join(import.meta.dirname, '..', '..');
let server: Server;
let origin: string;

beforeAll(async () => {
  const port = await freePort();
  server = await startWebServer({ buildDir: join(root, 'build'), port });
  origin = `http://127.0.0.1:${port}`;
});
afterAll(() => {
  server.close();
  server.closeAllConnections();
});

describe('local web server', () => {
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

  it('compares the Origin with the host the request was sent to', () => {
    const write = (origin: string, host = 'cluefeed.xyz') => ({
      method: 'POST',
      headers: { origin: { value: origin }, host: { value: host } },
    });
    expect(frontDoor(write('https://cluefeed.xyz'), '203.0.113.9')).toBeUndefined();
    expect(frontDoor(write('https://CLUEFEED.xyz'), '203.0.113.9')).toBeUndefined();
    expect(frontDoor(write('https://cluefeed.xyz.evil.example'), '203.0.113.9')).toMatchObject({
      statusCode: 403,
    });
    expect(frontDoor(write('https://cluefeed.xyz/path'), '203.0.113.9')).toMatchObject({
      statusCode: 403,
    });
  });
});
