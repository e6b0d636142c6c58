// npm run bench:feed: the reader's feed (issue 19) under load. A reader with 2,000 scored stories
// (stored articles, production scores spread over the labels, their feed list built by
// Feed.buildFeed) signs in through /login; then /healthz, the feed's first page and a deep page
// are loaded in turn with the same connections and duration, /healthz first and last (the
// baseline, scripts/bench/lib.ts "Honest figures"). Every /feed answer must be a 200 with the
// page's first story's title in it: a redirect to /login or an empty feed fails the bench.
// Targets: /feed >= 0.5 of /healthz's req/s, p99 < 150 ms. Before the load, the list is rebuilt
// after a like, with nothing changed and after one new story, each with its calls and items written.
//   BENCH_DURATION=10        seconds per run
//   BENCH_CONNECTIONS=20     concurrent connections
//   BENCH_WARM_UP=3          seconds of unmeasured load on each URL first (the JIT's warm-up)
//   BENCH_SAVE_DIR=dir       keep each target's first answer there (to see what a page carries)
//   BENCH_CPU_PROF_DIR=dir   profile the web server (--cpu-prof); a last /feed run is then added,
//                            the profile's last BENCH_DURATION seconds (profile-top.mjs LAST=...)
// Responses are asked for uncompressed (Accept-Encoding: identity): CloudFront compresses in
// production, and autocannon hands the body to the check only as text.
// Then Lighthouse (mobile, simulated throttling) loads the signed-in reader's /feed:
//   BENCH_SKIP_LIGHTHOUSE=1  leave it out
// SEO is not audited: /feed is a private page, kept out of search engines on purpose.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { CHROMIUM_PATH } from '../local/chromium';
import { posts } from '../seed/data';
import {
  baseline,
  failingAudits,
  launchChrome,
  runLighthouse,
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
  verdict,
  type LoadResult,
} from './lib';

const DURATION = envNumber('BENCH_DURATION', 10);
const CONNECTIONS = envNumber('BENCH_CONNECTIONS', 20);
const WARM_UP = envNumber('BENCH_WARM_UP', 3);
const PROFILE_DIR = process.env.BENCH_CPU_PROF_DIR || undefined;
const SAVE_DIR = process.env.BENCH_SAVE_DIR || undefined;
export const STORIES = 2_000;
const DEEP_OFFSET = 1_000;
const RATIO_TARGET = 0.5;
const P99_TARGET_MS = 150;
const SEED_CONCURRENCY = 16;
const SKIP_LIGHTHOUSE = process.env.BENCH_SKIP_LIGHTHOUSE === '1';
const LIGHTHOUSE_CATEGORIES = ['performance', 'accessibility', 'best-practices'];

/**
 * Stories per label, best last (RELEVANCE_LABELS' order): the two best, which the feed opens on,
 * hold 1,300, so the deep page (offset 1,000) is still in the default view.
 */
const SPREAD = [150, 200, 350, 700, 600];

const SOURCES = ['Protocol Review', 'Chainwire Daily', 'Blocknotes', 'Validator Weekly'];
const CLUES = [
  'I build DeFi lending protocols',
  'I run validators on Ethereum',
  'I research MEV and order flow',
];

const HEADERS = { ...BROWSER_HEADERS, 'accept-encoding': 'identity' };

/** Text as React writes it into HTML, so a title can be looked for in a page. */
export function asHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#x27;');
}

