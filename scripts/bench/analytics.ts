// npm run bench:analytics: campaign analytics (issue 21) at 90 days of traffic. The app starts
// as npm start runs it (scripts/start.ts --ephemeral: DynamoDB Local in memory, the jobs worker);
// then this bench writes --events raw events (1,000,000 by default) over the last 90 days straight
// to the table (BatchWriteItem, 25 items a request, WRITE_CONCURRENCY requests in flight: the
// bench's data, not a product path) for 20 campaigns x the 3 landing variants (and some direct
// traffic), with referrers and every funnel step in realistic proportions. The real rollup job
// ('roll-up-analytics', enqueued on the app's queue and run by its worker, as a first rollup:
// the watermark left by the start's rollup is removed) then counts them, timed from the enqueue
// until the run ends. Last, the page /admin-panel/campaign-analytics (signed in as the admin) is
// loaded BENCH_REQUESTS times each for the default 30 days, 90 days and 90 days of one campaign,
// between two /healthz runs (the baseline, scripts/bench/lib.ts "Honest figures"), and the
// report behind it is timed in this process for the same ranges. The page's p99 is given as a
// ratio to /healthz's. Exits 1 when a count of the report differs from the events written, a
// request failed, or the rollup did not succeed.
//   --events N               raw events (e.g. 100000 for a quick check); or BENCH_EVENTS
//   BENCH_REQUESTS=200       requests per page (and per /healthz run, and report call)
//   BENCH_CONNECTIONS=10     concurrent connections (and report calls in flight)
import { GetQueueUrlCommand, SQSClient } from '@aws-sdk/client-sqs';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import type { AnalyticsEvent } from '#core/analytics';
import {
  baseline,
  BROWSER_HEADERS,
  envNumber,
  isMain,
  load,
  loadAverage,
  ratio,
  report,
  runBench,
  runtimeCpu,
  signIn,
  startApp,
  table,
  checksTable,
  warmUp,
  type LoadResult,
} from './lib';

const { values: cli } = parseArgs({ options: { events: { type: 'string' } } });
const EVENTS = Math.floor(Number(cli.events ?? envNumber('BENCH_EVENTS', 1_000_000)));
if (!Number.isInteger(EVENTS) || EVENTS < 1_000) throw new Error('--events must be at least 1000');
const REQUESTS = Math.floor(envNumber('BENCH_REQUESTS', 200));
const CONNECTIONS = Math.floor(envNumber('BENCH_CONNECTIONS', 10));
export const DAYS = 90;
export const CAMPAIGNS = Array.from(
  { length: 20 },
  (_, i) => `bench-campaign-${String(i + 1).padStart(2, '0')}`,
);
const VARIANTS = ['', 'sp', 'ip'] as const;
const WRITE_CONCURRENCY = 16;
const BATCH = 25;
const ROLLUP_TIMEOUT_MS = 30 * 60_000;
export const PAGE = '/admin-panel/campaign-analytics';
const ADMIN_PASSWORD = `bench-admin-${randomBytes(8).toString('hex')}`;
const DAY_MS = 86_400_000;
const HEADERS = { ...BROWSER_HEADERS, 'accept-encoding': 'identity' };

/**
 * The share of each event among all (page views the most; then the subscriber funnel, the
 * readers' funnel and activity, newsletter clicks, niche votes), summing to 1.
 */
const MIX = [
  ['page_view', 0.82],
  ['subscribe', 0.04],
  ['subscription_confirmed', 0.03],
  ['unsubscribe', 0.003],
  ['audience_added', 0.002],
  ['niche_voted', 0.003],
  ['audience_suggested', 0.001],
  ['invited', 0.006],
  ['funnel_started', 0.005],
  ['onboarded', 0.004],
  ['feed_first_visit', 0.003],
  ['reader_active', 0.038],
  ['story_liked', 0.02],
  ['story_disliked', 0.005],
  ['newsletter_click', 0.019],
  ['clues_changed', 0.001],
] as const;
type MixName = (typeof MIX)[number][0];

export const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);
const ms = (value: number | undefined) =>
  value === undefined || !Number.isFinite(value) ? 'n/a' : value.toFixed(1);
const perSecond = (count: number, millis: number) => Math.round(count / (millis / 1000));

