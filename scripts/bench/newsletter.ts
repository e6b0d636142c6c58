// npm run bench:newsletter: a daily issue to BENCH_SUBSCRIBERS confirmed subscribers through the
// real pipeline ('Send newsletters' enqueued, the worker process polling fauxqs with npm start's
// concurrency, chunks that write ten e-mails at a time with their send slots, send them and
// settle them together),
// timed from the enqueue until the issue is done (its last Delivery settled). Its baseline, in the
// same run, to the same sink (a process of its own, which parses and stores every message): raw
// nodemailer sending as many messages of the same size (one real digest, rendered once) through
// a pooled transport with as many sends in flight as the worker has (one per poller), measured
// before and after the pipeline. Prints the rates, the load average before and after, the CPU
// each process spent per e-mail in each path, and the ratio (target >= 0.3) as every bench gives
// one (scripts/bench/lib.ts, "Honest figures"). Exits 1 when a subscriber got no issue or more
// than one, 2 when the baseline moved too much for a verdict.
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
import { ensureBuild, PROCESSES } from '../local/build';
import { startDynamoDb } from '../local/dynamodb';
import { POLLER_CONCURRENCY, startQueue } from '../local/jobs';
import { startSinkProcess } from '../local/smtp-sink';
import {
  baseline,
  envNumber,
  MAX_BASELINE_SPREAD,
  onCleanup,
  processStat,
  ratio,
  ROOT,
  runBench,
  stopOnCleanup,
  table,
  verdict,
} from './lib';

const SUBSCRIBERS = Math.floor(envNumber('BENCH_SUBSCRIBERS', 5000));
const SEND_RATE = Math.floor(envNumber('BENCH_SEND_RATE', 1000));
const TABLE_NAME = 'cluefeed-bench-newsletter';
/** Issue 34's target for the send, with its e-mails written and settled ten at a time. */
const TARGET_RATIO = 0.3;
const TIMEOUT_MS = 20 * 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const perSecond = (count: number, ms: number) => count / (ms / 1000);
const kib = (text: string) => (Buffer.byteLength(text) / 1024).toFixed(1);
const mib = (kib: number) => `${(kib / 1024).toFixed(0)} MiB`;
/** Sends in flight in both paths: the worker handles one message per poller at a time. */
const IN_FLIGHT = POLLER_CONCURRENCY;

type CpuProcess = { name: string; cpuMs: () => number };

/** CPU per e-mail of each process while `run` went on. */
async function cpuPerEmail<T>(processes: CpuProcess[], emails: number, run: () => Promise<T>) {
  const before = processes.map((p) => p.cpuMs());
  const result = await run();
  const perEmail = processes.map((p, index) => ({
    name: p.name,
    ms: (p.cpuMs() - before[index]!) / emails,
  }));
  return { result, perEmail };
}

