// The local web server in front of the real Remix build (npm test builds before the unit tests).
import type { Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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
});
