// The one table definition: stacks/storage.ts hands it to sst.aws.Dynamo, and the local runtime
// and tests create the same table in DynamoDB Local from it.
import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

export const tableDefinition = {
  fields: { pk: 'string', sk: 'string', gsi1pk: 'string', gsi1sk: 'string' },
  primaryIndex: { hashKey: 'pk', rangeKey: 'sk' },
  globalIndexes: { gsi1: { hashKey: 'gsi1pk', rangeKey: 'gsi1sk' } },
  ttl: 'expiresAt',
} as const;

export function createTableInput(tableName: string): CreateTableCommandInput {
  const { fields, primaryIndex, globalIndexes } = tableDefinition;
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: Object.keys(fields).map((name) => ({
      AttributeName: name,
      AttributeType: 'S',
    })),
    KeySchema: [
      { AttributeName: primaryIndex.hashKey, KeyType: 'HASH' },
      { AttributeName: primaryIndex.rangeKey, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: Object.entries(globalIndexes).map(([name, index]) => ({
      IndexName: name,
      KeySchema: [
        { AttributeName: index.hashKey, KeyType: 'HASH' },
        { AttributeName: index.rangeKey, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    })),
  };
}
