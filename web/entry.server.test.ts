import { UNSAFE_ErrorResponseImpl as ErrorResponseImpl } from '@remix-run/router';
import { describe, expect, it, vi } from 'vitest';
import { ulid } from 'ulid';
import * as Logs from '#core/logs';
import { handleDataRequest, handleError } from '#web/entry.server';

const today = () => new Date().toISOString().slice(0, 10);
/** Logs a line whose timed flush never fires: only the request's own flush can store it. */
function logWithoutTimedFlush(message: string) {
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  try {
    Logs.logger.info(message);
  } finally {
    vi.useRealTimers();
    stdout.mockRestore();
  }
}
const stored = async (marker: string) =>
  (await Logs.forDay(today(), 10_000)).filter((entry) => entry.message.includes(marker));

describe('server entry', () => {
  it("stores a request's log lines by the time its response is read, without a worker flush", async () => {
    const marker = ulid();
    logWithoutTimedFlush(`loader ran ${marker}`);
    const request = new Request('http://localhost/a/x.data');
    const response = await handleDataRequest(new Response('{"ok":true}', { status: 202 }), {
      request,
      params: {},
      context: {},
    });
    expect(response.status).toBe(202);
    expect(await response.text()).toBe('{"ok":true}');
    expect((await stored(marker)).map((entry) => entry.message)).toEqual([`loader ran ${marker}`]);
  });

  it('stores them for a response without a body too', async () => {
    const marker = ulid();
    logWithoutTimedFlush(`redirected ${marker}`);
    const response = await handleDataRequest(
      new Response(null, { status: 204, headers: { 'X-Remix-Redirect': '/' } }),
      { request: new Request('http://localhost/x.data'), params: {}, context: {} },
    );
    expect(response.headers.get('X-Remix-Redirect')).toBe('/');
    await response.arrayBuffer();
    expect(await stored(marker)).toHaveLength(1);
  });
});

describe('the log line of a failed request', () => {
  /** The level and message of each line `handleError` writes for `error`. */
  function loggedFor(error: unknown, url = 'http://localhost/a/x') {
    const lines: { level: string; message: string; status?: number }[] = [];
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      lines.push(JSON.parse(String(chunk)) as (typeof lines)[number]);
      return true;
    });
    try {
      handleError(error, { request: new Request(url), params: {}, context: {} });
    } finally {
      stdout.mockRestore();
    }
    return lines.map(({ level, message, status }) => ({ level, message, status }));
  }
  /** What Remix hands over when it refuses a request itself (an ErrorResponse). */
  const refusal = (status: number, statusText: string) => ({
    status,
    statusText,
    internal: true,
    data: `Error: refused with ${status}`,
  });

  it('is info for a request Remix refused with a 4xx: the client asked for something wrong', () => {
    expect(loggedFor(refusal(405, 'Method Not Allowed'))).toEqual([
      { level: 'info', message: 'Request refused', status: 405 },
    ]);
    expect(loggedFor(refusal(404, 'Not Found'), 'http://localhost/?_data=routes/nope')).toEqual([
      { level: 'info', message: 'Request refused', status: 404 },
    ]);
  });

  it("is debug for Remix's notice that a client used the old ?_data= protocol", () => {
    const notice = new Error(
      'Warning: Single fetch-enabled apps should not be making ?_data requests, this is likely to break in the future',
    );
    expect(loggedFor(notice, 'http://localhost/?_data=root')).toEqual([
      { level: 'debug', message: 'Request in the old data protocol', status: undefined },
    ]);
  });

  it('stays an error for a thrown error and for a 5xx', () => {
    expect(loggedFor(new TypeError("Cannot read properties of undefined (reading '0')"))).toEqual([
      { level: 'error', message: 'Request failed', status: undefined },
    ]);
    expect(loggedFor(refusal(500, 'Internal Server Error'))).toEqual([
      { level: 'error', message: 'Request failed', status: undefined },
    ]);
  });
});

describe('the log line of a request to a private feed', () => {
  it("never carries the feed's key or a vote link's signature", () => {
    const key = `cff_${'0'.repeat(26)}_${'k'.repeat(43)}`;
    const lines: string[] = [];
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      for (const url of [
        `http://localhost/reader-feed/${key}/feed.xml?rating=Very%20Relevant`,
        `http://localhost/reader-feed/vote?reader=R&story=S&kind=like&signature=${'s'.repeat(43)}`,
      ]) {
        handleError(new Error('boom'), { request: new Request(url), params: {}, context: {} });
      }
    } finally {
      stdout.mockRestore();
    }
    const urls = lines.map((line) => (JSON.parse(line) as { url: string }).url);
    expect(urls).toEqual([
      'http://localhost/reader-feed/[redacted]/feed.xml?rating=Very%20Relevant',
      'http://localhost/reader-feed/vote?reader=R&story=S&kind=like&signature=%5Bredacted%5D',
    ]);
    expect(lines.join('')).not.toContain('k'.repeat(43));
    expect(lines.join('')).not.toContain('s'.repeat(43));
  });

  it("never carries the feed's key in the reason of a request Remix refused", () => {
    const key = `cff_${'0'.repeat(26)}_${'k'.repeat(43)}`;
    const lines: string[] = [];
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      const refused = new ErrorResponseImpl(
        404,
        'Not Found',
        `Error: No route matches URL "/reader-feed/${key}/feed.xml"`,
      );
      handleError(refused, {
        request: new Request(`http://localhost/reader-feed/${key}/feed.xml`),
        params: {},
        context: {},
      });
    } finally {
      stdout.mockRestore();
    }
    expect(lines.join('')).toContain('/reader-feed/[redacted]/feed.xml');
    expect(lines.join('')).not.toContain('k'.repeat(43));
  });
});
