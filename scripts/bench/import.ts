// npm run bench:import: the scheduled import against a local feed server and an in-memory DynamoDB
// Local. First BENCH_FEEDS feeds of BENCH_ITEMS unique items each are imported without grouping
// into stories, then as many other feeds with it, so what stories cost per article shows (time,
// this process's CPU, storage calls); then a re-import that every feed answers with 304 (feeds
// checked per second). Items tell made-up events, a quarter of them also told by the next feed in
// other words, so stories form as they would. Exits 1 when the counts are not exactly what the
// feeds hold. The baseline is fetching every feed with plain fetch, as many at a time as the import
// does, nothing parsed or stored, before and after the imports; a ratio to it is printed only when
// it held still (scripts/bench/lib.ts).
//   BENCH_FEEDS=200   feeds (one stream each) per import
//   BENCH_ITEMS=50    items per feed
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { startFeedServer, type FeedServer } from '#tests/fakes/feed-server';
import labelled from '../../core/stories/pairs.json' with { type: 'json' };
import { startDynamoDb } from '../local/dynamodb';
import {
  baseline,
  checksTable,
  envNumber,
  loadAverage,
  onCleanup,
  ratio,
  report,
  runBench,
  table,
} from './lib';

const FEEDS = Math.floor(envNumber('BENCH_FEEDS', 200));
const ITEMS = Math.floor(envNumber('BENCH_ITEMS', 50));
const TABLE_NAME = 'cluefeed-bench-import';

const rate = (count: number, ms: number) => (count / (ms / 1000)).toFixed(1);

/** The words events are told in: those of the labelled pairs' real-looking headlines. */
const WORDS = [
  ...new Set(
    Object.values(labelled.reports).flatMap(
      ({ title, summary }) => `${title} ${summary}`.toLowerCase().match(/[a-z]{4,}/g) ?? [],
    ),
  ),
];

/** A repeatable pseudo-random sequence (mulberry32). */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Event `n`: a made-up name, a figure and eight words of its own. */
function event(n: number) {
  const next = random(n);
  const pick = () => WORDS[Math.floor(next() * WORDS.length)]!;
  const name = `${pick()}${pick()}`.replace(/^./, (c) => c.toUpperCase());
  return { name, figure: 10 + Math.floor(next() * 900), words: Array.from({ length: 8 }, pick) };
}

/**
 * `FEEDS` RSS feeds of `ITEMS` items, unique to this call: item i of feed f tells event (f, i),
 * except every fourth of a feed after the first, which retells the previous feed's event i + 1.
 */
function eventFeeds(server: FeedServer): { urls: string[]; events: number } {
  const batch = randomBytes(6).toString('hex');
  const seed = Number.parseInt(batch.slice(0, 8), 16);
  const start = Date.UTC(2026, 10, 20, 12);
  let events = 0;
  const urls = Array.from({ length: FEEDS }, (_, f) => {
    const entries = Array.from({ length: ITEMS }, (_, i) => {
      const retold = f > 0 && i % 4 === 0 && i + 1 < ITEMS;
      const n = retold ? (f - 1) * ITEMS + i + 1 : f * ITEMS + i;
      if (!retold) events++;
      const { name, figure, words } = event(seed + n);
      const [a, b, c, d, e, g, h, k] = words;
      // Later feeds tell newer news, as each hourly import brings what came out since the last.
      const published = new Date(start + n * 60_000 + (retold ? 1_800_000 : 0));
      const [title, summary] = retold
        ? [
            `${name} ${c} ${a}: ${figure} ${b} ${d}`,
            `${name} said ${figure} ${b} ${e} after the ${a} ${c}, and ${h} ${g} ${k} ${d}.`,
          ]
        : [
            `${name} ${a} ${b} ${c} with ${figure} ${d}`,
            `The ${a} of ${name} ${b} ${figure} ${d} as ${c} ${e}; ${g} ${h} and ${k} followed.`,
          ];
      return `<item><title>${title}</title><link>https://generated.example/${batch}/${f}/${i}</link><guid isPermaLink="false">${batch}-${f}-${i}</guid><pubDate>${published.toUTCString()}</pubDate><description>${summary}</description></item>`;
    });
    return server.put(
      `/events/${batch}/feed-${f}.xml`,
      `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Events ${f}</title>${entries.join('')}</channel></rss>`,
    );
  });
  return { urls, events };
}

