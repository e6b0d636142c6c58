// The request the Remix build is handed by the local web server: its URL, headers and body, and
// an action's signal, which aborts when the visitor goes away before the answer; a read's does not
// (a signal for every request was a measurable share of a small request's CPU).
import type { Server } from 'node:http';
import { request as httpRequest } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remixRequest } from './remix-handler';

const handed: Request[] = [];
/** How many answers the server saw closed: written whole, or their connection gone. */
let closedAnswers = 0;
let answered: () => void = () => {};
let server: Server;
let port: number;

beforeAll(async () => {
  const app = express();
  app.use(async (req, res) => {
    const request = remixRequest(req, res);
    handed.push(request);
    res.on('close', () => closedAnswers++);
    if (req.path === '/slow') await new Promise<void>((resolve) => (answered = resolve));
    res.end(request.body ? await request.text() : 'no body');
  });
  server = await new Promise<Server>((resolve) => {
    const started = app.listen(0, '127.0.0.1', () => resolve(started));
  });
  port = (server.address() as { port: number }).port;
});
afterAll(() => server.close());

describe("the local web server's request to the app", () => {
  it('has the URL the visitor asked for, every header, and no body for a read', async () => {
    handed.length = 0;
    const answer = await fetch(`http://127.0.0.1:${port}/a/defi?page=2`, {
      headers: { Accept: 'text/html', 'X-Clue': 'one' },
    });
    expect(await answer.text()).toBe('no body');
    const request = handed[0]!;
    expect(request.method).toBe('GET');
    expect(request.url).toBe(`http://127.0.0.1:${port}/a/defi?page=2`);
    expect(request.headers.get('accept')).toBe('text/html');
    expect(request.headers.get('x-clue')).toBe('one');
  });

  it("carries an action's body", async () => {
    handed.length = 0;
    const answer = await fetch(`http://127.0.0.1:${port}/subscribe`, {
      method: 'POST',
      body: 'email=reader%40example.com',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(await answer.text()).toBe('email=reader%40example.com');
    expect(handed[0]!.method).toBe('POST');
  });

  it("aborts an action's signal when the visitor goes away before the answer", async () => {
    handed.length = 0;
    const sent = httpRequest({ port, host: '127.0.0.1', path: '/slow', method: 'POST' });
    sent.on('error', () => {}); // The connection is dropped on purpose.
    sent.end('clue=defi');
    await expect.poll(() => handed.length).toBe(1);
    expect(handed[0]!.signal.aborted).toBe(false);
    sent.destroy();
    await expect.poll(() => handed[0]!.signal.aborted).toBe(true);
    answered();
  });

  it("leaves a read's signal alone when its visitor goes away: the read runs to its end", async () => {
    handed.length = 0;
    const sent = httpRequest({ port, host: '127.0.0.1', path: '/slow', method: 'GET' });
    sent.on('error', () => {}); // The connection is dropped on purpose.
    sent.end();
    await expect.poll(() => handed.length).toBe(1);
    const closedBefore = closedAnswers;
    sent.destroy();
    await expect.poll(() => closedAnswers).toBe(closedBefore + 1);
    expect(handed[0]!.signal.aborted).toBe(false);
    answered();
  });

  it("leaves an action's signal alone once its answer is written", async () => {
    handed.length = 0;
    await (await fetch(`http://127.0.0.1:${port}/subscribe`, { method: 'POST', body: 'a' })).text();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(handed[0]!.signal.aborted).toBe(false);
  });
});
