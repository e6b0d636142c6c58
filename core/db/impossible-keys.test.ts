import { BatchGetCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import * as Ai from '#core/ai';
import * as Prompts from '#core/prompts';
import { db } from './client';
import { isImpossibleKey } from './impossible-keys';

describe('reads by a key longer than DynamoDB stores', () => {
  it('tells an impossible key by its bytes and the kind of key', () => {
    expect(isImpossibleKey({ pk: 'x'.repeat(2048), sk: 'y'.repeat(1024) })).toBe(false);
    expect(isImpossibleKey({ pk: 'x'.repeat(2049), sk: 'y' })).toBe(true);
    expect(isImpossibleKey({ pk: 'x', sk: 'y'.repeat(1025) })).toBe(true);
    expect(isImpossibleKey({ pk: { S: 'é'.repeat(1025) }, sk: { S: 'y' } })).toBe(true);
  });

  it('finds nothing instead of failing, one by one and in a batch', async () => {
    const { client, table } = db();
    const huge = 'x'.repeat(3000);
    const got = await client.send(new GetCommand({ TableName: table, Key: { pk: huge, sk: 'a' } }));
    expect(got.Item).toBeUndefined();
    const batch = await client.send(
      new BatchGetCommand({
        RequestItems: {
          [table]: {
            Keys: [
              { pk: huge, sk: 'a' },
              { pk: 'nothing-here', sk: 'a' },
            ],
          },
        },
      }),
    );
    expect(batch.Responses?.[table]).toEqual([]);
    await expect(Ai.byId(huge)).resolves.toBeUndefined();
    await expect(Prompts.byId(huge)).resolves.toBeUndefined();
  });
});
