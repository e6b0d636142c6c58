// npm run bench:peers (issue 34): our pages against honest peers, in one run on one DynamoDB
// Local. Peers: bare Express + compression (scripts/bench/bare-server.mjs) for /healthz, and the
// floor page (scripts/bench/floor-page.mjs: Express + compression + React of 20 stories from one
// GetItem and one Query) for the pages. The app starts as npm start --ephemeral runs it; a reader
// with 2,000 scored stories (bench:feed's seeding) and BENCH_EVENTS analytics events over 90 days
// (bench:analytics's, rolled up by the worker) are stored; then each target is loaded at 1 and at
// BENCH_CONNECTIONS connections, the peers first and again last (scripts/bench/lib.ts "Honest
// figures": a ratio only to a peer that held still); `/feed` also past its last story, the page
// without its cards. One table: req/s, p50/p99, CPU ms per request of the web server and of
// DynamoDB Local's JVM (from /proc), storage calls per request (of requests one at a time, counted
// outside the product's code by count-storage-calls.mjs), HTML bytes, and the ratio to the peer.
// Answers are asked for uncompressed (Accept-Encoding: identity), as the targets are.
// Targets: /feed <= 2x the floor page's web CPU per request and 2 storage calls;
// /healthz >= 0.5 of bare Express's req/s.
//   BENCH_DURATION=5         seconds per run, about (two runs a target: 1 and BENCH_CONNECTIONS)
//   BENCH_CONNECTIONS=20     concurrent connections of the second run
//   BENCH_WARM_UP=2          seconds of unmeasured load on each target first
//   BENCH_EVENTS=100000      raw analytics events (bench:analytics writes 1,000,000)
//   BENCH_COUNTED=20         requests, one at a time, whose storage calls are counted
//   BENCH_WEB_NODE_ARGS=     more Node flags for the app's web server (e.g. heap sizes to compare)
import { GetQueueUrlCommand, SQSClient } from '@aws-sdk/client-sqs';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { callsBetween } from './count-storage-calls.mjs';
import {
  baseline,
  BROWSER_HEADERS,
  envNumber,
  load,
  loadAverage,
  onCleanup,
  stopOnCleanup,
  processStat,
  ratio,
  report,
  ROOT,
  runBench,
  runtimeCpu,
  settled,
  signIn,
  startApp,
  startBareServer,
  table,
  verdict,
  type Baseline,
  type LoadResult,
} from './lib';

const DURATION = envNumber('BENCH_DURATION', 5);
const CONNECTIONS = envNumber('BENCH_CONNECTIONS', 20);
const WARM_UP = envNumber('BENCH_WARM_UP', 2);
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
// Read by analytics.ts when it is imported (below, once the app is up).
process.env.BENCH_EVENTS ||= '100000';
const HEADERS = { ...BROWSER_HEADERS, 'accept-encoding': 'identity' };
const ADMIN_PASSWORD = `bench-admin-${randomBytes(8).toString('hex')}`;
const COUNTER = pathToFileURL(join(ROOT, 'scripts', 'bench', 'count-storage-calls.mjs')).href;
const FEED_CPU_TARGET = 2;
const FEED_CALLS_TARGET = 2;
const HEALTHZ_TARGET = 0.5;
const COUNTED = Math.floor(envNumber('BENCH_COUNTED', 20));
/** Seconds: the 90-day analytics page takes several on this loaded machine. */
const ANSWER_TIMEOUT = 60;

type Calls = Record<string, number>;
type Peer = 'bare Express' | 'floor page';
/** CPU ms so far of the target's web process and of DynamoDB Local's JVM. */
type Cpu = { web: number; dynamo: number };
type Target = {
  name: string;
  url: string;
  headers: Record<string, string>;
  /** Text every answer must contain (HTML-escaped). */
  expect?: string;
  /** What it is held against; none for a peer. */
  peer?: Peer;
  cpu: () => Cpu;
  /** Storage calls by service and operation so far; none where nothing can call storage. */
  calls?: () => Promise<Calls>;
};
type Row = {
  target: Target;
  one: LoadResult;
  many: LoadResult;
  /** Of the BENCH_CONNECTIONS run: CPU ms per request. */
  webCpu: number;
  dynamoCpu: number;
  /** Per request, of COUNTED requests one at a time. */
  calls: Calls;
  htmlBytes: number;
};