/** The Markdown of a seed post as an import's plain summary: links and marks dropped. */
function plainText(markdown: string): string {
  return markdown
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[#*_`>]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The reader's 2,000 articles, made from the demo posts (their titles, teasers and bodies, one
 * of four sources, a cover image on most), each title numbered so that it is found once: a bare
 * number in brackets, which is a topic of its story alone (a word every title shared would be a
 * topic of all, and a like would move every story, ADR 0066).
 */
function articlesToStore(streamId: string) {
  const start = Date.parse('2026-11-26T12:00:00.000Z');
  return Array.from({ length: STORIES }, (_, n) => {
    const post = posts[n % posts.length]!;
    const id = `${post.slug}-${n}`;
    const canonicalUrl = `https://${post.link?.domain ?? 'news.example'}/${id}`;
    return {
      canonicalUrl,
      title: `${post.title} (${n + 1})`,
      summary: post.content ? plainText(post.content) : post.teaser,
      ...(n % 5 === 4 ? {} : { image: `https://images.news.example/${id}.jpg` }),
      author: post.author,
      publishedAt: new Date(start - n * 7 * 60_000).toISOString(),
      source: SOURCES[n % SOURCES.length]!,
      streamId,
      fingerprint: randomBytes(32).toString('hex'),
    };
  });
}

type Seeded = {
  cookie: string;
  firstTitle: string;
  deepTitle: string;
  defaultCount: number;
  timings: [string, number][];
  /** Each rebuild measured: step, seconds, storage calls, BatchWriteItem calls, items written. */
  rebuilds: string[][];
};

/** Stores the reader, their articles and scores, builds their feed list, and signs them in. */
export async function seed(baseUrl: string): Promise<Seeded> {
  const { ulid } = await import('ulid');
  const Articles = await import('#core/articles');
  const { mapPool } = await import('#core/common');
  const Feed = await import('#core/feed');
  const { countStorageCalls } = await import('#core/db');
  const Scoring = await import('#core/scoring');
  const Users = await import('#core/users');
  const { RELEVANCE_LABELS } = await import('#core/ai');
  const { readerWithPassword } = await import('#tests/integration/readers');

  const timings: [string, number][] = [];
  const timed = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const result = await work();
    const seconds = (performance.now() - started) / 1000;
    timings.push([name, seconds]);
    console.error(`  ${name}: ${seconds.toFixed(1)} s`);
    return result;
  };

  const reader = await timed('reader (argon2id password)', async () => {
    const { user, email, password } = await readerWithPassword({ name: 'Bench Reader' });
    // Set as the funnel leaves them; Users.setDescriptors would queue a scoring run.
    await Users.UserEntity.patch({ id: user.id })
      .set({ descriptors: CLUES.map((clue) => ({ id: ulid(), clue })) })
      .go();
    return { user: (await Users.byId(user.id))!, email, password };
  });

  const streamId = ulid();
  const importedAt = new Date().toISOString();
  const articles = articlesToStore(streamId).map((article) => ({
    ...article,
    id: ulid(),
    importedAt,
  }));
  // Articles in batches (as stored by Articles.storeIfNew, without its claims: the feed reads an
  // article by id only).
  await timed(`${STORIES} articles (BatchWriteItem)`, async () => {
    const { unprocessed } = await Articles.ArticleEntity.put(articles).go({
      concurrent: SEED_CONCURRENCY,
    });
    if (unprocessed.length > 0) throw new Error(`${unprocessed.length} article(s) not stored`);
  });

  const keys = await Scoring.productionKeys();
  const target = Scoring.userTarget(reader.user);
  const labels = SPREAD.flatMap((count, index) => Array(count).fill(RELEVANCE_LABELS[index]!));
  const pairs = articles.map((article, i) => ({
    article,
    // A fixed shuffle (7,919 is prime to 2,000), so each label spans the whole time range.
    label: labels[(i * 7_919) % STORIES] as (typeof RELEVANCE_LABELS)[number],
    clue: CLUES[i % CLUES.length]!,
  }));
  await timed(`${STORIES} production scores (Scoring.storeScore)`, () =>
    mapPool(pairs, SEED_CONCURRENCY, async ({ article, label, clue }) => {
      const stored = await Scoring.storeScore(article.id, target, keys, {
        label,
        score: RELEVANCE_LABELS.indexOf(label) / (RELEVANCE_LABELS.length - 1),
        reason: `It speaks to "${clue}"`,
        relevantClues: [clue],
        publishedAt: article.publishedAt,
        processId: streamId,
        inputTokens: 0,
        outputTokens: 0,
      });
      if (!stored) throw new Error(`The score of ${article.id} was stored already`);
    }),
  );

  const outcome = await timed('feed list (Feed.buildFeed)', () => Feed.buildFeed(reader.user.id));
  if (!outcome.built || outcome.stories !== STORIES) {
    throw new Error(`Feed.buildFeed gave ${JSON.stringify(outcome)}, not ${STORIES} stories`);
  }
  // What a rebuild writes (ADR 0066): after a like (its source's stories move up), with nothing
  // changed, and after a scoring run that scored one new story for the reader.
  const rebuilds: string[][] = [];
  const rebuild = async (name: string) => {
    const started = performance.now();
    const { result, calls, total } = await countStorageCalls(() => Feed.buildFeed(reader.user.id));
    const seconds = (performance.now() - started) / 1000;
    const written = result.built && 'written' in result ? String(result.written) : 'n/a';
    rebuilds.push([
      name,
      seconds.toFixed(2),
      String(total),
      String(calls['dynamodb BatchWriteItem'] ?? 0),
      written,
    ]);
    console.error(`  ${name}: ${seconds.toFixed(2)} s, ${total} calls, ${written} items written`);
  };
  await Feed.giveFeedback(reader.user.id, { articleId: articles[1]!.id, kind: 'like' });
  await rebuild(`a like (${STORIES / SOURCES.length} stories of its source), then its rebuild`);
  await rebuild('a rebuild with nothing changed');
  const newest = { ...articles[0]!, id: ulid(), fingerprint: randomBytes(32).toString('hex') };
  await Articles.ArticleEntity.put({ ...newest, title: `${newest.title} (newest)` }).go();
  await Scoring.storeScore(newest.id, target, keys, {
    label: 'Very Relevant',
    score: 1,
    reason: `It speaks to "${CLUES[0]}"`,
    relevantClues: [CLUES[0]!],
    publishedAt: new Date().toISOString(),
    processId: streamId,
    inputTokens: 0,
    outputTokens: 0,
  });
  await rebuild('one new story scored, then the rebuild');

  const built = (await Users.byId(reader.user.id))!;
  const ratings = Feed.defaultRatings(built);
  const [first, deep] = await Promise.all([
    Feed.page(built, { ratings }),
    Feed.page(built, { ratings, offset: DEEP_OFFSET }),
  ]);
  const firstTitle = first.stories[0]?.title;
  const deepTitle = deep.stories[0]?.title;
  if (!firstTitle || !deepTitle) {
    throw new Error(`The feed list has no story at 0 or ${DEEP_OFFSET} (${first.count} shown)`);
  }

  const cookie = await timed('sign-in (POST /login)', () =>
    signIn(baseUrl, '/login', { login: reader.email, password: reader.password }),
  );
  return { cookie, firstTitle, deepTitle, defaultCount: first.count, timings, rebuilds };
}

