// For test files whose subject reads "the newest N" of something shared (articles, audiences):
// the file gets a table of its own, so other files' data neither adds to nor hides from what it
// checks, and its own data (dated as the tests need) never shows in other files' reads.
import { ulid } from 'ulid';
import { afterAll, beforeAll } from 'vitest';
import { config } from '#core/config';
import { ensureTable } from '#core/db';
import { flush } from '#core/logs';

export function useOwnTable(prefix: string): void {
  const settings = config() as { TABLE_NAME: string };
  let shared: string;
  beforeAll(async () => {
    await flush();
    shared = settings.TABLE_NAME;
    settings.TABLE_NAME = `${prefix}-${ulid().toLowerCase()}`;
    await ensureTable();
  });
  afterAll(async () => {
    await flush();
    settings.TABLE_NAME = shared;
  });
}
