// npm run bench:public-pages: throughput of the public pages against the trivial /healthz route
// (autocannon), then Lighthouse scores (mobile defaults) with the audits that fail.
//   BENCH_DURATION=10        seconds per route
//   BENCH_CONNECTIONS=20     concurrent connections
//   BENCH_SKIP_LIGHTHOUSE=1  load test only
//   CHROMIUM_PATH=/usr/bin/chromium
import { CHROMIUM_PATH } from '../local/chromium';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { audiences, contentCards, posts } from '../seed/data';
import {
  BROWSER_HEADERS,
  envNumber,
  failingAudits,
  launchChrome,
  load,
  runBench,
  runLighthouse,
  startApp,
  table,
  type FailingAudit,
  type LoadResult,
  warmUp,
} from './lib';

const DURATION = envNumber('BENCH_DURATION', 10);
const CONNECTIONS = envNumber('BENCH_CONNECTIONS', 20);
const SKIP_LIGHTHOUSE = process.env.BENCH_SKIP_LIGHTHOUSE === '1';
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const TARGET_RATIO = 60;
const MAX_ITEMS = 15;

/** The audience `defi-builders` if present, else the active audience with the most content cards. */
function pickAudience() {
  const active = audiences.filter((a) => a.state === 'active');
  const cards = (key: string) => contentCards.filter((c) => c.audience === key).length;
  const audience =
    active.find((a) => a.key === 'defi-builders') ??
    [...active].sort((a, b) => cards(b.key) - cards(a.key))[0];
  if (!audience) throw new Error('The seed data has no active audience.');
  return audience;
}

/** The newest original (Markdown) post of the audience, else its newest post. */
function pickPost(audienceKey: string) {
  const newestFirst = posts
    .filter((p) => p.audience === audienceKey)
    .sort((a, b) => b.date.localeCompare(a.date));
  const post = newestFirst.find((p) => p.content) ?? newestFirst[0] ?? posts[0];
  if (!post) throw new Error('The seed data has no posts.');
  return post;
}

type Route = { name: string; path: string };
type LoadRow = { route: Route; result: LoadResult };
type PageAudit = {
  route: Route;
  scores: Record<string, number | null>;
  failing: Record<string, FailingAudit[]>;
  reportFile: string;
};

function pct(value: number): string {
  return `${Math.round(value)}%`;
}

async function main() {
  const audience = pickAudience();
  const post = pickPost(audience.key);
  const routes: Route[] = [
    { name: 'healthz', path: '/healthz' },
    { name: 'home', path: '/' },
    { name: 'audience', path: `/a/${audience.slug}` },
    { name: 'post', path: `/p/${post.slug}` },
  ];

  console.error('Starting the app (builds it first if stale)...');
  const app = await startApp();
  console.error(`App is up at ${app.baseUrl}; warming up...`);
  await warmUp(
    routes.map((r) => app.baseUrl + r.path),
    5,
    BROWSER_HEADERS,
  );

  const loadBefore = loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
  const loadRows: LoadRow[] = [];
  for (const route of routes) {
    console.error(`autocannon ${route.path}: ${CONNECTIONS} connections, ${DURATION}s...`);
    const result = await load({
      url: app.baseUrl + route.path,
      connections: CONNECTIONS,
      duration: DURATION,
      headers: BROWSER_HEADERS,
    });
    console.error(
      `  ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}`,
    );
    loadRows.push({ route, result });
  }

  const pageAudits: PageAudit[] = [];
  let reportDir = '';
  if (!SKIP_LIGHTHOUSE) {
    reportDir = join(tmpdir(), `cluefeed-bench-lighthouse-${Date.now()}`);
    mkdirSync(reportDir, { recursive: true });
    console.error(`Launching ${CHROMIUM_PATH} for Lighthouse...`);
    const chrome = await launchChrome(CHROMIUM_PATH);
    try {
      for (const route of routes.filter((r) => r.name !== 'healthz')) {
        console.error(`Lighthouse ${route.path}...`);
        const lhr = await runLighthouse(app.baseUrl + route.path, chrome.port, CATEGORIES);
        const reportFile = join(reportDir, `${route.name}.json`);
        writeFileSync(reportFile, JSON.stringify(lhr, null, 2));
        const scores: PageAudit['scores'] = {};
        const failing: PageAudit['failing'] = {};
        for (const id of CATEGORIES) {
          const score = lhr.categories[id]?.score;
          scores[id] = typeof score === 'number' ? Math.round(score * 100) : null;
          if (scores[id] !== 100) failing[id] = failingAudits(lhr, id);
        }
        for (const warning of lhr.runWarnings) console.error(`  warning: ${warning}`);
        pageAudits.push({ route, scores, failing, reportFile });
      }
    } finally {
      await chrome.kill();
    }
  }

  // ------------------------------------------------------------------ summary
  const ceiling = loadRows[0]?.result.requests.average || 1;
  const ratio = (row: LoadRow) => (row.result.requests.average / ceiling) * 100;
  const lines: string[] = [];
  lines.push('', '='.repeat(72), 'Cluefeed public pages benchmark', '='.repeat(72));
  lines.push(
    `Date: ${new Date().toISOString()}  Node ${process.version}  CPUs: ${cpus().length}  load average before: ${loadBefore}`,
    `autocannon: ${CONNECTIONS} connections, ${DURATION}s per route, sequential, Accept-Encoding: gzip`,
    `Audience: ${audience.key} -> /a/${audience.slug}   Post: /p/${post.slug}`,
    '',
    table(
      ['route', 'req/s (avg)', 'p99 ms', 'non-2xx/errors', 'vs /healthz'],
      loadRows.map((row) => [
        row.route.path,
        row.result.requests.average.toFixed(0),
        String(row.result.latency.p99),
        `${row.result.non2xx}/${row.result.errors}`,
        pct(ratio(row)),
      ]),
    ),
    '',
  );
  const audienceRow = loadRows.find((row) => row.route.name === 'audience');
  if (audienceRow) {
    lines.push(
      `audience page at ${pct(ratio(audienceRow))} of the trivial route (target >= ${TARGET_RATIO}%)`,
    );
  }

  if (SKIP_LIGHTHOUSE) {
    lines.push('', 'Lighthouse: skipped (BENCH_SKIP_LIGHTHOUSE=1)');
  } else {
    lines.push(
      '',
      'Lighthouse (default config: mobile emulation, simulated throttling)',
      '',
      table(
        ['page', ...CATEGORIES],
        pageAudits.map((page) => [
          page.route.path,
          ...CATEGORIES.map((id) => String(page.scores[id] ?? 'n/a')),
        ]),
      ),
    );
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
      `FAIL: non-2xx responses or errors on ${bad.map((r) => r.route.path).join(', ')}`,
    );
    for (const row of bad) {
      lines.push(`  ${row.route.path} status codes: ${JSON.stringify(row.result.statusCodeStats)}`);
    }
  }
  lines.push('='.repeat(72));
  console.log(lines.join('\n'));
  return bad.length > 0 ? 1 : 0;
}

runBench(main);
