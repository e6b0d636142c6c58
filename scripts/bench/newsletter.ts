// npm run bench:newsletter: a daily issue to BENCH_SUBSCRIBERS confirmed subscribers through the
// real pipeline ('Send newsletters' enqueued, the worker process polling fauxqs with npm start's
// concurrency, chunks, the outbox's claim, send-rate slot, SMTP send and settle), timed from the
// enqueue until the SMTP sink holds every issue; then, in the same run and to the same sink, a raw
// nodemailer loop (one pooled transport, one message at a time) sending as many messages of the
// same size (one real digest, rendered once). Prints both rates, their ratio (target >= 0.7) and
// the worker's peak memory. Exits 1 when a subscriber got no issue or more than one.
//   BENCH_SUBSCRIBERS=5000   subscribers of the audience
//   BENCH_SEND_RATE=1000     SEND_RATE for the worker (the highest allowed: not what is measured)
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { decodeTime } from 'ulid';
import { startDynamoDb } from '../local/dynamodb';
import { POLLER_CONCURRENCY, startQueue } from '../local/jobs';
import { startSmtpSink } from '../local/smtp-sink';
import { envNumber, onCleanup, ROOT, runBench, table } from './lib';

const SUBSCRIBERS = Math.floor(envNumber('BENCH_SUBSCRIBERS', 5000));
const SEND_RATE = Math.floor(envNumber('BENCH_SEND_RATE', 1000));
const TABLE_NAME = 'cluefeed-bench-newsletter';
const TARGET_RATIO = 0.7;
const TIMEOUT_MS = 20 * 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const perSecond = (count: number, ms: number) => count / (ms / 1000);
const kib = (text: string) => (Buffer.byteLength(text) / 1024).toFixed(1);
const mib = (kib: number) => `${(kib / 1024).toFixed(0)} MiB`;

