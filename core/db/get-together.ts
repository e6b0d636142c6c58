// Items of different entities read in one call: a consistent BatchGetItem of their keys, each
// answer parsed by its own entity. Used where a request needs items it can name at once (a
// reader's session and the reader), so it pays one round trip instead of one per item.
import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { db } from './client';

type Item = Record<string, unknown>;

/** One item to read: its key as stored, and how its entity reads the stored item. */
export type ItemRead<T> = { key: Item; parse: (item: Item) => T | undefined };

/** Reads every item consistently in one BatchGetItem (and its unprocessed rest); missing ones are undefined. */
export async function getTogether<T extends unknown[]>(
  ...reads: { [I in keyof T]: ItemRead<T[I]> }
): Promise<{ [I in keyof T]: T[I] | undefined }> {
  const { client, table } = db();
  const found: Item[] = [];
  let pending = reads.map(({ key }) => key);
  for (let attempt = 1; pending.length > 0; attempt++) {
    if (attempt > 5) throw new Error(`Could not read ${pending.length} item(s) after 5 attempts`);
    if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
    const answer = await client.send(
      new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: true } } }),
    );
    found.push(...(answer.Responses?.[table] ?? []));
    pending = (answer.UnprocessedKeys?.[table]?.Keys ?? []) as Item[];
  }
  const sameKey = (item: Item, key: Item) =>
    Object.entries(key).every(([name, value]) => item[name] === value);
  return reads.map(({ key, parse }) => {
    const item = found.find((one) => sameKey(one, key));
    return item ? parse(item) : undefined;
  }) as { [I in keyof T]: T[I] | undefined };
}
