// Starts one in-memory DynamoDB Local, one SMTP sink and one fauxqs for the whole test run; each
// worker makes its own table and queue.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startDynamoDb } from '#scripts/local/dynamodb';
import { startQueue } from '#scripts/local/jobs';
import { startSmtpSink } from '#scripts/local/smtp-sink';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoDbEndpoint: string;
    smtpUrl: string;
    mailDir: string;
    sqsEndpoint: string;
  }
}

export default async function setup(project: TestProject) {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const mailDir = mkdtempSync(join(tmpdir(), 'cluefeed-mail-'));
  const [dynamo, sink, queue] = await Promise.all([
    startDynamoDb(),
    startSmtpSink({ dir: mailDir }),
    startQueue(),
  ]);
  project.provide('dynamoDbEndpoint', dynamo.endpoint);
  project.provide('smtpUrl', sink.url);
  project.provide('mailDir', mailDir);
  project.provide('sqsEndpoint', queue.endpoint);
  return async () => {
    await Promise.all([dynamo.stop(), sink.stop(), queue.stop()]);
  };
}
