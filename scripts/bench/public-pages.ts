// npm run bench:public-pages: throughput (autocannon) of the pages against two baselines from the
// same run, each measured before and after the pages: a bare Node http server (and a bare Express
// app with compression beside it, both processes of their own like the app) for /healthz, and
// /healthz for the pages (home, audience, post; the reader's /feed and an admin page, signed in).
// A ratio is printed only when its baseline held still (scripts/bench/lib.ts). Then Lighthouse
// scores (mobile defaults) with the audits that fail, of the public pages and of the reader's
// /feed, signed in (the reader the load runs use).
// Targets: /healthz >= 0.3 of bare Node; home, audience and post >= 0.6 of /healthz.
//   BENCH_DURATION=10        seconds per route
//   BENCH_CONNECTIONS=20     concurrent connections
//   BENCH_SKIP_LIGHTHOUSE=1  load test only
//   BENCH_LIGHTHOUSE_RUNS=1  Lighthouse runs a page; with more, the table holds each category's
//                            median (its failing audits from the run that scored it), and each
//                            run's scores and blocking time are listed
//   CHROMIUM_PATH=/usr/bin/chromium
import { CHROMIUM_PATH } from '../local/chromium';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { audiences, contentCards, posts } from '../seed/data';
import {
  baseline,
  BROWSER_HEADERS,
  envNumber,
  isMain,
  failingAudits,
  launchChrome,
  load,
  loadAverage,
  runBench,
  ratio,
  report,
  runLighthouse,
  signIn,
  startApp,
  startBareServer,
  table,
  type FailingAudit,
  type LoadResult,
  verdict,
  warmUp,
} from './lib';

const DURATION = envNumber('BENCH_DURATION', 10);
const CONNECTIONS = envNumber('BENCH_CONNECTIONS', 20);
const SKIP_LIGHTHOUSE = process.env.BENCH_SKIP_LIGHTHOUSE === '1';
const LIGHTHOUSE_RUNS = Math.max(1, Math.floor(envNumber('BENCH_LIGHTHOUSE_RUNS', 1)));
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const MAX_ITEMS = 15;

/** The audience `defi-builders` if present, else the active audience with the most content cards. */
export function pickAudience() {
  const active = audiences.filter((a) => a.state === 'active');
  const cards = (key: string) => contentCards.filter((c) => c.audience === key).length;
  const audience =
    active.find((a) => a.key === 'defi-builders') ??
    [...active].sort((a, b) => cards(b.key) - cards(a.key))[0];
  if (!audience) throw new Error('The seed data has no active audience.');
  return audience;
}

/** The newest original (Markdown) post of the audience, else its newest post. */
export function pickPost(audienceKey: string) {
  const newestFirst = posts
    .filter((p) => p.audience === audienceKey)
    .sort((a, b) => b.date.localeCompare(a.date));
  const post = newestFirst.find((p) => p.content) ?? newestFirst[0] ?? posts[0];
  if (!post) throw new Error('The seed data has no posts.');
  return post;
}

/** A page measured; `cookie` signs its requests in (the reader's /feed). */
type Route = { name: string; path: string; cookie?: string };
type Target = { name: string; url: string; headers: Record<string, string> };
type LoadRow = { target: Target; result: LoadResult };
type PageAudit = {
  route: Route;
  scores: Record<string, number | null>;
  failing: Record<string, FailingAudit[]>;
  reportFile: string;
  /** Each run's performance score, Total Blocking Time and other categories' scores. */
  eachRun: string[];
};

/** The ratios the issue asks for: /healthz of bare Node, the public pages of /healthz. */
const HEALTHZ_TARGET = 0.3;
const PAGE_TARGET = 0.6;
const TARGETED_PAGES = ['home', 'audience', 'post'];
const ADMIN_PASSWORD = `bench-admin-${randomBytes(8).toString('hex')}`;