type Expected = {
  /** Events per funnel step of the bench's campaigns (utm set), in all and for CAMPAIGNS[0]. */
  steps: Record<string, number>;
  firstCampaign: Record<string, number>;
  byName: Record<string, number>;
};

/**
 * The events, one day after another (the 90 days before and including today, today's before
 * `now`), each a page view as a browser reports it or a business event's item as the product
 * writes it (Analytics.eventItem), with fixed ids.
 */
export async function* events(
  now: number,
  audienceIds: string[],
  nicheIds: string[],
  slugs: string[],
): AsyncGenerator<AnalyticsEvent> {
  const Analytics = await import('#core/analytics');
  const { STEP_OF } = await import('#core/campaign-analytics');
  const { pageView, seededRandom } = await import('#scripts/seed/analytics');
  const next = seededRandom(21);
  const cumulative: [MixName, number][] = [];
  let total = 0;
  for (const [name, share] of MIX) cumulative.push([name, (total += share)]);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  // Campaigns bring unequal traffic: the first ones the most (1/rank, as ad spend often goes).
  const campaignWeights = CAMPAIGNS.map((_, rank) => 1 / (rank + 1));
  const campaignTotal = campaignWeights.reduce((sum, w) => sum + w, 0);
  const campaign = () => {
    let r = next() * campaignTotal;
    for (const [index, weight] of campaignWeights.entries()) if ((r -= weight) < 0) return index;
    return CAMPAIGNS.length - 1;
  };
  const today = Date.parse(`${dayOf(now)}T00:00:00Z`);
  for (let n = 0; n < EVENTS; n++) {
    const back = DAYS - 1 - Math.floor((n * DAYS) / EVENTS);
    const dayStart = today - back * DAY_MS;
    const at = new Date(
      dayStart + Math.floor(next() * Math.min(DAY_MS, now - dayStart)),
    ).toISOString();
    const r = next() * total;
    const name = cumulative.find(([, upTo]) => r < upTo)![0];
    // 10% direct traffic (no campaign); a third of visits come from an audience's page.
    const direct = next() < 0.1;
    const tracking = direct
      ? { vus: '' as const }
      : { utm: CAMPAIGNS[campaign()]!, vus: pick(VARIANTS) };
    const raud = next() < 0.3 ? pick(slugs) : undefined;
    const key = `bench:${n}`;
    if (name === 'page_view') {
      const slug = pick(slugs);
      yield pageView(`bench-${n}`, at, `/a/${slug}`, { ...tracking, raud });
      continue;
    }
    const funnel = STEP_OF[name] !== undefined;
    const event = {
      name,
      key,
      path: funnel ? '/a' : '/feed',
      ...(funnel ? { ...tracking, raud } : {}),
    };
    switch (name) {
      case 'subscription_confirmed':
        yield Analytics.eventItem(
          {
            ...event,
            path: '/confirm-subscription',
            audienceIds:
              next() < 0.3 ? [pick(audienceIds), pick(audienceIds)] : [pick(audienceIds)],
          },
          at,
        );
        break;
      case 'unsubscribe':
      case 'audience_added':
        yield Analytics.eventItem({ ...event, audienceIds: [pick(audienceIds)] }, at);
        break;
      case 'niche_voted':
        yield Analytics.eventItem({ ...event, audienceIds: [pick(nicheIds)] }, at);
        break;
      case 'audience_suggested':
        yield Analytics.eventItem(
          { ...event, text: pick(['Bitcoin miners', 'DAO treasurers', 'NFT artists']) },
          at,
        );
        break;
      case 'newsletter_click':
        // A daily issue a day, its 30 stories clicked unequally.
        yield Analytics.eventItem(
          {
            ...event,
            path: '/newsletter-click',
            issueId: `bench-issue-${dayOf(dayStart)}`,
            articleId: `bench-article-${dayOf(dayStart)}-${Math.floor(next() ** 2 * 30)}`,
          },
          at,
        );
        break;
      default:
        yield Analytics.eventItem(event, at);
    }
  }
}

