import { describe, expect, it, vi } from 'vitest';
import { ulid } from 'ulid';
import * as Logs from '#core/logs';
import { storesLogs, storingLogs } from './resource-route.server';

const today = () => new Date().toISOString().slice(0, 10);

describe('storingLogs', () => {
  it("stores the request's log lines by the time a resource route has answered", async () => {
    const marker = ulid();
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const loader = storingLogs(async () => {
      Logs.logger.info(`resource ${marker}`);
      return new Response('ok');
    });
    try {
      const response = await loader();
      expect(await response.text()).toBe('ok');
    } finally {
      stdout.mockRestore();
    }
    const lines = await Logs.forDay(today(), 500);
    expect(lines.map((line) => line.message)).toContain(`resource ${marker}`);
    expect(storesLogs(loader)).toBe(true);
    expect(storesLogs(() => new Response('ok'))).toBe(false);
  });

  it('stores the lines of a handler that throws, and throws the same error', async () => {
    const marker = ulid();
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const refusal = new Response('no', { status: 403 });
    const action = storingLogs(() => {
      Logs.logger.info(`refused ${marker}`);
      throw refusal;
    });
    try {
      await expect(action()).rejects.toBe(refusal);
    } finally {
      stdout.mockRestore();
    }
    const lines = await Logs.forDay(today(), 500);
    expect(lines.map((line) => line.message)).toContain(`refused ${marker}`);
  });
});