/** The worker's resident memory now and at its peak (kB), from /proc. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1]);
  return { rss: field('VmRSS'), peak: field('VmHWM') };
}

/** npm start's worker, compiled as npm start runs it (built first if the build is stale). */
async function startWorker(env: Record<string, string>): Promise<ChildProcess> {
  await ensureBuild(ROOT);
  // BENCH_WORKER_NODE_ARGS, e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof', profiles the worker.
  const nodeArgs = (process.env.BENCH_WORKER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, PROCESSES.worker.output], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  stopOnCleanup(child);
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
    startSinkProcess({ dir: mailDir, onAccepted: (message) => received.push(...message.to) }),
  ]);
  onCleanup(
    () => dynamo.stop(),
    () => dynamo.process.kill('SIGKILL'),
  );
  onCleanup(() => queue.stop());
  onCleanup(
    async () => {
      if (sink.child.exitCode !== null || sink.child.signalCode !== null) return;
      sink.child.kill('SIGTERM');
      await new Promise((resolve) => sink.child.once('exit', resolve));
    },
    () => sink.child.kill('SIGKILL'),
  );
  const env = {
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    TABLE_NAME,
    SQS_ENDPOINT: queue.endpoint,
    JOBS_QUEUE_URL: queue.queueUrl,
    SMTP_URL: sink.url,
    SEND_RATE: String(SEND_RATE),
    APP_SECRET: randomBytes(20).toString('hex'),
    // As deployed: the worker renders with React's production build, as the Lambda does.
    NODE_ENV: 'production',
    PUBLIC_URL: 'http://localhost:3000',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
  // core/config reads the environment once, on first use: set it before core is loaded.
  Object.assign(process.env, env);
  const [
    { ensureTable },
    { config },
    { mapPool },
    Jobs,
    Newsletter,
    Subscribers,
    { smtpMailer },
    World,
  ] = await Promise.all([
    import('#core/db'),
    import('#core/config'),
    import('#core/common'),
    import('#core/jobs'),
    import('#core/newsletter'),
    import('#core/subscribers'),
    import('#core/mail'),
    import('#tests/integration/newsletter-world'),
  ]);
  await ensureTable();
  console.error(`Writing ${SUBSCRIBERS} confirmed subscribers of one daily audience...`);
  const { readers } = await World.dailyWorld(SUBSCRIBERS);

  // The baseline's message: one real digest of the world's picks, rendered once.
  const reader = readers[0]!;
  const now = Date.now();
  const digest = await Newsletter.composeDigest(reader, {
    frequency: 'daily',
    from: new Date(now - Newsletter.WINDOW_MS.daily).toISOString(),
    to: new Date(now).toISOString(),
  });
  if (digest.empty) throw new Error(`The digest is empty: ${digest.why}`);
  const mail = await Newsletter.renderDigest(digest, Subscribers.subscriberLinks(reader));
  const headers = Subscribers.unsubscribeHeaders(reader);
  const raw = smtpMailer({ url: sink.url, from: config().MAIL_FROM });
  const deadline = Date.now() + TIMEOUT_MS;
  /** Raw nodemailer: as many messages, IN_FLIGHT at once, until the sink holds them. */
  const rawPass = async (pass: number) => {
    console.error(
      `Baseline pass ${pass}: ${SUBSCRIBERS} messages of the same size with raw nodemailer...`,
    );
    const before = received.length;
    const started = performance.now();
    await mapPool(
      Array.from({ length: SUBSCRIBERS }, (_, index) => index),
      IN_FLIGHT,
      (index) => raw.send({ ...mail, to: `raw-${pass}-${index}@example.org`, headers }),
    );
    while (received.length < before + SUBSCRIBERS && Date.now() < deadline) await sleep(5);
    return performance.now() - started;
  };

  // Unmeasured: the sink's and the transport's first messages pay for connecting and compiling.
  await mapPool(
    Array.from({ length: 200 }, (_, index) => index),
    IN_FLIGHT,
    (index) => raw.send({ ...mail, to: `warm-up-${index}@example.org`, headers }),
  );
  const bench: CpuProcess = {
    name: 'this bench (raw nodemailer, the fauxqs queue)',
    cpuMs: () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1000;
    },
  };
  const sinkCpu: CpuProcess = {
    name: 'SMTP sink',
    cpuMs: () => processStat(sink.child.pid!).cpuMs,
  };
  const dynamoCpu: CpuProcess = {
    name: 'DynamoDB Local',
    cpuMs: () => processStat(dynamo.process.pid!).cpuMs,
  };
  const loadBefore = loadavg();
  const rawBefore = await cpuPerEmail([bench, sinkCpu, dynamoCpu], SUBSCRIBERS, () => rawPass(1));
  const rawMsBefore = rawBefore.result;
  const worker = await startWorker(env);
  const workerCpu: CpuProcess = { name: 'worker', cpuMs: () => processStat(worker.pid!).cpuMs };
  let peakSampled = 0;
  const sampler = setInterval(() => {
    peakSampled = Math.max(peakSampled, memoryOf(worker.pid!).rss);
  }, 100);
  onCleanup(async () => clearInterval(sampler));

  // The pipeline: from the enqueue until the issue is done (its last Delivery settled).
  console.error(`Sending the daily issue to ${SUBSCRIBERS} subscribers through the worker...`);
  const receivedBefore = received.length;
  const started = performance.now();
  const pipeline = await cpuPerEmail(
    [bench, sinkCpu, dynamoCpu, workerCpu],
    SUBSCRIBERS,
    async () => {
      const run = await Jobs.enqueue(Newsletter.sendNewsletters, { frequency: 'daily' }, 'bench');
      const issueId = Newsletter.periodIssueId('daily', decodeTime(run.id));
      let issue = await Newsletter.issueById(issueId);
      while (issue?.status !== 'done' && Date.now() < deadline) {
        await sleep(50);
        issue = await Newsletter.issueById(issueId);
      }
      return issue;
    },
  );
  const issue = pipeline.result;
  const pipelineMs = performance.now() - started;
  clearInterval(sampler);
  const memory = memoryOf(worker.pid!);
  const pipelineCopies = received.slice(receivedBefore);
  const pipelineCount = pipelineCopies.length;
  const perReader = new Map<string, number>();
  for (const to of pipelineCopies) perReader.set(to, (perReader.get(to) ?? 0) + 1);
  const once = readers.filter(({ email }) => perReader.get(email) === 1).length;

  const rawMsAfter = await rawPass(2);
  const loadAfter = loadavg();

  const pipelineRate = perSecond(pipelineCount, pipelineMs);
  const rawRates = [perSecond(SUBSCRIBERS, rawMsBefore), perSecond(SUBSCRIBERS, rawMsAfter)];
  const rawBase = baseline('raw nodemailer', 'messages/s', rawRates[0]!, rawRates[1]!);
  const sendRatio = ratio(pipelineRate, rawBase);
  const sendVerdict = verdict(sendRatio, { atLeast: TARGET_RATIO });
  const load = (values: number[]) => values.map((n) => n.toFixed(2)).join(' ');
  const checks: [string, boolean, string][] = [
    [
      'every subscriber got exactly one issue',
      once === SUBSCRIBERS,
      `${once} / ${SUBSCRIBERS} (${pipelineCount} messages)`,
    ],
    [
      'the issue counts every one sent, and is done',
      issue?.sent === SUBSCRIBERS && issue.queued === 0 && issue.status === 'done',
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
      `Date: ${new Date().toISOString()}  Node ${process.version}  CPUs: ${cpus().length}`,
      `Load average before: ${load(loadBefore)}  after: ${load(loadAfter)}`,
      `${SUBSCRIBERS} confirmed subscribers, one daily audience, 3 picks; a digest is ${kib(mail.html)} KiB of HTML and ${kib(mail.text)} KiB of text`,
      `Worker: build/local/worker.js (scripts/local/worker-process.ts compiled, as npm start runs it), POLLER_CONCURRENCY=${POLLER_CONCURRENCY} (as npm start), SEND_RATE=${SEND_RATE} (the rate limit is not what is measured)`,
      `Both paths: a pooled nodemailer transport, ${IN_FLIGHT} sends in flight, the same sink`,
      'DynamoDB Local in memory and fauxqs; the SMTP sink (parses and stores every message) in a process of its own',
      '',
      table(
        ['path', 'messages', 'seconds', 'messages/s'],
        [
          [
            'baseline: raw nodemailer, before',
            String(SUBSCRIBERS),
            (rawMsBefore / 1000).toFixed(1),
            rawRates[0]!.toFixed(1),
          ],
          [
            'pipeline (enqueue -> issue done)',
            String(pipelineCount),
            (pipelineMs / 1000).toFixed(1),
            pipelineRate.toFixed(1),
          ],
          [
            'baseline: raw nodemailer, after',
            String(SUBSCRIBERS),
            (rawMsAfter / 1000).toFixed(1),
            rawRates[1]!.toFixed(1),
          ],
        ],
      ),
      '',
      `Baseline spread between its two passes: ${(rawBase.spread * 100).toFixed(0)}% of the larger (at most ${MAX_BASELINE_SPREAD * 100}%)`,
      `Ratio pipeline / raw (mean of both passes): ${sendRatio.text}; of each pass ${rawRates.map((rate) => (pipelineRate / rate).toFixed(3)).join(' and ')} (target >= ${TARGET_RATIO}): ${sendVerdict}`,
      '',
      'CPU per e-mail by process (ms; 2 cores give 2,000 ms a second to share):',
      table(
        ['process', 'raw nodemailer (pass 1)', 'pipeline'],
        [bench, sinkCpu, dynamoCpu, workerCpu].map(({ name }) => {
          const of = (list: { name: string; ms: number }[]) =>
            list.find((entry) => entry.name === name)?.ms.toFixed(2) ?? '-';
          return [name, of(rawBefore.perEmail), of(pipeline.perEmail)];
        }),
      ),
      `Worker peak RSS: ${mib(Math.max(memory.peak, peakSampled))} (VmHWM ${mib(memory.peak)}, sampled every 100 ms ${mib(peakSampled)})`,
      '',
      table(
        ['check', 'result', 'detail'],
        checks.map(([name, passed, detail]) => [name, passed ? 'PASS' : 'FAIL', detail]),
      ),
      '='.repeat(72),
    ].join('\n'),
  );
  if (!ok) return 1;
  return sendVerdict === 'NO VERDICT' ? 2 : 0;
}

runBench(main);