/** Writes the events with WRITE_CONCURRENCY BatchWriteItem requests in flight; counts them. */
export async function writeEvents(source: AsyncGenerator<AnalyticsEvent>) {
  const Analytics = await import('#core/analytics');
  const { STEP_OF } = await import('#core/campaign-analytics');
  const expected: Expected = { steps: {}, firstCampaign: {}, byName: {} };
  const add = (counts: Record<string, number>, key: string) =>
    (counts[key] = (counts[key] ?? 0) + 1);
  let written = 0;
  let reported = 0;
  const started = performance.now();
  const take = async () => {
    const batch: AnalyticsEvent[] = [];
    while (batch.length < BATCH) {
      const { value, done } = await source.next();
      if (done) break;
      batch.push(value);
      add(expected.byName, value.name);
      const step = STEP_OF[value.name];
      if (step && value.utm) {
        add(expected.steps, step);
        if (value.utm === CAMPAIGNS[0]) add(expected.firstCampaign, step);
      }
    }
    return batch;
  };
  const writer = async () => {
    for (let batch = await take(); batch.length > 0; batch = await take()) {
      let pending = batch;
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt > 10) throw new Error(`${pending.length} event(s) stayed unprocessed`);
        const { unprocessed } = await Analytics.AnalyticsEventEntity.put(pending).go();
        pending = unprocessed as typeof pending;
      }
      written += batch.length;
      if (written - reported >= 100_000 || written === EVENTS) {
        reported = written;
        const seconds = (performance.now() - started) / 1000;
        console.error(
          `  ${written.toLocaleString('en-GB')} events, ${perSecond(written, seconds * 1000)}/s`,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: WRITE_CONCURRENCY }, writer));
  return { written, ms: performance.now() - started, expected };
}

