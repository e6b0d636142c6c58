// npm run bench:subscribe: concurrent subscriptions, each with a distinct address, through the
// audience page's form (a plain POST, as without JavaScript) for a fixed time; then proof that
// every accepted request (302 to /assemble-your-newsletter) left exactly one pending subscriber
// and exactly one confirmation e-mail, and nothing else. The request only writes: the e-mail is
// queued in the outbox with the subscriber and sent by the worker, so the proof first waits for
// the outbox to drain (target: subscribe p99 < 100 ms).
//   BENCH_DURATION=10      seconds of load
//   BENCH_CONNECTIONS=20   concurrent keep-alive connections, one request in flight on each
//   BENCH_KEEP_MAIL=1      keep the SMTP sink's directory (removed otherwise)
//
// Requests are sent with node:http rather than autocannon: the proof needs every address mapped
// to the status it got, and autocannon drops requests still in flight when its time is up (the
// server may still store and mail those). Here, when the time is up no new request starts and the
// ones in flight are awaited and counted.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { mapPool } from '#core/common';
import { readMessages } from '../local/smtp-sink';
import { audiences } from '../seed/data';
import {
  baseline,
  BROWSER_HEADERS,
  envNumber,
  loadAverage,
  onCleanup,
  report,
  runBench,
  runtimeCpu,
  startApp,
  startBareServer,
  table,
  warmUp,
} from './lib';

const DURATION = envNumber('BENCH_DURATION', 10);
const CONNECTIONS = Math.floor(envNumber('BENCH_CONNECTIONS', 20));
const KEEP_MAIL = process.env.BENCH_KEEP_MAIL === '1';
const WARM_UP_SUBSCRIPTIONS = CONNECTIONS * 2;
const REQUEST_TIMEOUT_MS = 30_000;
const TABLE_NAME = 'cluefeed-bench';
// Every request comes from 127.0.0.1: per-IP and per-address limits must not refuse any.
const RATE_LIMIT_FACTOR = '100000';
const CONFIRM_SUBJECT = 'Confirm your Cluefeed subscription';
const SUCCESS_PATH = '/assemble-your-newsletter';
const DRAIN_TIMEOUT_MS = 180_000;
/** Seconds of each baseline pass (bare Node http, same connections and body). */
const BASELINE_SECONDS = Math.min(DURATION, 5);
/** The issue's target now that SMTP is out of the request. */
const P99_TARGET_MS = 100;

type Phase = 'warm-up' | 'run';
type Attempt = {
  email: string;
  phase: Phase;
  status?: number;
  location?: string;
  error?: string;
  ms: number;
};

/** The audience `defi-builders` if present, else the first active audience. */
function pickAudience() {
  const active = audiences.filter((a) => a.state === 'active');
  const audience = active.find((a) => a.key === 'defi-builders') ?? active[0];
  if (!audience) throw new Error('The seed data has no active audience.');
  return audience;
}

/** One form POST on a keep-alive connection; never rejects (failures land in `error`). */
function postForm(agent: Agent, url: URL, body: string): Promise<Omit<Attempt, 'email' | 'phase'>> {
  const started = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    const done = (result: Omit<Attempt, 'email' | 'phase' | 'ms'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...result, ms: performance.now() - started });
    };
    const req = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          ...BROWSER_HEADERS,
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
          origin: url.origin,
        },
      },
      (res) => {
        res.on('error', (error) => done({ error: error.message }));
        res.on('end', () => {
          const location = res.headers.location;
          done({ status: res.statusCode, location });
        });
        res.resume();
      },
    );
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error('timeout')));
    req.on('error', (error) => done({ error: error.message }));
    req.end(body);
  });
}

function isAccepted(attempt: Attempt, baseUrl: string): boolean {
  if (attempt.status !== 302 || !attempt.location) return false;
  const target = new URL(attempt.location, baseUrl);
  return target.origin === new URL(baseUrl).origin && target.pathname === SUCCESS_PATH;
}

