// npm run bench:scoring: article x audience pairs scored per second with the local provider
// (against DynamoDB Local in memory, scores stored, CHUNKS_IN_PARALLEL chunks at a time as the
// worker runs them), beside the local provider's own rating speed with no storage (the baseline),
// and that beside today's ranker (main at 446fbaa, kept in baseline/) on the same pairs and
// corpus; each ranker's resident memory in a process of its own (ranker-memory.ts); and model
// calls per 1,000 pairs through the real openai client against the fake OpenAI server.
// Exits 1 when a count is not what the run should have stored, when the local provider rates
// at less than half the speed of today's ranker, or when it holds 200 MB more than it. The baseline is measured before and after the
// stored runs; ratios to it are printed only when it held still (scripts/bench/lib.ts).
// Then a reader's feed list (ADR 0033): the read p50/p99 of one page for a reader with
// BENCH_READER_SCORES scores, one read at a time, as a request reads it.
//   BENCH_ARTICLES=200         articles (seed posts, varied)
//   BENCH_PARALLEL=4           chunks scored at once
//   BENCH_READER_SCORES=2000   a reader's scores for the feed-list read
//   BENCH_FEED_READS=200       feed-list reads timed
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { ulid } from 'ulid';
import { startFakeOpenAi } from '#tests/fakes/openai';
import { audiences } from '#scripts/seed/data';
import { startDynamoDb } from '../local/dynamodb';
import { rateArticle as todaysRanker } from './baseline/relevance';
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

const ARTICLES = Math.floor(envNumber('BENCH_ARTICLES', 200));
const PARALLEL = Math.floor(envNumber('BENCH_PARALLEL', 4));
const READER_SCORES = Math.floor(envNumber('BENCH_READER_SCORES', 2000));
const FEED_READS = Math.floor(envNumber('BENCH_FEED_READS', 200));
/** The local provider may rate no slower than half of today's ranker (issues 17 and 31). */
const MIN_SPEED_RATIO = 0.5;
/** Nor hold more than this much more resident memory than it (issue 31). */
const MAX_MEMORY_GROWTH_MB = 200;

/** A ranker's resident memory after rating the seed, measured in a process of its own. */
function rankerMemoryMb(which: 'today' | 'product'): number {
  const out = execFileSync(
    'npx',
    ['tsx', new URL('./ranker-memory.ts', import.meta.url).pathname, which],
    { encoding: 'utf8' },
  );
  return (JSON.parse(out.trim().split('\n').at(-1)!) as { rssMb: number }).rssMb;
}

