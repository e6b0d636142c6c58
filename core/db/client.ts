// DynamoDB clients: the same AWS SDK everywhere; locally only the endpoint differs.
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '#core/config';
import { findNothingByImpossibleKeys } from './impossible-keys';
import { countCallsOf } from './storage-calls';
import { createTableInput, tableDefinition } from './table';

let documentClient: DynamoDBDocumentClient | undefined;

export function db(): { client: DynamoDBDocumentClient; table: string } {
  const { DYNAMODB_ENDPOINT, AWS_REGION, TABLE_NAME } = config();
  if (!documentClient) {
    const raw = new DynamoDBClient({
      region: AWS_REGION,
      ...(DYNAMODB_ENDPOINT && {
        endpoint: DYNAMODB_ENDPOINT,
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      }),
    });
    countCallsOf('dynamodb', raw.middlewareStack);
    withoutSdkLogging(raw.middlewareStack);
    findNothingByImpossibleKeys(raw.middlewareStack);
    documentClient = DynamoDBDocumentClient.from(raw, {
      marshallOptions: { removeUndefinedValues: true },
    });
  }
  return { client: documentClient, table: TABLE_NAME };
}

/**
 * Takes the SDK's logging step out of a client. Its logger logs nothing here, but the step still
 * copied every request and answer to hide their sensitive fields: 1.5% of the worker's CPU.
 */
export function withoutSdkLogging(stack: { remove(name: string): boolean }): void {
  stack.remove('loggerMiddleware');
}

/** Creates the table when it is missing (local runtime and tests; on AWS, SST owns the table). */
export async function ensureTable(): Promise<'created' | 'exists'> {
  const { client, table } = db();
  try {
    await client.send(new DescribeTableCommand({ TableName: table }));
    return 'exists';
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  await client.send(new CreateTableCommand(createTableInput(table)));
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: table,
      TimeToLiveSpecification: { AttributeName: tableDefinition.ttl, Enabled: true },
    }),
  );
  return 'created';
}
