import { describe, expect, it, vi } from 'vitest';
import { ulid } from 'ulid';
import * as Logs from '#core/logs';
import { handleDataRequest } from '#web/entry.server';

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
