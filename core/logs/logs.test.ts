import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it, vi } from 'vitest';
import { ulid } from 'ulid';
import { db } from '#core/db';
import * as Logs from '#core/logs';

const today = () => new Date().toISOString().slice(0, 10);
const quietly = <T>(work: () => T): T => {
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    return work();
  } finally {
    stdout.mockRestore();
  }
};

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

  it('spreads a day over its shards and reads them back merged in time order', async () => {
    const marker = ulid();
    quietly(() => {
      for (let i = 0; i < 12; i++) Logs.logger.info(`spread ${i} ${marker}`);
    });
    await Logs.flush();
    const perShard = await Promise.all(
      Array.from({ length: Logs.LOG_SHARDS }, async (_, shard) => {
        const { data } = await Logs.LogEntryEntity.query
          .byDay({ day: today(), shard })
          .go({ pages: 'all' });
        return data.filter((entry) => entry.message.endsWith(marker)).length;
      }),
    );
    expect(perShard.filter((count) => count > 0).length).toBe(Logs.LOG_SHARDS);
    expect(perShard.reduce((a, b) => a + b, 0)).toBe(12);
    const mine = (await Logs.forDay(today(), 10_000)).filter((e) => e.message.endsWith(marker));
    expect(mine.map((entry) => entry.message)).toEqual(
      Array.from({ length: 12 }, (_, i) => `spread ${i} ${marker}`),
    );
    const lastThree = await Logs.forDay(today(), 3);
    expect(lastThree.map((entry) => entry.message)).toEqual([
      `spread 9 ${marker}`,
      `spread 10 ${marker}`,
      `spread 11 ${marker}`,
    ]);
  });

  it('retries the lines DynamoDB leaves unprocessed', async () => {
    const { client, table } = db();
    const send = client.send.bind(client);
    let throttled = 0;
    const spy = vi.spyOn(client, 'send').mockImplementation((async (command: unknown) => {
      if (command instanceof BatchWriteCommand && throttled < 2) {
        // Store only the first line and hand the rest back, as a throttled table does.
        throttled++;
        const [first, ...rest] = command.input.RequestItems![table]!;
        await send(new BatchWriteCommand({ RequestItems: { [table]: [first!] } }));
        return { UnprocessedItems: { [table]: rest } };
      }
      return send(command as never);
    }) as never);
    const marker = ulid();
    try {
      quietly(() => {
        for (let i = 0; i < 5; i++) Logs.logger.info(`retried ${i} ${marker}`);
      });
      await Logs.flush();
    } finally {
      spy.mockRestore();
    }
    expect(throttled).toBe(2);
    const stored = (await Logs.forDay(today(), 10_000)).filter((e) => e.message.endsWith(marker));
    expect(stored.map((entry) => entry.message)).toEqual(
      Array.from({ length: 5 }, (_, i) => `retried ${i} ${marker}`),
    );
  });
});
