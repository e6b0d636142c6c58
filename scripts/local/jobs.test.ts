// The local poller against a real fauxqs queue: messages are handled in parallel, one per call.
import { spawn } from 'node:child_process';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isGoneLocalWorker,
  localWorkerName,
  POLLER_CONCURRENCY,
  startPoller,
  startQueue,
} from './jobs';

let queue: Awaited<ReturnType<typeof startQueue>>;

beforeAll(async () => {
  queue = await startQueue();
});
afterAll(async () => {
  await queue.stop();
});

describe('local job poller', () => {
  it('handles several messages at once, one message per call like the Lambda worker', async () => {
    const sqs = new SQSClient({
      endpoint: queue.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      useQueueUrlAsEndpoint: false,
    });
    await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queue.queueUrl,
        Entries: Array.from({ length: POLLER_CONCURRENCY }, (_, chunk) => ({
          Id: String(chunk),
          MessageBody: JSON.stringify({ processId: 'p1', chunk }),
        })),
      }),
    );
    sqs.destroy();

    let inFlight = 0;
    let mostAtOnce = 0;
    const batchSizes: number[] = [];
    let releaseAll!: () => void;
    const allStarted = new Promise<void>((resolve) => (releaseAll = resolve));
    const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
      batchSizes.push(event.Records.length);
      inFlight++;
      mostAtOnce = Math.max(mostAtOnce, inFlight);
      if (mostAtOnce === POLLER_CONCURRENCY) releaseAll();
      // Each call waits until every message is being handled: only parallel calls get there.
      await Promise.race([allStarted, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      inFlight--;
      return { batchItemFailures: [] };
    };
    const poller = startPoller({ endpoint: queue.endpoint, queueUrl: queue.queueUrl, handler });
    await expect.poll(() => batchSizes.length, { timeout: 10_000 }).toBe(POLLER_CONCURRENCY);
    await poller.stop();
    expect(mostAtOnce).toBe(POLLER_CONCURRENCY);
    expect(batchSizes.every((size) => size === 1)).toBe(true);
  });
});

describe("a local run's worker names", () => {
  it('tell a worker of a stopped run from one of a run still alive', async () => {
    const current = localWorkerName();
    const ended = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => ended.once('exit', resolve));
    const alive = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
    try {
      expect(isGoneLocalWorker(localWorkerName(ended.pid!), current)).toBe(true);
      // A run before this one under the same pid (the pid is this run's now).
      expect(isGoneLocalWorker(localWorkerName(process.pid, new Date(0)), current)).toBe(true);
      expect(isGoneLocalWorker(localWorkerName(alive.pid!), current)).toBe(false);
      expect(isGoneLocalWorker(current, current)).toBe(false);
      expect(
        isGoneLocalWorker(`local elsewhere ${ended.pid} 2026-01-01T00:00:00.000Z`, current),
      ).toBe(false);
      expect(isGoneLocalWorker('a Lambda', current)).toBe(false);
    } finally {
      alive.kill();
    }
  });
});
