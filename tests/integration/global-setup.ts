// Starts one in-memory DynamoDB Local, one SMTP sink and one fauxqs for the whole test run; each
// worker makes its own table and queue.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProvidedContext } from 'vitest';
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

type Shared = { services: Promise<ProvidedContext>; stop: () => Promise<void>; users: number };

/**
 * Both Vitest projects (vitest.config.ts) call this in the one main process: the first starts the
 * services, the others use them, and the last to finish stops them.
 */
const shared = globalThis as typeof globalThis & { cluefeedTestServices?: Shared };

function startServices(): Shared {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const mailDir = mkdtempSync(join(tmpdir(), 'cluefeed-mail-'));
  const started = Promise.all([startDynamoDb(), startSmtpSink({ dir: mailDir }), startQueue()]);
  return {
    users: 0,
    services: started.then(([dynamo, sink, queue]) => ({
      dynamoDbEndpoint: dynamo.endpoint,
      smtpUrl: sink.url,
      mailDir,
      sqsEndpoint: queue.endpoint,
    })),
    stop: async () => {
      const [dynamo, sink, queue] = await started;
      await Promise.all([dynamo.stop(), sink.stop(), queue.stop()]);
    },
  };
}

export default async function setup(project: TestProject) {
  const services = (shared.cluefeedTestServices ??= startServices());
  services.users += 1;
  const provided = await services.services;
  for (const key of Object.keys(provided) as (keyof ProvidedContext)[])
    project.provide(key, provided[key]);
  return async () => {
    services.users -= 1;
    if (services.users > 0) return;
    shared.cluefeedTestServices = undefined;
    await services.stop();
  };
}
