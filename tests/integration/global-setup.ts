// Starts one in-memory DynamoDB Local and one SMTP sink for the whole test run; each worker makes
// its own table.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startDynamoDb } from '#scripts/local/dynamodb';
import { startSmtpSink } from '#scripts/local/smtp-sink';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoDbEndpoint: string;
    smtpUrl: string;
    mailDir: string;
  }
}

export default async function setup(project: TestProject) {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const mailDir = mkdtempSync(join(tmpdir(), 'cluefeed-mail-'));
  const [dynamo, sink] = await Promise.all([startDynamoDb(), startSmtpSink({ dir: mailDir })]);
  project.provide('dynamoDbEndpoint', dynamo.endpoint);
  project.provide('smtpUrl', sink.url);
  project.provide('mailDir', mailDir);
  return async () => {
    await Promise.all([dynamo.stop(), sink.stop()]);
  };
}