async function main(): Promise<number> {
  console.error('Starting DynamoDB Local (in memory) and the fake OpenAI server...');
  const dynamo = await startDynamoDb();
  onCleanup(
    () => dynamo.stop(),
    () => dynamo.process.kill('SIGKILL'),
  );
  const fake = await startFakeOpenAi('not-needed');
  onCleanup(() => fake.stop());
  Object.assign(process.env, {
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    TABLE_NAME: 'cluefeed-bench-scoring',
    APP_SECRET: randomBytes(20).toString('hex'),
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    NODE_ENV: 'development',
    // The fake model server is on loopback, which model calls refuse unless allowed: its origin only.
    MODEL_FETCH_ALLOW: new URL(fake.url).host,
  });
  const [{ ensureTable }, Ai, Scoring, { mapPool }, Run] = await Promise.all([
    import('#core/db'),
    import('#core/ai'),
    import('#core/scoring'),
    import('#core/common'),
    import('./scoring-run'),
  ]);
  await ensureTable();

  const targets = audiences.map((audience) =>
    Scoring.audienceTarget({ id: ulid(), title: audience.title }),
  );
  const articles = Run.benchArticles(ARTICLES);
  const pairs = ARTICLES * targets.length;
  const prompt = { id: 'default-scoring', prompt: '{audience}\n{clues}\n{title}\n{summary}' };
  const localModel = { id: 'local:cluefeed-bm25', ...Ai.LOCAL_MODELS.gpt };

  // The corpus snapshot the import's refresh would have stored for these articles.
  await Ai.refreshCorpus(articles);

  console.error("Each ranker's resident memory, in a process of its own...");
  const memory = { today: rankerMemoryMb('today'), product: rankerMemoryMb('product') };

  console.error(`Today's ranker rating ${pairs} pairs, nothing stored...`);
  const snapshot = await Ai.corpusSnapshot();
  const todays = { corpus: snapshot!.corpus, vectors: await Ai.wordVectors() };
  todaysRanker(articles[0]!, targets[0]!.clues, todays);
  let started = performance.now();
  for (const article of articles)
    for (const { clues } of targets) todaysRanker(article, clues, todays);
  const todayMs = performance.now() - started;

  console.error(`Baseline: the local provider rating ${pairs} pairs, nothing stored...`);
  const provider = Ai.localProvider();
  const rateOne = (article: (typeof articles)[number], audienceIds: typeof targets) =>
    provider.complete({
      model: localModel,
      task: Ai.articleRelevanceBatch,
      input: {
        article: { title: article.title, summary: article.summary },
        audiences: audienceIds.map(({ id, clues }) => ({ id, clues })),
      },
      user: prompt.prompt,
    });
  // Loads the word vectors and reads the snapshot once, as a worker's first call does.
  await rateOne(articles[0]!, targets.slice(0, 1));
  const rateAll = async () => {
    const began = performance.now();
    for (const article of articles) {
      for (let start = 0; start < targets.length; start += Scoring.AUDIENCES_PER_CALL) {
        await rateOne(article, targets.slice(start, start + Scoring.AUDIENCES_PER_CALL));
      }
    }
    return performance.now() - began;
  };
  const loadBefore = loadAverage();
  const baselineMs = await rateAll();

  const score = (model: typeof localModel) =>
    Run.scoreInChunks(articles, targets, { prompt, model, processId: ulid() }, PARALLEL);

  console.error(`Scoring ${pairs} pairs with the local provider, ${PARALLEL} chunks at a time...`);
  const local = await score(localModel);
  console.error('Scoring them again (every pair is scored already)...');
  const rerun = await score(localModel);

  // The fake answers like a model that follows the schema: a rating for every audience listed.
  fake.answer = (body) => {
    const messages = body.messages as { role: string; content: string }[];
    const user = messages.find((message) => message.role === 'user')?.content ?? '';
    const ids = [...user.matchAll(/\[([0-9A-Z]{26})\]/g)].map((match) => match[1]!);
    const rating = { label: 'Slightly Relevant', score: 0.2, reason: 'Bench.', relevantClues: [] };
    return ids.length > 0
      ? { results: ids.map((audienceId) => ({ audienceId, ...rating })) }
      : rating;
  };
  const openAiModel = {
    id: 'openai-compatible:bench',
    provider: 'openai-compatible' as const,
    model: 'bench',
    modelType: 'gpt' as const,
    baseUrl: fake.url,
  };
  console.error(`Scoring ${pairs} pairs through the openai client and the fake server...`);
  started = performance.now();
  const openAi = await score(openAiModel as unknown as typeof localModel);
  const openAiMs = performance.now() - started;

  console.error(`Storing ${READER_SCORES} scores for one reader, then reading their feed list...`);
  const reader = { id: ulid(), descriptors: [{ clue: 'build DeFi lending protocols' }] };
  const readerTarget = Scoring.userTarget(reader);
  const keys = await Scoring.productionKeys();
  const labels = Ai.RELEVANCE_LABELS;
  await mapPool(
    Array.from({ length: READER_SCORES }, (_, i) => i),
    8,
    (i) =>
      Scoring.storeScore(articles[i % articles.length]!.id + String(i), readerTarget, keys, {
        label: labels[i % labels.length]!,
        score: (i % labels.length) / labels.length,
        reason: `Quite relevant because you build DeFi lending protocols: story ${i}.`,
        relevantClues: ['build DeFi lending protocols'],
        publishedAt: new Date(Date.UTC(2026, 9, 1) + i * 60_000).toISOString(),
        processId: 'bench',
        inputTokens: 0,
        outputTokens: 0,
      }),
  );
  const counted = await Scoring.labelCounts(readerTarget, keys);
  await Scoring.forReader(reader);
  const feedReads: number[] = [];
  for (let i = 0; i < FEED_READS; i++) {
    const began = performance.now();
    await Scoring.forReader(reader);
    feedReads.push(performance.now() - began);
  }
  feedReads.sort((a, b) => a - b);
  const percentile = (p: number) =>
    feedReads[Math.min(feedReads.length - 1, Math.floor(p * feedReads.length))]!;

  console.error(`Baseline again: the local provider rating ${pairs} pairs, nothing stored...`);
  const baselineAfterMs = await rateAll();
  const base = baseline(
    'local provider rating, nothing stored',
    'pairs/s',
    pairs / (baselineMs / 1000),
    pairs / (baselineAfterMs / 1000),
  );
  const perSecond = (count: number, ms: number) => (count / (ms / 1000)).toFixed(0);
  const checks = [
    { what: 'local: pairs scored', expected: pairs, actual: local.totals.scored },
    { what: 'rerun: pairs scored again', expected: 0, actual: rerun.totals.scored },
    { what: 'rerun: model calls', expected: 0, actual: rerun.totals.calls },
    { what: 'fake OpenAI: pairs scored', expected: pairs, actual: openAi.totals.scored },
    {
      what: 'fake OpenAI: requests seen',
      expected: openAi.totals.calls,
      actual: fake.requests.length,
    },
    {
      what: "reader's feed: scores counted",
      expected: READER_SCORES,
      actual: Object.values(counted).reduce((sum, n) => sum + n, 0),
    },
  ];
  const speedRatio = todayMs / baselineMs;
  const fastEnough = speedRatio >= MIN_SPEED_RATIO;
  const growth = memory.product - memory.today;
  const smallEnough = growth <= MAX_MEMORY_GROWTH_MB;
  const ok = checks.every((check) => check.actual === check.expected) && fastEnough && smallEnough;
  console.log(
    [
      ...report(
        `Scoring: ${ARTICLES} articles x ${targets.length} audiences = ${pairs} pairs, ` +
          `${Scoring.AUDIENCES_PER_CALL} audiences per call, ${PARALLEL} chunks of ${Run.ARTICLES_PER_CHUNK} at a time`,
        loadBefore,
        [base],
      ),
      table(
        ['run', 'pairs', 'seconds', 'pairs/s', 'model calls', 'calls per 1,000 pairs'],
        [
          [
            "today's ranker, rating only",
            String(pairs),
            (todayMs / 1000).toFixed(2),
            perSecond(pairs, todayMs),
            '-',
            '-',
          ],
          [
            'local rating only (baseline)',
            String(pairs),
            (baselineMs / 1000).toFixed(2),
            perSecond(pairs, baselineMs),
            '-',
            '-',
          ],
          [
            'local, scores stored',
            String(local.totals.scored),
            (local.ms / 1000).toFixed(2),
            perSecond(local.totals.scored, local.ms),
            String(local.totals.calls),
            ((local.totals.calls / pairs) * 1000).toFixed(0),
          ],
          [
            'rerun, nothing left',
            String(rerun.totals.alreadyScored),
            (rerun.ms / 1000).toFixed(2),
            perSecond(rerun.totals.alreadyScored, rerun.ms),
            String(rerun.totals.calls),
            '0',
          ],
          [
            'fake OpenAI, scores stored',
            String(openAi.totals.scored),
            (openAiMs / 1000).toFixed(2),
            perSecond(openAi.totals.scored, openAiMs),
            String(openAi.totals.calls),
            ((openAi.totals.calls / pairs) * 1000).toFixed(0),
          ],
        ],
      ),
      '',
      `Stored scoring runs at ${ratio(local.totals.scored / (local.ms / 1000), base).text} of the local provider's bare rating speed.`,
      `A reader's feed list (one page of ${Scoring.READER_SCORES_SHOWN} and the counts per label) ` +
        `with ${READER_SCORES} scores: p50 ${percentile(0.5).toFixed(1)} ms, ` +
        `p99 ${percentile(0.99).toFixed(1)} ms over ${FEED_READS} reads.`,
      `The local provider rates ${perSecond(pairs, baselineMs)} pairs/s, today's ranker ` +
        `${perSecond(pairs, todayMs)}: ratio ${speedRatio.toFixed(2)} ` +
        `(at least ${MIN_SPEED_RATIO}: ${fastEnough ? 'ok' : 'TOO SLOW'}).`,
      `Resident memory after rating the seed: today's ranker ${memory.today.toFixed(0)} MB, the ` +
        `local provider's ${memory.product.toFixed(0)} MB: ${growth >= 0 ? '+' : ''}${growth.toFixed(0)} MB ` +
        `(at most +${MAX_MEMORY_GROWTH_MB}: ${smallEnough ? 'ok' : 'TOO BIG'}).`,
      '',
      checksTable(checks),
      ok ? 'Counts and speed PASS' : 'FAIL: see the checks and the speed ratio above',
      '='.repeat(72),
    ].join('\n'),
  );
  return ok ? 0 : 1;
}

runBench(main);