/** What an attempt's answer was, for the status table. */
function outcome(attempt: Attempt, baseUrl: string): string {
  if (attempt.error !== undefined) return `error: ${attempt.error}`;
  if (isAccepted(attempt, baseUrl)) return 'accepted (302)';
  if (attempt.status === 302) return `302 to ${attempt.location ?? '(no Location)'}`;
  return String(attempt.status);
}

/** Nearest-rank percentile of ascending `sorted`. */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[
    Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  ]!;
}

async function countMessages(dir: string): Promise<number> {
  return (await readdir(dir)).filter((name) => name.endsWith('.json')).length;
}

/** Waits until the mail directory stops growing for `quietMs` (at most `timeoutMs`). */
async function settleMail(dir: string, quietMs = 1_000, timeoutMs = 60_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let count = await countMessages(dir);
  let stableSince = Date.now();
  while (Date.now() - stableSince < quietMs && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = await countMessages(dir);
    if (now !== count) {
      count = now;
      stableSince = Date.now();
    }
  }
  return count;
}

function ms(value: number): string {
  return Number.isFinite(value) ? value.toFixed(1) : 'n/a';
}

/**
 * The baseline: the same form POSTs on the same number of keep-alive connections for
 * BASELINE_SECONDS, to a bare Node http server in a process of its own; its p99 (ms) and req/s.
 */
async function bareBaseline(url: URL): Promise<{ p99: number; perSecond: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const latencies: number[] = [];
  const endAt = performance.now() + BASELINE_SECONDS * 1000;
  const body = new URLSearchParams({ placement: 'hero', email: 'baseline@example.org' }).toString();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < endAt) latencies.push((await postForm(agent, url, body)).ms);
    }),
  );
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { p99: percentile(latencies, 99), perSecond: latencies.length / BASELINE_SECONDS };
}