/** The counts a process's count-storage-calls.mjs answers on its socket. */
function counter(socketPath: string) {
  return () =>
    new Promise<Calls>((resolve, reject) => {
      const request = get({ socketPath, path: '/' }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => {
          try {
            resolve(JSON.parse(body) as Calls);
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        });
      });
      request.on('error', reject);
    });
}

/** Starts the floor page on the app's DynamoDB Local, its storage calls counted; its cookie. */
async function startFloorPage(dynamoPort: number, callsSocket: string) {
  const child = spawn(
    process.execPath,
    ['--import', COUNTER, join(ROOT, 'scripts', 'bench', 'floor-page.mjs')],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        ...process.env,
        DYNAMODB_ENDPOINT: `http://127.0.0.1:${dynamoPort}`,
        STORAGE_CALLS_SOCKET: callsSocket,
      },
    },
  );
  stopOnCleanup(child);
  const started = await new Promise<{ port: number; cookie: string }>((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) => resolve(JSON.parse(chunk.toString())));
    child.once('exit', (code) => reject(new Error(`floor-page.mjs exited (${code})`)));
  });
  return { ...started, url: `http://127.0.0.1:${started.port}/`, pid: child.pid! };
}

/** Fetches a target a few times: each a 200 with its text; the HTML's bytes. */
async function check(target: Target, rounds = 3): Promise<number> {
  let bytes = 0;
  for (let i = 0; i < rounds; i++) {
    const response = await fetch(target.url, { headers: target.headers, redirect: 'manual' });
    const body = Buffer.from(await response.arrayBuffer());
    if (response.status !== 200) throw new Error(`${target.name} answered ${response.status}`);
    if (target.expect && !body.toString().includes(target.expect)) {
      throw new Error(`${target.name} answered 200 without "${target.expect}"`);
    }
    bytes = body.length;
  }
  return bytes;
}

/** Answers a second over the whole run (autocannon's average is of whole seconds only). */
const perSecond = (result: LoadResult) => result.requests.total / Math.max(0.01, result.duration);
const total = (calls: Calls) => Object.values(calls).reduce((sum, n) => sum + n, 0);

/**
 * Storage calls per request: COUNTED requests one after another, then a pause for any call made
 * after an answer; and how many of them were answered a second, to size the load runs.
 */
async function countCalls(target: Target): Promise<{ calls: Calls; perSecond: number }> {
  const before = (await target.calls?.()) ?? {};
  const started = performance.now();
  for (let i = 0; i < COUNTED; i++) {
    const response = await fetch(target.url, { headers: target.headers, redirect: 'manual' });
    await response.arrayBuffer();
  }
  const seconds = (performance.now() - started) / 1000;
  await new Promise((resolve) => setTimeout(resolve, 500));
  const made = callsBetween(before, (await target.calls?.()) ?? {});
  return {
    calls: Object.fromEntries(Object.entries(made).map(([name, n]) => [name, n / COUNTED])),
    perSecond: COUNTED / seconds,
  };
}

async function measure(target: Target): Promise<Row> {
  const htmlBytes = await check(target);
  const counted = await countCalls(target);
  const expected = target.expect;
  // Runs of a number of requests, sized to last about `seconds`, rather than of a duration: every
  // request is answered before the next run (a heavy page's requests left in flight would keep
  // the server busy into it) and before the CPU is read again.
  const run = (connections: number, rate: number, seconds: number) =>
    load({
      url: target.url,
      connections,
      amount: Math.max(connections * 2, 5, Math.round(rate * seconds)),
      timeout: ANSWER_TIMEOUT,
      headers: target.headers,
      ...(expected ? { verifyBody: (body: string) => body.includes(expected) } : {}),
    });
  // Unmeasured: the JIT's warm-up, and the rate that sizes the run whose CPU is measured.
  const warm = await run(CONNECTIONS, counted.perSecond, WARM_UP);
  console.error(`${target.name}: 1 then ${CONNECTIONS} connections, about ${DURATION}s each...`);
  const one = await run(1, counted.perSecond, DURATION);
  const cpuBefore = target.cpu();
  const many = await run(CONNECTIONS, perSecond(warm), DURATION);
  const cpuAfter = target.cpu();
  const requests = Math.max(1, many.requests.total);
  const row: Row = {
    target,
    one,
    many,
    webCpu: (cpuAfter.web - cpuBefore.web) / requests,
    dynamoCpu: (cpuAfter.dynamo - cpuBefore.dynamo) / requests,
    calls: counted.calls,
    htmlBytes,
  };
  console.error(
    `  ${Math.round(perSecond(one))} and ${Math.round(perSecond(many))} req/s, ` +
      `web CPU ${row.webCpu.toFixed(2)} ms/req, storage calls ${total(row.calls).toFixed(2)}/req`,
  );
  return row;
}

