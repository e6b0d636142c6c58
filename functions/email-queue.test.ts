// A long run cannot delay a digest (issue 35, ADR 0058): with every jobs worker held by long
// chunks and more of them waiting in the jobs queue, a 200-reader daily digest is planned, queued
// and sent from the e-mail queue by its own worker, as on AWS and in `npm start`.
import { afterAll, describe, expect, inject, it } from 'vitest';
import * as v from 'valibot';
import { config } from '#core/config';
import * as Jobs from '#core/jobs';
import * as Newsletter from '#core/newsletter';
import * as Worker from '#core/worker';
import { startPoller } from '#scripts/local/jobs';
import { readMessages } from '#scripts/local/smtp-sink';
import { dailyWorld } from '#tests/integration/newsletter-world';
import { useOwnTable } from '#tests/integration/own-table';
import { handle } from './worker';

// Only this file's audience is an active daily one, so the digest goes to its 200 readers.
useOwnTable('email-queue');

const READERS = 200;
/**
 * The stated bound: every digest e-mail out within this long of the send being queued, on a
 * machine busy with the rest of the suite (26.5 s measured alone). Through the jobs queue they
 * would not go out at all while the long run holds it, which the test checks it still does.
 */
const DIGESTS_WITHIN_MS = 150_000;
/** Jobs workers (Lambda's cap, scaled down), and chunks: as many again wait in the queue. */
const JOBS_WORKERS = 2;
const LONG_CHUNKS = 6;

let release: () => void = () => {};
const released = new Promise<void>((resolve) => (release = resolve));
let chunksStarted = 0;

/** Scoring-like chunks that run until the test lets them end (or 15 minutes, Lambda's most). */
const longRun = Jobs.defineChunkedJob({
  name: 'test-long-run',
  title: 'Running long',
  input: v.object({}),
  plan: async () => Array.from({ length: LONG_CHUNKS }, (_, index) => index),
  async runChunk() {
    chunksStarted += 1;
    await Promise.race([released, new Promise((resolve) => setTimeout(resolve, 15 * 60_000))]);
    return { slept: 1 };
  },
});

const jobs: Jobs.JobRegistry = new Map([...Worker.jobs, [longRun.name, longRun]]);
const pollers: { stop(): Promise<void> }[] = [];

function startWorkers() {
  const endpoint = config().SQS_ENDPOINT!;
  const handler = (event: Parameters<typeof handle>[0]) => handle(event, jobs);
  pollers.push(
    startPoller({ endpoint, queueUrl: Jobs.queueUrl('jobs'), handler, concurrency: JOBS_WORKERS }),
    startPoller({
      endpoint,
      queueUrl: Jobs.queueUrl('email'),
      handler,
      concurrency: 2,
      name: 'cluefeed-email',
    }),
  );
}

async function until(ready: () => Promise<boolean> | boolean, withinMs: number) {
  const deadline = Date.now() + withinMs;
  while (!(await ready())) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return true;
}

afterAll(async () => {
  release();
  await Promise.all(pollers.map((poller) => poller.stop()));
});

describe('the e-mail queue', () => {
  it(`sends a ${READERS}-reader digest within ${DIGESTS_WITHIN_MS / 1000} s while long chunks hold every jobs worker`, async () => {
    expect(Jobs.queueUrl('email')).not.toBe(Jobs.queueUrl('jobs'));
    const { readers } = await dailyWorld(READERS);
    startWorkers();
    const long = await Jobs.enqueue(longRun, {}, 'admin-1');
    // Every jobs worker holds a long chunk, and the rest wait behind them.
    expect(await until(() => chunksStarted === JOBS_WORKERS, 30_000)).toBe(true);

    const queuedAt = Date.now();
    const send = await Jobs.enqueue(Newsletter.sendNewsletters, { frequency: 'daily' }, 'admin-1');
    const addresses = new Set(readers.map((reader) => reader.email));
    const digestsOut = async () => {
      const digests = (await readMessages(inject('mailDir'))).filter(
        (message) =>
          message.subject.startsWith('Your daily Cluefeed') &&
          message.to.some((to) => addresses.has(to)),
      );
      return new Set(digests.flatMap((message) => message.to)).size >= READERS;
    };
    expect(await until(digestsOut, DIGESTS_WITHIN_MS)).toBe(true);
    const tookMs = Date.now() - queuedAt;
    console.log(`${READERS} digests out in ${tookMs} ms with the jobs queue held`);

    // The chunk sends its e-mails before it checkpoints, so the send ends just after the last one.
    await expect
      .poll(async () => (await Jobs.byId(send.id))?.status, { timeout: 30_000 })
      .toBe('Success');
    // The long run still held the jobs workers the whole time: nothing of it has ended.
    expect(chunksStarted).toBe(JOBS_WORKERS);
    expect(await Jobs.byId(long.id)).toMatchObject({ status: 'Running', chunksDone: 0 });

    release();
    expect(await until(async () => (await Jobs.byId(long.id))?.status === 'Success', 30_000)).toBe(
      true,
    );
  }, 300_000);
});