/** The worker's resident memory now and at its peak (kB), from /proc. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1]);
  return { rss: field('VmRSS'), peak: field('VmHWM') };
}

function startWorker(env: Record<string, string>): Promise<ChildProcess> {
  // BENCH_WORKER_NODE_ARGS, e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof', profiles the worker.
  const nodeArgs = (process.env.BENCH_WORKER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(
    process.execPath,
    [...nodeArgs, '--import', 'tsx', 'scripts/local/worker-process.ts'],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } },
  );
  onCleanup(
    async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
    () => child.kill('SIGKILL'),
  );
  return new Promise((resolve, reject) => {
    // Its log lines (one JSON line per job step) are read and dropped; the first says it polls.
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line === 'worker ready') resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`The worker exited (${code}) before polling`)));
  });
}

async function main(): Promise<number> {
  console.error('Starting DynamoDB Local (in memory), fauxqs and an SMTP sink...');
  const mailDir = await mkdtemp(join(tmpdir(), 'cluefeed-bench-newsletter-'));
  onCleanup(() => rm(mailDir, { recursive: true, force: true }));
  const received: string[] = [];
  const [dynamo, queue, sink] = await Promise.all([
    startDynamoDb(),
    startQueue(),
    startSmtpSink({ dir: mailDir, onMessage: (message) => received.push(...message.to) }),
  ]);
  onCleanup(
    () => dynamo.stop(),
    () => dynamo.process.kill('SIGKILL'),
  );
  onCleanup(() => queue.stop());
  onCleanup(() => sink.stop());
  const env = {
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    TABLE_NAME,
    SQS_ENDPOINT: queue.endpoint,
    JOBS_QUEUE_URL: queue.queueUrl,
    SMTP_URL: sink.url,
    SEND_RATE: String(SEND_RATE),
    APP_SECRET: randomBytes(20).toString('hex'),
    NODE_ENV: 'development',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
  // core/config reads the environment once, on first use: set it before core is loaded.
  Object.assign(process.env, env);
  const [{ ensureTable }, { config }, Jobs, Newsletter, Subscribers, { smtpMailer }, World] =
    await Promise.all([
      import('#core/db'),
      import('#core/config'),
      import('#core/jobs'),
      import('#core/newsletter'),
      import('#core/subscribers'),
      import('#core/mail'),
      import('#tests/integration/newsletter-world'),
    ]);
  await ensureTable();
  console.error(`Writing ${SUBSCRIBERS} confirmed subscribers of one daily audience...`);
  const { readers } = await World.dailyWorld(SUBSCRIBERS);

  const worker = await startWorker(env);
  let peakSampled = 0;
  const sampler = setInterval(() => {
    peakSampled = Math.max(peakSampled, memoryOf(worker.pid!).rss);
  }, 100);
  onCleanup(async () => clearInterval(sampler));

  // (1) The pipeline: from the enqueue until the sink holds every issue.
  console.error(`Sending the daily issue to ${SUBSCRIBERS} subscribers through the worker...`);
  let started = performance.now();
  const run = await Jobs.enqueue(Newsletter.sendNewsletters, { frequency: 'daily' }, 'bench');
  const deadline = Date.now() + TIMEOUT_MS;
  while (received.length < SUBSCRIBERS && Date.now() < deadline) await sleep(20);
  const pipelineMs = performance.now() - started;
  const pipelineCount = received.length;
  clearInterval(sampler);
  const memory = memoryOf(worker.pid!);
  // Wait for the last settles, then check the issue's own counts.
  await sleep(1000);
  const issue = await Newsletter.issueById(Newsletter.periodIssueId('daily', decodeTime(run.id)));
  const perReader = new Map<string, number>();
  for (const to of received) perReader.set(to, (perReader.get(to) ?? 0) + 1);
  const once = readers.filter(({ email }) => perReader.get(email) === 1).length;

  // (2) Raw nodemailer: the same sink, one real digest rendered once, sent one message at a time.
  const reader = readers[0]!;
  const digest = await Newsletter.composeDigest(reader, {
    frequency: 'daily',
    from: issue!.from,
    to: issue!.to,
  });
  if (digest.empty) throw new Error(`The digest is empty: ${digest.why}`);
  const mail = await Newsletter.renderDigest(digest, Subscribers.subscriberLinks(reader));
  const headers = Subscribers.unsubscribeHeaders(reader);
  const raw = smtpMailer({ url: sink.url, from: config().MAIL_FROM });
  console.error(`Sending ${SUBSCRIBERS} messages of the same size with a raw nodemailer loop...`);
  const before = received.length;
  started = performance.now();
  for (let index = 0; index < SUBSCRIBERS; index += 1)
    await raw.send({ ...mail, to: `raw-${index}@example.org`, headers });
  while (received.length < before + SUBSCRIBERS && Date.now() < deadline) await sleep(5);
  const rawMs = performance.now() - started;

  const pipelineRate = perSecond(pipelineCount, pipelineMs);
  const rawRate = perSecond(SUBSCRIBERS, rawMs);
  const ratio = pipelineRate / rawRate;
  const checks: [string, boolean, string][] = [
    [
      'every subscriber got exactly one issue',
      once === SUBSCRIBERS,
      `${once} / ${SUBSCRIBERS} (${pipelineCount} messages)`,
    ],
    [
      'the issue counts every one sent',
      issue?.sent === SUBSCRIBERS && issue.queued === 0,
      `sent ${issue?.sent}, queued ${issue?.queued}, failed ${issue?.failed}, skipped ${issue?.skipped}`,
    ],
  ];
  const ok = checks.every(([, passed]) => passed);
  console.log(
    [
      '',
      '='.repeat(72),
      'Cluefeed newsletter benchmark',
      '='.repeat(72),
      `Date: ${new Date().toISOString()}  Node ${process.version}  CPUs: ${cpus().length}  load average: ${loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}`,
      `${SUBSCRIBERS} confirmed subscribers, one daily audience, 3 picks; a digest is ${kib(mail.html)} KiB of HTML and ${kib(mail.text)} KiB of text`,
      `Worker: scripts/local/worker-process.ts, POLLER_CONCURRENCY=${POLLER_CONCURRENCY} (as npm start), SEND_RATE=${SEND_RATE} (the rate limit is not what is measured)`,
      'DynamoDB Local in memory, fauxqs, SMTP sink (parses and stores every message) in this process',
      '',
      table(
        ['path', 'messages', 'seconds', 'messages/s'],
        [
          [
            'pipeline (enqueue -> sink)',
            String(pipelineCount),
            (pipelineMs / 1000).toFixed(1),
            pipelineRate.toFixed(1),
          ],
          [
            'raw nodemailer loop',
            String(SUBSCRIBERS),
            (rawMs / 1000).toFixed(1),
            rawRate.toFixed(1),
          ],
        ],
      ),
      '',
      `Ratio pipeline / raw: ${ratio.toFixed(2)} (target >= ${TARGET_RATIO}: ${ratio >= TARGET_RATIO ? 'MET' : 'NOT MET'})`,
      `Worker peak RSS: ${mib(Math.max(memory.peak, peakSampled))} (VmHWM ${mib(memory.peak)}, sampled every 100 ms ${mib(peakSampled)})`,
      '',
      table(
        ['check', 'result', 'detail'],
        checks.map(([name, passed, detail]) => [name, passed ? 'PASS' : 'FAIL', detail]),
      ),
      '='.repeat(72),
    ].join('\n'),
  );
  return ok ? 0 : 1;
}

runBench(main);