/** A ratio to a peer for the table; where the peer moved between its passes, the ratio to each. */
function ratioCell(measured: number, peer: Baseline): string {
  const { value, range } = ratio(measured, peer);
  if (value !== undefined) return value.toFixed(2);
  return range ? `n/a (${range.map((one) => one.toFixed(2)).join('-')})` : 'n/a';
}
const latency = (result: LoadResult) => `${result.latency.p50} / ${result.latency.p99}`;

/** Stores a reader with 2,000 scored stories (bench:feed's seeding) and signs them in. */
async function seedReader(baseUrl: string) {
  const Feed = await import('./feed');
  console.error(`Seeding a reader with ${Feed.STORIES} scored stories...`);
  const seeded = await Feed.seed(baseUrl);
  return { cookie: seeded.cookie, expect: Feed.asHtml(seeded.firstTitle), stories: Feed.STORIES };
}

/** Writes bench:analytics's events and has the worker roll them up; the 90-day page's query. */
async function seedAnalytics() {
  const Analytics = await import('./analytics');
  const Audiences = await import('#core/audiences');
  const CampaignAnalytics = await import('#core/campaign-analytics');
  const audiences = await Audiences.list();
  const active = audiences.filter((audience) => audience.state === 'active');
  const upcoming = audiences.filter((audience) => audience.state === 'upcoming');
  if (active.length === 0 || upcoming.length === 0) throw new Error('No demo audiences');
  const now = Date.now();
  console.error(`Writing ${process.env.BENCH_EVENTS} analytics events over 90 days...`);
  const write = await Analytics.writeEvents(
    Analytics.events(
      now,
      active.map((audience) => audience.id),
      upcoming.map((audience) => audience.id),
      active.map((audience) => audience.slug),
    ),
  );
  console.error('Rolling them up with the worker (as a first rollup)...');
  await Analytics.startRollupEnded();
  await CampaignAnalytics.RollupWatermarkEntity.delete({}).go();
  const rollup = await Analytics.rollUp();
  if (rollup.status !== 'Success') throw new Error(`The rollup ended ${rollup.status}`);
  const today = Analytics.dayOf(now);
  const from = Analytics.dayOf(
    Date.parse(`${today}T00:00:00Z`) - (Analytics.DAYS - 1) * 86_400_000,
  );
  return {
    path: `${Analytics.PAGE}?from=${from}&to=${today}`,
    expect: Analytics.CAMPAIGNS[0]!,
    events: write.written,
  };
}