async function main(): Promise<number> {
  console.error('Starting DynamoDB Local (in memory) and the feed server...');
  const dynamo = await startDynamoDb();
  onCleanup(
    () => dynamo.stop(),
    () => dynamo.process.kill('SIGKILL'),
  );
  const server = await startFeedServer();
  onCleanup(() => server.stop());
  // core/config reads the environment once, on first use: set it before core is loaded.
  Object.assign(process.env, {
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    TABLE_NAME,
    APP_SECRET: randomBytes(20).toString('hex'),
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    // Sends no mail and no links; the feed server is on loopback, which fetches refuse unless
    // allowed: its origin only.
    NODE_ENV: 'development',
    FEED_FETCH_ALLOW: new URL(server.origin).host,
  });
  const [
    { ensureTable, countStorageCalls },
    Streams,
    Articles,
    Stories,
    { logger, flush },
    { mapPool },
  ] = await Promise.all([
    import('#core/db'),
    import('#core/streams'),
    import('#core/articles'),
    import('#core/stories'),
    import('#core/logs'),
    import('#core/common'),
  ]);
  await ensureTable();
  // Registered after DynamoDB, so it runs before it stops (teardowns run latest first).
  onCleanup(() => flush());

  const plain = eventFeeds(server);
  const grouped = eventFeeds(server);
  const urls = [...plain.urls, ...grouped.urls];
  const addStreams = async (list: string[], offset: number) => {
    for (let start = 0; start < list.length; start += 25) {
      await Promise.all(
        list
          .slice(start, start + 25)
          .map((url, i) => Streams.create({ name: `Bench feed ${offset + start + i}`, url })),
      );
    }
  };
  const context = { log: logger, progress: async () => {} };
  /** The baseline: every feed fetched and read whole, nothing parsed or stored; feeds per second. */
  const fetchAll = async () => {
    const began = performance.now();
    await mapPool(urls, Streams.IMPORT_CONCURRENCY, async (url) => {
      const response = await fetch(url);
      await response.text();
      if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    });
    return urls.length / ((performance.now() - began) / 1000);
  };
  /** One scheduled import of the streams added so far: its summary, time, CPU and storage calls. */
  const measured = async (options: { joinStories?: boolean }) => {
    const cpu = process.cpuUsage();
    const began = performance.now();
    const { result, calls, total } = await countStorageCalls(() =>
      Streams.importAll(context, options),
    );
    const { user, system } = process.cpuUsage(cpu);
    return {
      summary: result,
      ms: performance.now() - began,
      cpuMs: (user + system) / 1000,
      calls,
      total,
    };
  };
  await fetchAll();

  const loadBefore = loadAverage();
  console.error(`Baseline: fetching the ${urls.length} feeds, nothing stored...`);
  const fetchedBefore = await fetchAll();
  // Each import finds only its own feeds' streams new: the first's are 304 in the second.
  console.error(`Importing ${FEEDS} feeds x ${ITEMS} items without stories...`);
  await addStreams(plain.urls, 0);
  const without = await measured({ joinStories: false });
  console.error(`Importing ${FEEDS} other feeds x ${ITEMS} items with stories...`);
  await addStreams(grouped.urls, FEEDS);
  const withStories = await measured({});

  console.error('Importing again (every feed should answer 304)...');
  const started = performance.now();
  const again = await Streams.importAll(context);
  const againMs = performance.now() - started;
  console.error('Baseline again...');
  const base = baseline('plain fetch of every feed', 'feeds/s', fetchedBefore, await fetchAll());
  const stored = await Articles.count();
  const { data: stories } = await Stories.StoryEntity.query
    .recent({})
    .go({ pages: 'all', attributes: ['sourceCount'] });

  const expected = FEEDS * ITEMS;
  const checks = [
    { what: 'without stories: new articles', expected, actual: without.summary.newArticles },
    { what: 'without stories: feeds failed', expected: 0, actual: without.summary.failed },
    { what: 'with stories: new articles', expected, actual: withStories.summary.newArticles },
    { what: 'with stories: feeds imported', expected: FEEDS, actual: withStories.summary.imported },
    { what: 'with stories: feeds failed', expected: 0, actual: withStories.summary.failed },
    {
      what: 'articles in stories',
      expected,
      actual: stories.reduce((sum, story) => sum + story.sourceCount, 0),
    },
    { what: 're-import: feeds answered 304', expected: 2 * FEEDS, actual: again.notModified },
    { what: 're-import: new articles', expected: 0, actual: again.newArticles },
    { what: 're-import: feeds failed', expected: 0, actual: again.failed },
    { what: 'articles in the table', expected: 2 * expected, actual: stored },
  ];
  const ok = checks.every((check) => check.actual === check.expected);
  const perArticle = (run: typeof without) => {
    const n = run.summary.newArticles || 1;
    const calls = Object.entries(run.calls)
      .sort((a, b) => b[1] - a[1])
      .map(([name, count]) => `${name.replace('dynamodb ', '')} ${(count / n).toFixed(2)}`)
      .join(', ');
    return [
      String(run.summary.newArticles),
      (run.ms / 1000).toFixed(2),
      rate(run.summary.newArticles, run.ms),
      (run.cpuMs / n).toFixed(2),
      (run.total / n).toFixed(2),
      calls,
    ];
  };

  console.log(
    [
      ...report(
        `Feed import: ${FEEDS} feeds x ${ITEMS} items per import, DynamoDB Local in memory, feeds on 127.0.0.1`,
        loadBefore,
        [base],
      ),
      table(
        [
          'first import',
          'new articles',
          'seconds',
          'articles/s',
          'CPU ms/article',
          'calls/article',
          'by command (per article)',
        ],
        [
          ['without stories', ...perArticle(without)],
          ['with stories', ...perArticle(withStories)],
        ],
      ),
      '',
      table(
        ['run', 'feeds', 'seconds', 'feeds/s', 'of plain fetch'],
        [
          [
            're-import (304)',
            String(again.notModified),
            (againMs / 1000).toFixed(2),
            rate(2 * FEEDS, againMs),
            ratio((2 * FEEDS) / (againMs / 1000), base).text,
          ],
        ],
      ),
      `Stories formed: ${stories.length} for ${grouped.events} events told (${expected - grouped.events} retold by a second feed)`,
      '',
      checksTable(checks),
      ...[...without.summary.failures, ...withStories.summary.failures, ...again.failures]
        .slice(0, 5)
        .map((failure) => `  failed: ${failure.url}: ${failure.error}`),
      ok ? 'Counts PASS' : 'Counts FAIL: see the checks above',
      '='.repeat(72),
    ].join('\n'),
  );
  return ok ? 0 : 1;
}

runBench(main);
