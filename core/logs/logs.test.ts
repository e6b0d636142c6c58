import { describe, expect, it, vi } from 'vitest';
import { ulid } from 'ulid';
import * as Logs from '#core/logs';

describe('logger', () => {
  it('writes a JSON line to stdout and the same line to the day in the table', async () => {
    const marker = ulid();
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    Logs.logger.child({ job: 'test' }).info(`hello ${marker}`, { count: 2 });
    Logs.logger.error(`failed ${marker}`, { error: new Error('boom') });
    const printed = stdout.mock.calls.map(([line]) => JSON.parse(String(line)));
    stdout.mockRestore();
    expect(printed[0]).toMatchObject({
      level: 'info',
      message: `hello ${marker}`,
      job: 'test',
      count: 2,
    });
    expect(printed[1]).toMatchObject({ level: 'error', error: { name: 'Error', message: 'boom' } });
    await Logs.flush();
    const today = new Date().toISOString().slice(0, 10);
    const stored = (await Logs.forDay(today, 1000)).filter((entry) =>
      entry.message.includes(marker),
    );
    expect(stored.map((entry) => [entry.level, entry.message])).toEqual([
      ['info', `hello ${marker}`],
      ['error', `failed ${marker}`],
    ]);
    expect(stored[0]!.expiresAt).toBeGreaterThan(Date.now() / 1000 + 29 * 86_400);
  });

  it('answers the last N lines of a day, oldest first', async () => {
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const marker = ulid();
    for (let i = 0; i < 5; i++) Logs.logger.debug(`line ${i} ${marker}`);
    stdout.mockRestore();
    await Logs.flush();
    const today = new Date().toISOString().slice(0, 10);
    const last = await Logs.forDay(today, 2);
    expect(last.map((entry) => entry.message)).toEqual([`line 3 ${marker}`, `line 4 ${marker}`]);
    expect(await Logs.forDay('2001-01-01', 10)).toEqual([]);
  });
});