async function main(): Promise<number> {
  const loadAtStart = loadAverage();
  console.error(`Load average at start: ${loadAtStart}`);
  console.error('Starting the app (builds it first if stale), its web server counted...');
  const appSecret = randomBytes(32).toString('hex');
  const sockets = mkdtempSync(join(tmpdir(), 'cluefeed-bench-peers-'));
  onCleanup(async () => rmSync(sockets, { recursive: true, force: true }));
  const [appCalls, floorCalls] = [join(sockets, 'app.sock'), join(sockets, 'floor.sock')];
  const app = await startApp({
    env: {
      ADMIN_PASSWORD,
      APP_SECRET: appSecret,
      WEB_NODE_ARGS: `--import ${COUNTER} ${process.env.BENCH_WEB_NODE_ARGS ?? ''}`.trim(),
      STORAGE_CALLS_SOCKET: appCalls,
    },
  });
  const sqsEndpoint = await app.printed(/^Jobs queue \(fauxqs\): (\S+);/);
  const sqs = new SQSClient({
    endpoint: sqsEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: 'cluefeed-jobs' }));
  // The reader and the events are stored from here, in the app's table: core reads this once.
  Object.assign(process.env, {
    DYNAMODB_ENDPOINT: `http://127.0.0.1:${app.dynamoPort}`,
    TABLE_NAME: 'cluefeed',
    SQS_ENDPOINT: sqsEndpoint,
    JOBS_QUEUE_URL: QueueUrl,
    APP_SECRET: appSecret,
    NODE_ENV: 'development',
  });
  const reader = await seedReader(app.baseUrl);
  const analytics = await seedAnalytics();
  const admin = await signIn(app.baseUrl, '/admin-panel/authorize', {
    userName: 'admin',
    password: ADMIN_PASSWORD,
  });
  const [bare, floor] = await Promise.all([
    startBareServer('express'),
    startFloorPage(app.dynamoPort, floorCalls),
  ]);

  const group = app.child.pid!;
  const dynamoCpu = () => runtimeCpu(group).get('DynamoDB Local') ?? 0;
  const appCpu = (): Cpu => {
    const cpu = runtimeCpu(group);
    return { web: cpu.get('web server') ?? 0, dynamo: cpu.get('DynamoDB Local') ?? 0 };
  };
  const ownCpu = (pid: number) => (): Cpu => ({
    web: processStat(pid).cpuMs,
    dynamo: dynamoCpu(),
  });
  const { pickAudience, pickPost } = await import('./public-pages');
  const audience = pickAudience();
  const post = pickPost(audience.key);
  const page = (name: string, path: string, extra: Partial<Target> = {}): Target => ({
    name,
    url: app.baseUrl + path,
    headers: HEADERS,
    peer: 'floor page',
    cpu: appCpu,
    calls: counter(appCalls),
    ...extra,
  });
  const bareTarget: Target = {
    name: 'bare Express + compression',
    url: bare.url,
    headers: HEADERS,
    cpu: ownCpu(bare.pid),
  };
  const floorTarget: Target = {
    name: 'floor page',
    url: floor.url,
    headers: { ...HEADERS, cookie: floor.cookie },
    expect: 'Validators vote',
    cpu: ownCpu(floor.pid),
    calls: counter(floorCalls),
  };
  const pages = [
    page('/healthz', '/healthz', { peer: 'bare Express' }),
    page('/', '/'),
    page(`/a/${audience.slug}`, `/a/${audience.slug}`),
    page(`/p/${post.slug}`, `/p/${post.slug}`),
    page(`/feed (${reader.stories} stories)`, '/feed', {
      headers: { ...HEADERS, cookie: reader.cookie },
      expect: reader.expect,
    }),
    // The same document past its last story: the session, the page around the list and Remix's
    // handoff, without the 20 cards. What it costs alone is the part of /feed no card trim reaches.
    page('/feed past its last story', `/feed?offset=${reader.stories}`, {
      headers: { ...HEADERS, cookie: reader.cookie },
      expect: 'Back to the first stories',
    }),
    page('analytics, 90 days', analytics.path, {
      headers: { ...HEADERS, cookie: admin },
      expect: analytics.expect,
    }),
  ];

  const calm = await settled(group);
  const calmLine = `Before the first pass the app's processes ${calm.quiet ? 'went quiet (under 5% of a core for 2 s)' : 'were still busy'} after ${(calm.ms / 1000).toFixed(0)} s of waiting`;
  console.error(calmLine);
  console.error('Measuring: the peers, the pages, the peers again...');
  const loadBefore = loadAverage();
  const bareFirst = await measure(bareTarget);
  const floorFirst = await measure(floorTarget);
  const pageRows: Row[] = [];
  for (const target of pages) pageRows.push(await measure(target));
  const floorAfter = await measure(floorTarget);
  const bareAfter = await measure(bareTarget);

  const rate = (row: Row) => perSecond(row.many);
  const peers: Record<Peer, { rate: Baseline; cpu: Baseline }> = {
    'bare Express': {
      rate: baseline('bare Express req/s', 'req/s', rate(bareFirst), rate(bareAfter)),
      cpu: baseline('bare Express CPU', 'ms/req', bareFirst.webCpu, bareAfter.webCpu),
    },
    'floor page': {
      rate: baseline('floor page req/s', 'req/s', rate(floorFirst), rate(floorAfter)),
      cpu: baseline('floor page CPU', 'ms/req', floorFirst.webCpu, floorAfter.webCpu),
    },
  };
  const lines = report('Cluefeed against its peers (issue 34)', loadBefore, [
    peers['bare Express'].rate,
    peers['bare Express'].cpu,
    peers['floor page'].rate,
    peers['floor page'].cpu,
  ]);
  const rows = [bareFirst, floorFirst, ...pageRows, floorAfter, bareAfter];
  lines.push(
    `Load average at start (before the app and the seeding): ${loadAtStart}`,
    calmLine,
    `autocannon: about ${DURATION}s at 1 connection, then at ${CONNECTIONS} (after about ${WARM_UP}s unmeasured), ` +
      'one target at a time, each run a number of requests; Accept-Encoding: identity',
    `Data: a reader with ${reader.stories} scored stories; ${analytics.events.toLocaleString('en-GB')} analytics events over 90 days`,
    `CPU per request is of the ${CONNECTIONS}-connection run; storage calls per request of ${COUNTED} requests one at a time.`,
    '',
    table(
      [
        'target',
        'req/s c1',
        'p50/p99 ms c1',
        `req/s c${CONNECTIONS}`,
        `p50/p99 ms c${CONNECTIONS}`,
        'web CPU ms/req',
        'DynamoDB CPU ms/req',
        'storage calls/req',
        'HTML bytes',
        'peer',
        'req/s of peer',
        'web CPU of peer',
      ],
      rows.map((row) => {
        const peer = row.target.peer ? peers[row.target.peer] : undefined;
        const pass = row === bareFirst || row === floorFirst ? ' (before)' : '';
        return [
          row.target.name + (pass || (row === bareAfter || row === floorAfter ? ' (after)' : '')),
          perSecond(row.one).toFixed(0),
          latency(row.one),
          rate(row).toFixed(0),
          latency(row.many),
          row.webCpu.toFixed(2),
          row.dynamoCpu.toFixed(2),
          row.target.calls ? total(row.calls).toFixed(2) : '-',
          String(row.htmlBytes),
          row.target.peer ?? '-',
          peer ? ratioCell(rate(row), peer.rate) : '-',
          peer ? ratioCell(row.webCpu, peer.cpu) : '-',
        ];
      }),
    ),
    '',
    'Storage calls per request, by operation:',
    ...rows
      .filter((row) => row.target.calls && (row === floorFirst || pageRows.includes(row)))
      .map((row) => {
        const calls = Object.entries(row.calls)
          .sort(([, a], [, b]) => b - a)
          .map(([name, count]) => `${name} ${count.toFixed(2)}`);
        return `  ${row.target.name}: ${calls.join(', ') || 'none'}`;
      }),
    '',
  );

  const feed = pageRows.find((row) => row.target.url.endsWith('/feed'))!;
  const healthz = pageRows.find((row) => row.target.url.endsWith('/healthz'))!;
  const feedCpu = ratio(feed.webCpu, peers['floor page'].cpu);
  const feedCalls = total(feed.calls);
  const healthzRate = ratio(rate(healthz), peers['bare Express'].rate);
  lines.push(
    `/feed web CPU at ${feedCpu.text} of the floor page's (target <= ${FEED_CPU_TARGET}): ` +
      verdict(feedCpu, { atMost: FEED_CPU_TARGET }),
    `/feed storage calls ${feedCalls.toFixed(2)} a request (target ${FEED_CALLS_TARGET}, to the nearest whole call): ` +
      (Math.round(feedCalls) <= FEED_CALLS_TARGET ? 'PASS' : 'FAIL'),
    `/healthz req/s at ${healthzRate.text} of bare Express's (target >= ${HEALTHZ_TARGET}): ` +
      verdict(healthzRate, { atLeast: HEALTHZ_TARGET }),
  );

  const bad = rows.filter((row) =>
    [row.one, row.many].some(
      (result) =>
        result.non2xx > 0 ||
        result.errors > 0 ||
        result.timeouts > 0 ||
        (row.target.expect !== undefined && result.mismatches > 0),
    ),
  );
  for (const row of bad) {
    lines.push(
      `FAIL: ${row.target.name}: status codes ${JSON.stringify(row.many.statusCodeStats)}, ` +
        `errors ${row.one.errors + row.many.errors}, without "${row.target.expect ?? ''}" ${row.one.mismatches + row.many.mismatches}`,
    );
  }
  lines.push('='.repeat(72));
  console.log(lines.join('\n'));
  return bad.length > 0 ? 1 : 0;
}

runBench(main);