/** The rollup as the worker runs it: enqueued on the app's queue; waits until it ends. */
export async function rollUp() {
  const Jobs = await import('#core/jobs');
  const CampaignAnalytics = await import('#core/campaign-analytics');
  const started = performance.now();
  const run = await Jobs.enqueue(CampaignAnalytics.rollUpAnalytics, {}, 'bench');
  let lastStatus = '';
  for (;;) {
    const current = await Jobs.byId(run.id);
    if (current?.status === 'Success' || current?.status === 'Failed') {
      return { status: current.status, ms: performance.now() - started };
    }
    if (current && current.status !== lastStatus) {
      lastStatus = current.status;
      console.error(
        `  rollup ${current.status} after ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    }
    if (performance.now() - started > ROLLUP_TIMEOUT_MS) throw new Error('The rollup did not end');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Waits until npm start's own rollup (of its demo analytics) has ended, so the slot is free. */
export async function startRollupEnded() {
  const Jobs = await import('#core/jobs');
  const giveUpAt = Date.now() + ROLLUP_TIMEOUT_MS;
  while (Date.now() < giveUpAt) {
    const busy = (await Jobs.active()).some((process) => process.name === 'roll-up-analytics');
    if (!busy && (await Jobs.lastRun('roll-up-analytics'))) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error("npm start's rollup did not end");
}

/** The rollup items a range reads (the report's one Query), their size and read capacity. */
async function rangeReads(from: string, to: string) {
  const { QueryCommand } = await import('@aws-sdk/lib-dynamodb');
  const { db } = await import('#core/db');
  const CampaignAnalytics = await import('#core/campaign-analytics');
  const params = CampaignAnalytics.DayRollupEntity.query
    .byDay({})
    .between({ day: from }, { day: to })
    .params({ consistent: true }) as Record<string, unknown>;
  let items = 0;
  let bytes = 0;
  let capacity: number | undefined;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db().client.send(
      new QueryCommand({
        ...params,
        ExclusiveStartKey: start,
        ReturnConsumedCapacity: 'TOTAL',
      } as never),
    );
    items += page.Items?.length ?? 0;
    bytes += (page.Items ?? []).reduce((sum, item) => sum + JSON.stringify(item).length, 0);
    const units = page.ConsumedCapacity?.CapacityUnits;
    if (units !== undefined) capacity = (capacity ?? 0) + units;
    start = page.LastEvaluatedKey;
  } while (start);
  return { items, bytes, capacity };
}

/** p50 and p99 (ms) of REQUESTS calls of `work` in this process, `inFlight` at a time. */
async function timed(work: () => Promise<unknown>, inFlight: number) {
  const { mapPool } = await import('#core/common');
  for (let i = 0; i < 5; i++) await work();
  const times = await mapPool(
    Array.from({ length: REQUESTS }, (_, i) => i),
    inFlight,
    async () => {
      const started = performance.now();
      await work();
      return performance.now() - started;
    },
  );
  times.sort((a, b) => a - b);
  const at = (share: number) =>
    times[Math.min(times.length - 1, Math.ceil(share * times.length) - 1)]!;
  return { p50: at(0.5), p99: at(0.99) };
}

type Target = { name: string; url: string; headers: Record<string, string>; expect?: string };
type Row = { target: Target; result: LoadResult; cpu: Map<string, number> };

async function main(): Promise<number> {
  const loadAtStart = loadAverage();
  console.error(`Load average at start: ${loadAtStart}`);
  console.error('Starting the app (builds it first if stale)...');
  const appSecret = randomBytes(32).toString('hex');
  const app = await startApp({ env: { ADMIN_PASSWORD, APP_SECRET: appSecret } });
  // The jobs queue of the app (its worker polls it), from npm start's banner.
  const sqsEndpoint = await app.printed(/^Jobs queue \(fauxqs\): (\S+);/);
  const sqs = new SQSClient({
    endpoint: sqsEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: 'cluefeed-jobs' }));
  // The events are written and the rollup enqueued from here, in the app's table: core reads
  // this environment once.
  Object.assign(process.env, {
    DYNAMODB_ENDPOINT: `http://127.0.0.1:${app.dynamoPort}`,
    TABLE_NAME: 'cluefeed',
    SQS_ENDPOINT: sqsEndpoint,
    JOBS_QUEUE_URL: QueueUrl,
    APP_SECRET: appSecret,
    NODE_ENV: 'development',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  });
  const Audiences = await import('#core/audiences');
  const CampaignAnalytics = await import('#core/campaign-analytics');
  const audiences = await Audiences.list();
  const active = audiences.filter((audience) => audience.state === 'active');
  const upcoming = audiences.filter((audience) => audience.state === 'upcoming');
  if (active.length === 0 || upcoming.length === 0)
    throw new Error('The demo audiences are missing');

  const now = Date.now();
  console.error(
    `Writing ${EVENTS.toLocaleString('en-GB')} events over ${DAYS} days (${WRITE_CONCURRENCY} BatchWriteItem requests in flight)...`,
  );
  const cpuBeforeWrite = runtimeCpu(app.child.pid!);
  const write = await writeEvents(
    events(
      now,
      active.map((audience) => audience.id),
      upcoming.map((audience) => audience.id),
      active.map((audience) => audience.slug),
    ),
  );
  const writeCpu = runtimeCpu(app.child.pid!);

  console.error('Rolling them up with the worker (as a first rollup: the watermark removed)...');
  await startRollupEnded();
  await CampaignAnalytics.RollupWatermarkEntity.delete({}).go();
  const cpuBeforeRollup = runtimeCpu(app.child.pid!);
  const loadBeforeRollup = loadAverage();
  const rollup = await rollUp();
  const rollupCpu = runtimeCpu(app.child.pid!);
  const cpuDelta = (after: Map<string, number>, before: Map<string, number>, name: string) =>
    ((after.get(name) ?? 0) - (before.get(name) ?? 0)) / 1000;
  console.error(`  ${rollup.status} in ${(rollup.ms / 1000).toFixed(1)} s`);

  const today = dayOf(now);
  const from90 = dayOf(Date.parse(`${today}T00:00:00Z`) - (DAYS - 1) * DAY_MS);
  const from30 = dayOf(Date.parse(`${today}T00:00:00Z`) - 29 * DAY_MS);
  const ranges = [
    { name: 'default (30 days)', query: '', input: {}, from: from30 },
    {
      name: `${DAYS} days`,
      query: `?from=${from90}&to=${today}`,
      input: { from: from90, to: today },
      from: from90,
    },
    {
      name: `${DAYS} days, one campaign`,
      query: `?from=${from90}&to=${today}&utm=${CAMPAIGNS[0]}`,
      input: { from: from90, to: today, utm: CAMPAIGNS[0] },
      from: from90,
    },
  ];

  // What the report says against what was written.
  const full = await CampaignAnalytics.report(ranges[1]!.input);
  const ours = full.funnel.byCampaign.filter((row) => CAMPAIGNS.includes(row.utm));
  const first = await CampaignAnalytics.report(ranges[2]!.input);
  const checks = [
    { what: 'rollup: status', expected: 'Success', actual: rollup.status },
    { what: 'events written', expected: EVENTS, actual: write.written },
    ...[
      'visit',
      'subscribe',
      'confirm',
      'invited',
      'funnel_started',
      'onboarded',
      'feed_first_visit',
    ].flatMap((step) => [
      {
        what: `${DAYS} days, the bench's campaigns: ${step}`,
        expected: write.expected.steps[step] ?? 0,
        actual: ours.reduce((sum, row) => sum + row.counts[step as keyof typeof row.counts], 0),
      },
      {
        what: `${DAYS} days, ${CAMPAIGNS[0]}: ${step}`,
        expected: write.expected.firstCampaign[step] ?? 0,
        actual: first.funnel.totals[step as keyof typeof first.funnel.totals],
      },
    ]),
  ];

  console.error('Timing CampaignAnalytics.report in this process...');
  const reads = await Promise.all(ranges.map((range) => rangeReads(range.from, today)));
  const inProcess: { p50: number; p99: number }[] = [];
  for (const range of ranges) {
    inProcess.push(await timed(() => CampaignAnalytics.report(range.input), CONNECTIONS));
  }
  // Where a report's time goes, one call at a time (the 90-day range).
  const parts: [string, { p50: number; p99: number }][] = [
    ['report', await timed(() => CampaignAnalytics.report(ranges[1]!.input), 1)],
    [
      'its Query of the rollups (ElectroDB, as daysStored)',
      await timed(
        () =>
          CampaignAnalytics.DayRollupEntity.query
            .byDay({})
            .between({ day: from90 }, { day: today })
            .go({ pages: 'all', consistent: true }),
        1,
      ),
    ],
    ['its Audiences.list()', await timed(() => Audiences.list(), 1)],
  ];

  // The page, beside /healthz.
  const admin = await signIn(app.baseUrl, '/admin-panel/authorize', {
    userName: 'admin',
    password: ADMIN_PASSWORD,
  });
  const healthz: Target = { name: '/healthz', url: `${app.baseUrl}/healthz`, headers: HEADERS };
  const pages: Target[] = ranges.map((range) => ({
    name: `page, ${range.name}`,
    url: app.baseUrl + PAGE + range.query,
    headers: { ...HEADERS, cookie: admin },
    expect: CAMPAIGNS[0],
  }));
  await warmUp(
    [healthz, ...pages].map((target) => target.url),
    5,
    { ...HEADERS, cookie: admin },
  );
  const loadBefore = loadAverage();
  const run = async (target: Target): Promise<Row> => {
    console.error(`autocannon ${target.name}: ${REQUESTS} requests, ${CONNECTIONS} connections...`);
    const cpuBefore = runtimeCpu(app.child.pid!);
    const expected = target.expect;
    const result = await load({
      url: target.url,
      connections: CONNECTIONS,
      amount: REQUESTS,
      headers: target.headers,
      ...(expected ? { verifyBody: (body: string) => body.includes(expected) } : {}),
    });
    const cpuAfter = runtimeCpu(app.child.pid!);
    const cpu = new Map(
      [...cpuAfter].map(([name, after]) => [name, after - (cpuBefore.get(name) ?? 0)]),
    );
    console.error(
      `  p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}`,
    );
    return { target, result, cpu };
  };
  const healthzBefore = await run(healthz);
  const pageRows: Row[] = [];
  for (const page of pages) pageRows.push(await run(page));
  const healthzAfter = await run(healthz);
  const base = baseline(
    '/healthz p99',
    'ms',
    healthzBefore.result.latency.p99 ?? NaN,
    healthzAfter.result.latency.p99 ?? NaN,
  );

  const lines = report('Cluefeed campaign analytics benchmark', loadBefore, [base]);
  const writeSeconds = write.ms / 1000;
  lines.push(
    `Load average at start (before the app, the events and the rollup): ${loadAtStart}; before the rollup: ${loadBeforeRollup}`,
    `Data: ${write.written.toLocaleString('en-GB')} raw events over ${DAYS} days (${today} back), ${CAMPAIGNS.length} campaigns x ${VARIANTS.length} landing variants and 10% direct, ` +
      `a third with a referrer; besides npm start's demo analytics (4 weeks of a few hundred a day)`,
    `Mix: ${Object.entries(write.expected.byName)
      .sort(([, a], [, b]) => b - a)
      .map(([name, n]) => `${name} ${n}`)
      .join(', ')}`,
    '',
    table(
      ['step', 'events', 's', 'events/s', 'DynamoDB CPU s', 'worker CPU s'],
      [
        [
          `write (BatchWriteItem x ${BATCH}, ${WRITE_CONCURRENCY} in flight)`,
          String(write.written),
          writeSeconds.toFixed(1),
          String(perSecond(write.written, write.ms)),
          cpuDelta(writeCpu, cpuBeforeWrite, 'DynamoDB Local').toFixed(1),
          '-',
        ],
        [
          'rollup (enqueue -> Success, the worker)',
          String(write.written),
          (rollup.ms / 1000).toFixed(1),
          String(perSecond(write.written, rollup.ms)),
          cpuDelta(rollupCpu, cpuBeforeRollup, 'DynamoDB Local').toFixed(1),
          cpuDelta(rollupCpu, cpuBeforeRollup, 'jobs worker').toFixed(1),
        ],
      ],
    ),
    '',
    "What a range reads: the report's one Query of the rollups (beside audiences, issues, watermark, <= 10 article titles)",
    table(
      ['range', 'rollup items', 'KiB', 'RCU', 'report p50 ms', 'report p99 ms'],
      ranges.map((range, i) => [
        range.name,
        String(reads[i]!.items),
        (reads[i]!.bytes / 1024).toFixed(0),
        reads[i]!.capacity === undefined ? 'n/a' : reads[i]!.capacity!.toFixed(1),
        ms(inProcess[i]!.p50),
        ms(inProcess[i]!.p99),
      ]),
    ),
    `(report: CampaignAnalytics.report in this process, ${REQUESTS} calls, ${CONNECTIONS} at a time)`,
    '',
    `One call at a time, ${DAYS} days (${REQUESTS} calls each):`,
    table(
      ['in this process', 'p50 ms', 'p99 ms'],
      parts.map(([name, t]) => [name, ms(t.p50), ms(t.p99)]),
    ),
    '',
    `The page ${PAGE} signed in as the admin: ${REQUESTS} requests a row, ${CONNECTIONS} connections, Accept-Encoding: identity`,
    table(
      [
        'measured',
        'p50 ms',
        'p99 ms',
        'req/s',
        'non-2xx',
        'no campaign',
        'errors',
        'p99 / /healthz p99',
        'KiB/answer',
        'web CPU ms/req',
        'DynamoDB CPU ms/req',
      ],
      [healthzBefore, ...pageRows, healthzAfter].map((row, i) => {
        const requests = row.result.requests.total ?? 0;
        const perRequest = (name: string) =>
          requests > 0 ? ((row.cpu.get(name) ?? 0) / requests).toFixed(2) : '-';
        const isBaseline = row.target === healthz;
        return [
          `${row.target.name}${isBaseline ? (i === 0 ? ' (before)' : ' (after)') : ''}`,
          String(row.result.latency.p50),
          String(row.result.latency.p99),
          row.result.requests.average.toFixed(0),
          String(row.result.non2xx),
          row.target.expect ? String(row.result.mismatches) : '-',
          String(row.result.errors + row.result.timeouts),
          isBaseline ? '-' : ratio(row.result.latency.p99 ?? NaN, base).text,
          (row.result.throughput.total / Math.max(1, requests) / 1024).toFixed(1),
          perRequest('web server'),
          perRequest('DynamoDB Local'),
        ];
      }),
    ),
    '',
    checksTable(checks),
  );
  const bad = [healthzBefore, ...pageRows, healthzAfter].filter(
    (row) =>
      row.result.non2xx > 0 ||
      row.result.errors > 0 ||
      row.result.timeouts > 0 ||
      (row.target.expect !== undefined && row.result.mismatches > 0),
  );
  for (const row of bad) {
    lines.push(
      `FAIL: ${row.target.name} status codes ${JSON.stringify(row.result.statusCodeStats)}, ${row.result.mismatches} without "${row.target.expect ?? ''}"`,
    );
  }
  lines.push('='.repeat(72));
  console.log(lines.join('\n'));
  const countsOk = checks.every((check) => check.actual === check.expected);
  return bad.length > 0 || !countsOk ? 1 : 0;
}

if (isMain(import.meta.url)) runBench(main);