async function main() {
  const audience = pickAudience();
  const runId = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const appSecret = randomBytes(32).toString('hex');
  const mailDir = mkdtempSync(join(tmpdir(), 'cluefeed-bench-mail-'));
  // Registered before the app, so it runs after the app has stopped (teardowns run latest first).
  onCleanup(async () => {
    if (!KEEP_MAIL) await rm(mailDir, { recursive: true, force: true });
  });

  console.error('Starting the app (builds it first if stale)...');
  const app = await startApp({
    args: ['--mail-dir', mailDir],
    env: ({ port }) => ({
      RATE_LIMIT_FACTOR,
      APP_SECRET: appSecret,
      TABLE_NAME,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    }),
  });
  const formUrl = new URL(`/a/${audience.slug}`, app.baseUrl);
  console.error(`App is up at ${app.baseUrl}; warming up...`);
  await warmUp([formUrl.href], 5, BROWSER_HEADERS);

  // The proof reads the app's table and outbox as the app does.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  process.env.DYNAMODB_ENDPOINT = `http://127.0.0.1:${app.dynamoPort}`;
  process.env.TABLE_NAME = TABLE_NAME;
  process.env.APP_SECRET = appSecret;
  // This process only reads the table; config() still wants the app's URLs outside development.
  process.env.PUBLIC_URL = app.baseUrl;
  process.env.SMTP_URL ??= 'smtp://127.0.0.1:25';
  const Outbox = await import('#core/outbox');
  /**
   * Waits until the outbox holds nothing queued or sending, at most DRAIN_TIMEOUT_MS: whether it
   * drained, and after how many seconds.
   */
  const drainOutbox = async () => {
    const started = performance.now();
    let waiting = await Outbox.onTheirWay();
    while (waiting && performance.now() - started < DRAIN_TIMEOUT_MS) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      waiting = await Outbox.onTheirWay();
    }
    return { drained: !waiting, seconds: (performance.now() - started) / 1000 };
  };
  // Anything the app mailed on its own is left out of the proof: npm start's demo subscribers get
  // their confirmations from the worker after the app is up, so those are waited for first.
  console.error("Waiting for the app's own e-mails (the demo subscribers') to go out...");
  if (!(await drainOutbox()).drained)
    console.error(
      `  The outbox still holds e-mails after ${DRAIN_TIMEOUT_MS / 1000} s: any sent during the run count as stray in the proof.`,
    );
  await settleMail(mailDir);
  const mailedBefore = new Set((await readMessages(mailDir)).map((message) => message.id));

  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const attempts: Attempt[] = [];
  let counter = 0;
  const runPool = (phase: Phase, more: () => boolean) =>
    Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (more()) {
          const email = `bench-${runId}-${++counter}@example.org`;
          const body = new URLSearchParams({ placement: 'hero', email }).toString();
          const attempt: Attempt = { email, phase, ...(await postForm(agent, formUrl, body)) };
          attempts.push(attempt);
        }
      }),
    );

  console.error(`Warm-up: ${WARM_UP_SUBSCRIPTIONS} subscriptions...`);
  let warmUpStarted = 0;
  await runPool('warm-up', () => warmUpStarted++ < WARM_UP_SUBSCRIPTIONS);

  const loadBefore = loadAverage();
  const bare = new URL((await startBareServer('node')).url);
  console.error(`Baseline: bare Node http, ${CONNECTIONS} connections, ${BASELINE_SECONDS}s...`);
  const bareBefore = await bareBaseline(bare);
  console.error(`POST ${formUrl.pathname}: ${CONNECTIONS} connections, ${DURATION}s...`);
  const cpuBefore = runtimeCpu(app.child.pid!);
  const startedAt = performance.now();
  const endAt = startedAt + DURATION * 1000;
  await runPool('run', () => performance.now() < endAt);
  const elapsedSeconds = (performance.now() - startedAt) / 1000;
  const cpuAfter = runtimeCpu(app.child.pid!);
  agent.destroy();
  console.error(`Baseline again: bare Node http, ${BASELINE_SECONDS}s...`);
  const bareAfter = await bareBaseline(bare);
  const bareP99 = baseline('bare Node http POST p99', 'ms', bareBefore.p99, bareAfter.p99);
  const bareRate = baseline(
    'bare Node http POST',
    'req/s',
    bareBefore.perSecond,
    bareAfter.perSecond,
  );

  const run = attempts.filter((a) => a.phase === 'run');
  const warm = attempts.filter((a) => a.phase === 'warm-up');
  const accepted = attempts.filter((a) => isAccepted(a, app.baseUrl));
  const acceptedRun = run.filter((a) => isAccepted(a, app.baseUrl));
  const outcomes = new Map<string, number>();
  for (const attempt of run) {
    const key = outcome(attempt, app.baseUrl);
    outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
  }
  const notAcceptedAll = attempts.filter((a) => !isAccepted(a, app.baseUrl));
  const errors = run.filter((a) => a.error !== undefined).length;
  const otherStatuses = [...outcomes].filter(
    ([key]) => key !== 'accepted (302)' && !key.startsWith('error'),
  );
  const errorKinds = [...outcomes].filter(([key]) => key.startsWith('error'));
  const describe = (counts: [string, number][]) =>
    counts.length === 0 ? 'none' : counts.map(([key, n]) => `${key} x${n}`).join(', ');
  const latencies = run.map((a) => a.ms).sort((a, b) => a - b);
  const mean = latencies.reduce((sum, value) => sum + value, 0) / (latencies.length || 1);
  console.error(
    `  ${(run.length / elapsedSeconds).toFixed(0)} req/s, p99 ${ms(percentile(latencies, 99))} ms, accepted ${acceptedRun.length}/${run.length}`,
  );

  // ------------------------------------------------------------------ proof
  console.error('Waiting for the outbox worker to send every queued e-mail...');
  const { drained, seconds: drainSeconds } = await drainOutbox();
  console.error('Waiting for the mail sink to settle...');
  const messageFiles = await settleMail(mailDir);
  console.error(`  ${messageFiles} message(s) on disk; reading the table...`);

  const Subscribers = await import('#core/subscribers');
  const Audiences = await import('#core/audiences');
  const lookup = await Audiences.bySlug(audience.slug);
  if (lookup.kind !== 'found')
    throw new Error(`Audience /a/${audience.slug} not found in the table`);
  const audienceId = lookup.audience.id;

  // 1. Subscribers.byEmail for every address sent.
  const found = await mapPool(attempts, 32, (a) => Subscribers.byEmail(a.email));
  const acceptedEmails = new Set(accepted.map((a) => a.email));
  let pendingOk = 0;
  const badSubscribers: string[] = [];
  let strayByEmail = 0;
  attempts.forEach((attempt, i) => {
    const subscriber = found[i];
    if (!acceptedEmails.has(attempt.email)) {
      if (subscriber) strayByEmail++;
      return;
    }
    const ok =
      subscriber !== undefined &&
      subscriber.email === attempt.email &&
      subscriber.status === 'pending' &&
      subscriber.firstAudienceId === audienceId &&
      [...(subscriber.audienceIds ?? [])].join() === audienceId;
    if (ok) pendingOk++;
    else badSubscribers.push(`${attempt.email}: ${JSON.stringify(subscriber ?? null)}`);
  });

  // 2. Every stored subscriber record of this run (a scan), so a second record would show.
  const prefix = `bench-${runId}-`;
  const { data: scanned } = await Subscribers.SubscriberEntity.scan.go({ pages: 'all' });
  const records = new Map<string, number>();
  for (const subscriber of scanned) {
    if (!subscriber.email.startsWith(prefix)) continue;
    records.set(subscriber.email, (records.get(subscriber.email) ?? 0) + 1);
  }
  const runRecords = [...records.values()].reduce((sum, n) => sum + n, 0);
  const oneRecord = [...acceptedEmails].filter((email) => records.get(email) === 1).length;
  const multiRecord = [...records.values()].filter((n) => n > 1).length;
  const strayRecords = [...records.keys()].filter((email) => !acceptedEmails.has(email)).length;

  // 3. The mail sink: one confirmation per accepted address, nothing else.
  const messages = (await readMessages(mailDir)).filter((m) => !mailedBefore.has(m.id));
  const mailsTo = new Map<string, number>();
  let wrongSubject = 0;
  let strayMessages = 0;
  for (const message of messages) {
    const recipients = message.to.map((to) => to.toLowerCase());
    const ours = recipients.filter((to) => acceptedEmails.has(to));
    if (ours.length !== 1 || recipients.length !== 1) strayMessages++;
    if (message.subject !== CONFIRM_SUBJECT) wrongSubject++;
    for (const to of ours) mailsTo.set(to, (mailsTo.get(to) ?? 0) + 1);
  }
  const duplicates = [...mailsTo.values()].filter((n) => n > 1).length;
  const missing = [...acceptedEmails].filter((email) => !mailsTo.has(email)).length;

  const checks: [string, boolean, string][] = [
    [
      'outbox drained (nothing queued or sending)',
      drained,
      `${drainSeconds.toFixed(1)} s after the run`,
    ],
    [
      'byEmail: pending subscriber, this audience',
      pendingOk === accepted.length,
      `${pendingOk} / ${accepted.length} accepted`,
    ],
    [
      'scan: exactly one record per accepted address',
      oneRecord === accepted.length && multiRecord === 0,
      `${oneRecord} / ${accepted.length}, addresses with >1 record: ${multiRecord}`,
    ],
    [
      'scan: records of this run == accepted',
      runRecords === accepted.length,
      `${runRecords} == ${accepted.length}`,
    ],
    [
      'no subscriber for a refused request',
      strayByEmail === 0 && strayRecords === 0,
      `${strayByEmail + strayRecords} of ${notAcceptedAll.length} refused`,
    ],
    [
      'e-mails == accepted',
      messages.length === accepted.length,
      `${messages.length} == ${accepted.length}`,
    ],
    [`every e-mail's subject is "${CONFIRM_SUBJECT}"`, wrongSubject === 0, `${wrongSubject} other`],
    ['duplicates (address with >1 e-mail)', duplicates === 0, String(duplicates)],
    ['missing (accepted address without e-mail)', missing === 0, String(missing)],
    ['e-mails to anyone else / several recipients', strayMessages === 0, String(strayMessages)],
  ];
  const proofOk = checks.every(([, ok]) => ok);
  const loadOk = notAcceptedAll.length === 0;

  // ------------------------------------------------------------------ summary
  const lines: string[] = [];
  lines.push('', ...report('Cluefeed subscribe benchmark', loadBefore, [bareRate, bareP99]));
  lines.push(
    `Date: ${new Date().toISOString()}`,
    `POST /a/${audience.slug} (placement=hero, distinct e-mail per request, no JS: 302 expected)`,
    `node:http keep-alive: ${CONNECTIONS} connections, one request in flight each, ${DURATION}s (+ in-flight tail: ${elapsedSeconds.toFixed(2)}s)`,
    `RATE_LIMIT_FACTOR=${RATE_LIMIT_FACTOR}, TABLE_NAME=${TABLE_NAME}, DynamoDB Local in memory, SMTP sink in ${mailDir}`,
    `Warm-up before the run: ${warm.length} subscriptions (${warm.filter((a) => isAccepted(a, app.baseUrl)).length} accepted), included in the proof`,
    '',
    `Total requests:   ${run.length}`,
    `Accepted (302):   ${acceptedRun.length}`,
    `Other statuses:   ${describe(otherStatuses)}`,
    `Errors:           ${errors}${errors ? ` (${describe(errorKinds)})` : ''}`,
    `Throughput:       ${(run.length / elapsedSeconds).toFixed(1)} req/s (${(acceptedRun.length / elapsedSeconds).toFixed(1)} accepted/s)`,
    `Subscribe p99:    ${ms(percentile(latencies, 99))} ms (target < ${P99_TARGET_MS} ms, SMTP out of the request: ${percentile(latencies, 99) < P99_TARGET_MS ? 'MET' : 'NOT MET'})`,
    '',
    'CPU per subscription during the run (ms, user + system, by process of the runtime):',
    table(
      ['process', 'CPU ms', 'per subscription'],
      [...cpuAfter].map(([name, after]) => {
        const used = after - (cpuBefore.get(name) ?? 0);
        return [name, String(Math.round(used)), (used / (acceptedRun.length || 1)).toFixed(1)];
      }),
    ),
    '',
    table(
      ['latency (ms)', 'min', 'p50', 'p90', 'p99', 'max', 'mean'],
      [
        [
          'POST subscribe',
          ms(latencies[0] ?? NaN),
          ms(percentile(latencies, 50)),
          ms(percentile(latencies, 90)),
          ms(percentile(latencies, 99)),
          ms(latencies.at(-1) ?? NaN),
          ms(mean),
        ],
      ],
    ),
    '',
    `Proof (${accepted.length} accepted = ${acceptedRun.length} run + ${accepted.length - acceptedRun.length} warm-up; ${messageFiles} message file(s) after settling)`,
    '',
    table(
      ['check', 'result', 'detail'],
      checks.map(([name, ok, detail]) => [name, ok ? 'PASS' : 'FAIL', detail]),
    ),
  );
  for (const bad of badSubscribers.slice(0, 10)) lines.push(`  bad subscriber: ${bad}`);
  if (badSubscribers.length > 10) lines.push(`  ... and ${badSubscribers.length - 10} more`);
  lines.push('');
  if (!loadOk) {
    lines.push(`Load FAIL: ${notAcceptedAll.length} request(s) not accepted (warm-up and run)`);
    for (const attempt of notAcceptedAll.slice(0, 10)) {
      lines.push(`  ${attempt.phase} ${attempt.email}: ${outcome(attempt, app.baseUrl)}`);
    }
  }
  lines.push(
    proofOk
      ? 'Proof PASS: every accepted subscription left exactly one pending subscriber and one e-mail'
      : 'Proof FAIL: see the checks above',
  );
  if (KEEP_MAIL) lines.push(`Mail kept in ${mailDir}`);
  lines.push('='.repeat(72));
  console.log(lines.join('\n'));
  return proofOk && loadOk ? 0 : 1;
}

runBench(main);
