// Starts one in-memory DynamoDB Local for the whole test run; each worker makes its own table.
import type { TestProject } from 'vitest/node';
import { startDynamoDb } from '#scripts/local/dynamodb';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoDbEndpoint: string;
  }
}

export default async function setup(project: TestProject) {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const dynamo = await startDynamoDb();
  project.provide('dynamoDbEndpoint', dynamo.endpoint);
  return () => dynamo.stop();
}
