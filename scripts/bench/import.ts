// npm run bench:import: the scheduled import against a local feed server and an in-memory DynamoDB
// Local: a first import of BENCH_FEEDS feeds of BENCH_ITEMS unique items each (articles stored per
// second), then a re-import that every feed answers with 304 (feeds checked per second). Exits 1
// when the counts are not exactly what the feeds hold. The baseline is fetching every feed with
// plain fetch, as many at a time as the import does, nothing parsed or stored, before and after
// the imports; a ratio to it is printed only when it held still (scripts/bench/lib.ts).
//   BENCH_FEEDS=200   feeds (one stream each)
//   BENCH_ITEMS=50    items per feed
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { startFeedServer } from '#tests/fakes/feed-server';
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
  const [{ ensureTable }, Streams, Articles, { logger, flush }, { mapPool }] = await Promise.all([
    import('#core/db'),
    import('#core/streams'),
    import('#core/articles'),
    import('#core/logs'),
    import('#core/common'),
  ]);
  await ensureTable();
  // Registered after DynamoDB, so it runs before it stops (teardowns run latest first).
  onCleanup(() => flush());

  const urls = server.addGenerated(FEEDS, ITEMS);
  for (let start = 0; start < urls.length; start += 25) {
    await Promise.all(
      urls
        .slice(start, start + 25)
        .map((url, i) => Streams.create({ name: `Bench feed ${start + i}`, url })),
    );
  }
  const context = { log: logger, progress: async () => {} };
  /** The baseline: every feed fetched and read whole, nothing parsed or stored; feeds per second. */
  const fetchAll = async () => {
    const began = performance.now();
    await mapPool(urls, Streams.IMPORT_CONCURRENCY, async (url) => {
      const response = await fetch(url);
      await response.text();
      if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    });
    return FEEDS / ((performance.now() - began) / 1000);
  };
  await fetchAll();

  const loadBefore = loadAverage();
  console.error(`Baseline: fetching the ${FEEDS} feeds, nothing stored...`);
  const fetchedBefore = await fetchAll();
  console.error(`Importing ${FEEDS} feeds x ${ITEMS} items...`);
  let started = performance.now();
  const first = await Streams.importAll(context);
  const firstMs = performance.now() - started;

  console.error('Importing again (every feed should answer 304)...');
  started = performance.now();
  const second = await Streams.importAll(context);
  const secondMs = performance.now() - started;
  console.error('Baseline again...');
  const base = baseline('plain fetch of every feed', 'feeds/s', fetchedBefore, await fetchAll());
  const stored = await Articles.count();

  const expected = FEEDS * ITEMS;
  const checks = [
    { what: 'first import: new articles', expected, actual: first.newArticles },
    { what: 'first import: feeds imported', expected: FEEDS, actual: first.imported },
    { what: 'first import: feeds failed', expected: 0, actual: first.failed },
    { what: 're-import: feeds answered 304', expected: FEEDS, actual: second.notModified },
    { what: 're-import: new articles', expected: 0, actual: second.newArticles },
    { what: 're-import: feeds failed', expected: 0, actual: second.failed },
    { what: 'articles in the table', expected, actual: stored },
  ];
  const ok = checks.every((check) => check.actual === check.expected);

  console.log(
    [
      ...report(
        `Feed import: ${FEEDS} feeds x ${ITEMS} items, DynamoDB Local in memory, feeds on 127.0.0.1`,
        loadBefore,
        [base],
      ),
      table(
        ['run', 'feeds', 'new articles', 'seconds', 'articles/s', 'feeds/s', 'of plain fetch'],
        [
          [
            'first import',
            String(first.imported),
            String(first.newArticles),
            (firstMs / 1000).toFixed(2),
            rate(first.newArticles, firstMs),
            rate(FEEDS, firstMs),
            ratio(FEEDS / (firstMs / 1000), base).text,
          ],
          [
            're-import (304)',
            String(second.notModified),
            String(second.newArticles),
            (secondMs / 1000).toFixed(2),
            '-',
            rate(FEEDS, secondMs),
            ratio(FEEDS / (secondMs / 1000), base).text,
          ],
        ],
      ),
      '',
      checksTable(checks),
      ...[...first.failures, ...second.failures]
        .slice(0, 5)
        .map((failure) => `  failed: ${failure.url}: ${failure.error}`),
      ok ? 'Counts PASS' : 'Counts FAIL: see the checks above',
      '='.repeat(72),
    ].join('\n'),
  );
  return ok ? 0 : 1;
}

runBench(main);