type Target = {
  name: string;
  url: string;
  headers: Record<string, string>;
  /** Text every answer must contain (HTML-escaped); none for /healthz. */
  expect?: string;
};
type Row = { target: Target; result: LoadResult; cpu: Map<string, number> };

/** Fetches a target a few times: each answer a 200 (no redirect followed) with its text. */
async function check(target: Target, rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) {
    const response = await fetch(target.url, { headers: target.headers, redirect: 'manual' });
    const body = await response.text();
    if (response.status !== 200) {
      const location = response.headers.get('location');
      throw new Error(
        `${target.name} answered ${response.status}${location ? ` to ${location}` : ''}`,
      );
    }
    if (target.expect && !body.includes(target.expect)) {
      throw new Error(`${target.name} answered 200 without "${target.expect}"`);
    }
    if (SAVE_DIR && i === 0) {
      writeFileSync(join(SAVE_DIR, `${target.name.replace(/\W+/g, '-')}.html`), body);
    }
  }
}

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : 'n/a');

async function main() {
  const loadAtStart = loadAverage();
  console.error(`Load average at start: ${loadAtStart}`);
  console.error('Starting the app (builds it first if stale)...');
  const appSecret = randomBytes(32).toString('hex');
  const app = await startApp({
    env: {
      APP_SECRET: appSecret,
      ...(PROFILE_DIR ? { WEB_NODE_ARGS: `--cpu-prof --cpu-prof-dir=${PROFILE_DIR}` } : {}),
    },
  });
  // The reader is stored from here, in the app's table: core reads this environment once.
  Object.assign(process.env, {
    DYNAMODB_ENDPOINT: `http://127.0.0.1:${app.dynamoPort}`,
    TABLE_NAME: 'cluefeed',
    APP_SECRET: appSecret,
    NODE_ENV: 'development',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  });

  console.error(`App is up at ${app.baseUrl}; seeding a reader with ${STORIES} stories...`);
  const seedStarted = performance.now();
  const seeded = await seed(app.baseUrl);
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const signedIn = { ...HEADERS, cookie: seeded.cookie };
  const sizes = new Map<Target, number>();
  const healthz: Target = { name: '/healthz', url: `${app.baseUrl}/healthz`, headers: HEADERS };
  const feed: Target = {
    name: '/feed',
    url: `${app.baseUrl}/feed`,
    headers: signedIn,
    expect: asHtml(seeded.firstTitle),
  };
  const deep: Target = {
    name: `/feed?offset=${DEEP_OFFSET}`,
    url: `${app.baseUrl}/feed?offset=${DEEP_OFFSET}`,
    headers: signedIn,
    expect: asHtml(seeded.deepTitle),
  };
  console.error(`Seeded in ${seedSeconds.toFixed(1)} s; warming up...`);
  for (const target of [healthz, feed, deep]) {
    await check(target);
    // Unmeasured: without it the first URL measured pays for the JIT compiling the page.
    const warm = await load({
      url: target.url,
      connections: CONNECTIONS,
      duration: WARM_UP,
      headers: target.headers,
    });
    sizes.set(target, warm.throughput.total / Math.max(1, warm.requests.total));
  }

  const loadBefore = loadAverage();
  const run = async (target: Target): Promise<Row> => {
    console.error(`autocannon ${target.name}: ${CONNECTIONS} connections, ${DURATION}s...`);
    const expected = target.expect;
    const cpuBefore = runtimeCpu(app.child.pid!);
    const result = await load({
      url: target.url,
      connections: CONNECTIONS,
      duration: DURATION,
      headers: target.headers,
      ...(expected ? { verifyBody: (body: string) => body.includes(expected) } : {}),
    });
    const cpuAfter = runtimeCpu(app.child.pid!);
    const cpu = new Map(
      [...cpuAfter].map(([name, after]) => [name, after - (cpuBefore.get(name) ?? 0)]),
    );
    console.error(
      `  ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ` +
        `non-2xx ${result.non2xx}, without the title ${result.mismatches}, errors ${result.errors}`,
    );
    return { target, result, cpu };
  };
  const healthzFirst = await run(healthz);
  const feedRow = await run(feed);
  const deepRow = await run(deep);
  const healthzAfter = await run(healthz);
  const profiled = PROFILE_DIR ? await run(feed) : undefined;
  const rows = [healthzFirst, feedRow, deepRow, healthzAfter, ...(profiled ? [profiled] : [])];

  const lighthouse = SKIP_LIGHTHOUSE ? [] : await lighthouseOfFeed(app.baseUrl, seeded.cookie);

  const perSecond = (row: Row) => row.result.requests.average;
  const base = baseline('/healthz', 'req/s', perSecond(healthzFirst), perSecond(healthzAfter));
  const lines = report("Cluefeed reader's feed benchmark", loadBefore, [base]);
  lines.push(
    `Load average at start (before the app and the seeding): ${loadAtStart}`,
    `autocannon: ${CONNECTIONS} connections, ${DURATION}s per run, one run at a time, after ${WARM_UP}s unmeasured on each URL; Accept-Encoding: identity`,
    `Answer size (headers and body): ${[...sizes].map(([t, bytes]) => `${t.name} ${(bytes / 1024).toFixed(1)} KiB`).join(', ')}`,
    `Reader: ${STORIES} scored stories (${SPREAD.join('/')} from Not to Very Relevant), ` +
      `${seeded.defaultCount} in the default view (${SPREAD.slice(-2).join(' + ')})`,
    `First story: "${seeded.firstTitle}"; at offset ${DEEP_OFFSET}: "${seeded.deepTitle}"`,
    '',
    `Seeding: ${seedSeconds.toFixed(1)} s in all`,
    table(
      ['step', 's'],
      seeded.timings.map(([name, seconds]) => [name, seconds.toFixed(1)]),
    ),
    '',
    table(['rebuild', 's', 'calls', 'BatchWriteItem', 'items written'], seeded.rebuilds),
    '',
    table(
      [
        'measured',
        'req/s',
        'p50 ms',
        'p99 ms',
        'non-2xx',
        'no title',
        'errors',
        'of /healthz',
        'web CPU ms/req',
        'DynamoDB CPU ms/req',
      ],
      rows.map((row, i) => {
        const requests = row.result.requests.total ?? 0;
        const perRequest = (name: string) =>
          requests > 0 ? ((row.cpu.get(name) ?? 0) / requests).toFixed(2) : '-';
        const isBaseline = row.target.name === '/healthz';
        return [
          `${row.target.name}${row === profiled ? ' (profiled)' : ''}${isBaseline ? (i === 0 ? ' (before)' : ' (after)') : ''}`,
          perSecond(row).toFixed(0),
          String(row.result.latency.p50),
          String(row.result.latency.p99),
          String(row.result.non2xx),
          row.target.expect ? String(row.result.mismatches) : '-',
          String(row.result.errors + row.result.timeouts),
          isBaseline ? '-' : ratio(perSecond(row), base).text,
          perRequest('web server'),
          perRequest('DynamoDB Local'),
        ];
      }),
    ),
    '',
  );
  for (const row of [feedRow, deepRow]) {
    const r = ratio(perSecond(row), base);
    const p99 = row.result.latency.p99 ?? NaN;
    lines.push(
      `${row.target.name}: ${r.text} of /healthz (target >= ${RATIO_TARGET}): ${verdict(r, { atLeast: RATIO_TARGET })}; ` +
        `p99 ${ms(p99)} ms (target < ${P99_TARGET_MS}): ${p99 < P99_TARGET_MS ? 'PASS' : 'FAIL'}`,
    );
  }
  const bad = rows.filter(
    (row) =>
      row.result.non2xx > 0 ||
      row.result.errors > 0 ||
      row.result.timeouts > 0 ||
      (row.target.expect !== undefined && row.result.mismatches > 0),
  );
  if (bad.length > 0) {
    lines.push('');
    for (const row of bad) {
      lines.push(
        `FAIL: ${row.target.name} status codes ${JSON.stringify(row.result.statusCodeStats)}, ` +
          `${row.result.mismatches} without "${row.target.expect ?? ''}", ${row.result.errors} errors`,
      );
    }
  }
  if (PROFILE_DIR) {
    lines.push(
      '',
      `Web server profile in ${PROFILE_DIR} (written as the app stops): the last run is /feed;`,
      `  LAST=${DURATION} node scripts/bench/profile-top.mjs ${PROFILE_DIR}/CPU.*.cpuprofile 15`,
    );
  }
  if (lighthouse.length > 0) lines.push('', 'Lighthouse, /feed signed in (mobile):', ...lighthouse);
  lines.push('='.repeat(72));
  console.log(lines.join('\n'));
  return bad.length > 0 ? 1 : 0;
}

/** Lighthouse's scores for the reader's /feed, with every audit below 1 named. */
async function lighthouseOfFeed(baseUrl: string, cookie: string): Promise<string[]> {
  console.error(`Lighthouse /feed with ${CHROMIUM_PATH}...`);
  const chrome = await launchChrome(CHROMIUM_PATH);
  try {
    const lhr = await runLighthouse(`${baseUrl}/feed`, chrome.port, LIGHTHOUSE_CATEGORIES, {
      extraHeaders: { Cookie: cookie },
    });
    return LIGHTHOUSE_CATEGORIES.flatMap((id) => {
      const score = lhr.categories[id]?.score;
      const shown = typeof score === 'number' ? Math.round(score * 100) : 'n/a';
      return [
        `  ${id}: ${shown}`,
        ...failingAudits(lhr, id).flatMap((audit) => [
          `    [${audit.score === null ? audit.scoreDisplayMode : audit.score.toFixed(2)}] ${audit.id}: ${audit.title}${audit.displayValue ? ` - ${audit.displayValue}` : ''}`,
          ...audit.items.slice(0, 3).map((item) => `        ${item}`),
        ]),
      ];
    });
  } finally {
    await chrome.kill();
  }
}

if (isMain(import.meta.url)) runBench(main);