/** A reader stored in the app's table, signed in through /login. */
async function readerCookie(baseUrl: string) {
  const { readerWithPassword } = await import('#tests/integration/readers');
  // No clues: storing them queues a scoring job, and this process has no queue.
  const reader = await readerWithPassword();
  return signIn(baseUrl, '/login', { login: reader.email, password: reader.password });
}

async function main() {
  const audience = pickAudience();
  const post = pickPost(audience.key);
  const routes: Route[] = [
    { name: 'home', path: '/' },
    { name: 'audience', path: `/a/${audience.slug}` },
    { name: 'post', path: `/p/${post.slug}` },
  ];

  console.error('Starting the app (builds it first if stale) and the bare servers...');
  const appSecret = randomBytes(32).toString('hex');
  const app = await startApp({ env: { ADMIN_PASSWORD, APP_SECRET: appSecret } });
  const [bareNode, bareExpress] = await Promise.all([
    startBareServer('node'),
    startBareServer('express'),
  ]);
  // The reader is stored from here, in the app's table: core reads this environment once.
  Object.assign(process.env, {
    DYNAMODB_ENDPOINT: `http://127.0.0.1:${app.dynamoPort}`,
    TABLE_NAME: 'cluefeed',
    APP_SECRET: appSecret,
    NODE_ENV: 'development',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  });
  const [reader, admin] = await Promise.all([
    readerCookie(app.baseUrl),
    signIn(app.baseUrl, '/admin-panel/authorize', { userName: 'admin', password: ADMIN_PASSWORD }),
  ]);
  const signedIn = (cookie: string) => ({ ...BROWSER_HEADERS, cookie });
  const target = (name: string, url: string, headers = BROWSER_HEADERS): Target => ({
    name,
    url,
    headers,
  });
  const bareNodeTarget = target('bare Node http', bareNode.url);
  const bareExpressTarget = target('bare Express + compression', bareExpress.url);
  const healthz = target('/healthz', `${app.baseUrl}/healthz`);
  const pages = [
    ...routes.map((route) => target(route.name, app.baseUrl + route.path)),
    target('feed (reader)', `${app.baseUrl}/feed`, signedIn(reader)),
    target('admin outbox', `${app.baseUrl}/admin-panel/outbox`, signedIn(admin)),
  ];
  console.error(`App is up at ${app.baseUrl}; warming up...`);
  for (const t of [bareNodeTarget, bareExpressTarget, healthz, ...pages]) {
    await warmUp([t.url], 5, t.headers);
  }

  const loadBefore = loadAverage();
  const run = async (t: Target): Promise<LoadRow> => {
    console.error(`autocannon ${t.name}: ${CONNECTIONS} connections, ${DURATION}s...`);
    const result = await load({
      url: t.url,
      connections: CONNECTIONS,
      duration: DURATION,
      headers: t.headers,
    });
    console.error(
      `  ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}`,
    );
    return { target: t, result };
  };
  // Baselines first and last, the measured pages between them.
  const nodeFirst = await run(bareNodeTarget);
  const expressFirst = await run(bareExpressTarget);
  const healthzFirst = await run(healthz);
  const pageRows: LoadRow[] = [];
  for (const page of pages) pageRows.push(await run(page));
  const healthzAfter = await run(healthz);
  const expressAfter = await run(bareExpressTarget);
  const nodeAfter = await run(bareNodeTarget);
  const loadRows = [
    nodeFirst,
    expressFirst,
    healthzFirst,
    ...pageRows,
    healthzAfter,
    expressAfter,
    nodeAfter,
  ];

  const reqs = (row: LoadRow) => row.result.requests.average;
  const nodeBase = baseline('bare Node http', 'req/s', reqs(nodeFirst), reqs(nodeAfter));
  const expressBase = baseline(
    'bare Express + compression',
    'req/s',
    reqs(expressFirst),
    reqs(expressAfter),
  );
  const healthzBase = baseline('/healthz', 'req/s', reqs(healthzFirst), reqs(healthzAfter));
  const pageAudits: PageAudit[] = [];
  let reportDir = '';
  if (!SKIP_LIGHTHOUSE) {
    reportDir = join(tmpdir(), `cluefeed-bench-lighthouse-${Date.now()}`);
    mkdirSync(reportDir, { recursive: true });
    console.error(`Launching ${CHROMIUM_PATH} for Lighthouse...`);
    const chrome = await launchChrome(CHROMIUM_PATH);
    try {
      // The reader's feed too, signed in as the reader the load runs use.
      for (const route of [...routes, { name: 'feed', path: '/feed', cookie: reader }]) {
        const runs: Awaited<ReturnType<typeof runLighthouse>>[] = [];
        for (let run = 1; run <= LIGHTHOUSE_RUNS; run++) {
          console.error(`Lighthouse ${route.path} (${run} of ${LIGHTHOUSE_RUNS})...`);
          runs.push(
            await runLighthouse(
              app.baseUrl + route.path,
              chrome.port,
              CATEGORIES,
              route.cookie ? { extraHeaders: { Cookie: route.cookie } } : {},
            ),
          );
        }
        const score = (lhr: (typeof runs)[number], id: string) => {
          const value = lhr.categories[id]?.score;
          return typeof value === 'number' ? Math.round(value * 100) : null;
        };
        /** The run whose score in `id` is that category's median (the lower middle one). */
        const medianRun = (id: string) =>
          [...runs].sort((a, b) => (score(a, id) ?? 0) - (score(b, id) ?? 0))[
            Math.floor((runs.length - 1) / 2)
          ]!;
        // The median performance run is the one saved in full.
        const lhr = medianRun('performance');
        const reportFile = join(reportDir, `${route.name}.json`);
        writeFileSync(reportFile, JSON.stringify(lhr, null, 2));
        const scores: PageAudit['scores'] = {};
        const failing: PageAudit['failing'] = {};
        for (const id of CATEGORIES) {
          const median = medianRun(id);
          scores[id] = score(median, id);
          if (scores[id] !== 100) failing[id] = failingAudits(median, id);
        }
        for (const warning of lhr.runWarnings) console.error(`  warning: ${warning}`);
        const eachRun = runs.map((run) => {
          const blocking = run.audits['total-blocking-time']?.numericValue;
          const time = blocking === undefined ? 'n/a' : `${Math.round(blocking)} ms`;
          const others = CATEGORIES.filter((id) => id !== 'performance')
            .map((id) => score(run, id) ?? 'n/a')
            .join('/');
          return `${score(run, 'performance') ?? 'n/a'} (blocking ${time}; ${others})`;
        });
        pageAudits.push({ route, scores, failing, reportFile, eachRun });
      }
    } finally {
      await chrome.kill();
    }
  }

  // ------------------------------------------------------------------ summary
  const lines = report('Cluefeed public pages benchmark', loadBefore, [
    nodeBase,
    expressBase,
    healthzBase,
  ]);
  const measuredRows: [string, number, LoadRow | undefined][] = [
    ['bare Express + compression', expressBase.value, undefined],
    ['/healthz', healthzBase.value, undefined],
    ...pageRows.map((row): [string, number, LoadRow] => [
      row.target.url.replace(app.baseUrl, '') + (row.target.headers.cookie ? ' (signed in)' : ''),
      reqs(row),
      row,
    ]),
  ];
  lines.push(
    `autocannon: ${CONNECTIONS} connections, ${DURATION}s per run, one run at a time, Accept-Encoding: gzip`,
    `Audience: ${audience.key} -> /a/${audience.slug}   Post: /p/${post.slug}`,
    '',
    table(
      ['measured', 'req/s (avg)', 'p99 ms', 'non-2xx/errors', 'of bare Node', 'of /healthz'],
      measuredRows.map(([name, perSecond, row]) => [
        name,
        perSecond.toFixed(0),
        row ? String(row.result.latency.p99) : '-',
        row ? `${row.result.non2xx}/${row.result.errors}` : '-',
        ratio(perSecond, nodeBase).text,
        name === '/healthz' || name.startsWith('bare') ? '-' : ratio(perSecond, healthzBase).text,
      ]),
    ),
    '',
  );
  const healthzRatio = ratio(healthzBase.value, nodeBase);
  lines.push(
    `/healthz at ${healthzRatio.text} of bare Node (target >= ${HEALTHZ_TARGET}): ${verdict(healthzRatio, { atLeast: HEALTHZ_TARGET })}`,
  );
  for (const row of pageRows.filter((r) => TARGETED_PAGES.includes(r.target.name))) {
    const r = ratio(reqs(row), healthzBase);
    lines.push(
      `${row.target.name} at ${r.text} of /healthz (target >= ${PAGE_TARGET}): ${verdict(r, { atLeast: PAGE_TARGET })}`,
    );
  }

  if (SKIP_LIGHTHOUSE) {
    lines.push('', 'Lighthouse: skipped (BENCH_SKIP_LIGHTHOUSE=1)');
  } else {
    lines.push(
      '',
      `Lighthouse (default config: mobile emulation, simulated throttling)${LIGHTHOUSE_RUNS > 1 ? `: the median of ${LIGHTHOUSE_RUNS} runs a page` : ''}`,
      '',
      table(
        ['page', ...CATEGORIES],
        pageAudits.map((page) => [
          page.route.path,
          ...CATEGORIES.map((id) => String(page.scores[id] ?? 'n/a')),
        ]),
      ),
    );
    if (LIGHTHOUSE_RUNS > 1) {
      lines.push(
        '',
        `Each run: performance (Total Blocking Time; ${CATEGORIES.filter((id) => id !== 'performance').join('/')}):`,
      );
      for (const page of pageAudits) lines.push(`  ${page.route.path}: ${page.eachRun.join(', ')}`);
    }
    for (const page of pageAudits) {
      for (const [category, audits] of Object.entries(page.failing)) {
        lines.push('', `${page.route.path} - ${category} ${page.scores[category] ?? 'n/a'}:`);
        if (audits.length === 0) lines.push('  (no individual audit below 1)');
        for (const audit of audits) {
          const score = audit.score === null ? audit.scoreDisplayMode : audit.score.toFixed(2);
          const value = audit.displayValue ? ` - ${audit.displayValue}` : '';
          lines.push(`  [${score}] ${audit.id}: ${audit.title}${value}`);
          if (audit.explanation) lines.push(`      ${audit.explanation}`);
          if (audit.errorMessage) lines.push(`      error: ${audit.errorMessage}`);
          for (const warning of audit.warnings) lines.push(`      warning: ${warning}`);
          for (const item of audit.items.slice(0, MAX_ITEMS)) {
            // Indented lines continue the item above them (request chains, list sections).
            lines.push(item.startsWith(' ') ? `     ${item}` : `    * ${item}`);
          }
          if (audit.items.length > MAX_ITEMS) {
            lines.push(`    * ... and ${audit.items.length - MAX_ITEMS} more`);
          }
        }
      }
    }
    lines.push('', `Full Lighthouse reports (JSON): ${reportDir}`);
  }

  const bad = loadRows.filter((row) => row.result.non2xx > 0 || row.result.errors > 0);
  if (bad.length > 0) {
    lines.push(
      '',
      `FAIL: non-2xx responses or errors on ${bad.map((r) => r.target.name).join(', ')}`,
    );
    for (const row of bad) {
      lines.push(
        `  ${row.target.name} status codes: ${JSON.stringify(row.result.statusCodeStats)}`,
      );
    }
  }
  lines.push('='.repeat(72));
  console.log(lines.join('\n'));
  return bad.length > 0 ? 1 : 0;
}

if (isMain(import.meta.url)) runBench(main);
