// npm run bench:scoring: article x audience pairs scored per second with the local provider
// (against DynamoDB Local in memory, scores stored, CHUNKS_IN_PARALLEL chunks at a time as the
// worker runs them), beside the local provider's own rating speed with no storage (the baseline),
// and that beside today's ranker (main at 266856c, kept in baseline/) on the same pairs; and model
// calls per 1,000 pairs through the real openai client against the fake OpenAI server.
// Exits 1 when a count is not what the run should have stored, or when the local provider rates
// at less than half the speed of today's ranker.
//   BENCH_ARTICLES=200   articles (seed posts, varied)
//   BENCH_PARALLEL=4     chunks scored at once
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { ulid } from 'ulid';
import { startFakeOpenAi } from '#tests/fakes/openai';
import { audiences, posts } from '#scripts/seed/data';
import { startDynamoDb } from '../local/dynamodb';
import { rateArticle as todaysRanker } from './baseline/relevance';
import { envNumber, onCleanup, runBench, table } from './lib';

const ARTICLES = Math.floor(envNumber('BENCH_ARTICLES', 200));
const PARALLEL = Math.floor(envNumber('BENCH_PARALLEL', 4));
const ARTICLES_PER_CHUNK = 10;
/** The local provider may rate no slower than half of today's ranker (issue 17). */
const MIN_SPEED_RATIO = 0.5;

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
  });
  const [{ ensureTable }, Ai, Scoring, { mapPool }] = await Promise.all([
    import('#core/db'),
    import('#core/ai'),
    import('#core/scoring'),
    import('#core/common'),
  ]);
  await ensureTable();

  const targets = audiences.map((audience) =>
    Scoring.audienceTarget({ id: ulid(), title: audience.title }),
  );
  const articles = Array.from({ length: ARTICLES }, (_, i) => {
    const post = posts[i % posts.length]!;
    return {
      id: ulid(),
      title: `${post.title} (${i})`,
      summary: post.teaser,
      publishedAt: new Date(Date.UTC(2026, 10, 1) + i * 60_000).toISOString(),
    };
  });
  const pairs = ARTICLES * targets.length;
  const chunks = Array.from({ length: Math.ceil(ARTICLES / ARTICLES_PER_CHUNK) }, (_, i) =>
    articles.slice(i * ARTICLES_PER_CHUNK, (i + 1) * ARTICLES_PER_CHUNK),
  );
  const prompt = { id: 'default-scoring', prompt: '{audience}\n{clues}\n{title}\n{summary}' };
  const localModel = { id: 'local:cluefeed-bm25', ...Ai.LOCAL_MODELS.gpt };

  // The corpus snapshot the import's refresh would have stored for these articles.
  await Ai.refreshCorpus(articles);

  console.error(`Today's ranker rating ${pairs} pairs, nothing stored...`);
  todaysRanker(articles[0]!, targets[0]!.clues);
  let started = performance.now();
  for (const article of articles) for (const { clues } of targets) todaysRanker(article, clues);
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
  started = performance.now();
  for (const article of articles) {
    for (let start = 0; start < targets.length; start += Scoring.AUDIENCES_PER_CALL) {
      await rateOne(article, targets.slice(start, start + Scoring.AUDIENCES_PER_CALL));
    }
  }
  const baselineMs = performance.now() - started;

  const score = async (model: typeof localModel) => {
    const setup = { prompt, model, processId: ulid() };
    const totals = Scoring.noTotals();
    const began = performance.now();
    await mapPool(chunks, PARALLEL, async (chunk) => {
      for (const article of chunk) {
        const done = await Scoring.scoreArticle(article, targets, setup);
        Scoring.addTotals(totals, done);
      }
    });
    return { totals, ms: performance.now() - began };
  };

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
  ];
  const speedRatio = todayMs / baselineMs;
  const fastEnough = speedRatio >= MIN_SPEED_RATIO;
  const ok = checks.every((check) => check.actual === check.expected) && fastEnough;
  console.log(
    [
      '='.repeat(72),
      `Scoring: ${ARTICLES} articles x ${targets.length} audiences = ${pairs} pairs, ` +
        `${Scoring.AUDIENCES_PER_CALL} audiences per call, ${PARALLEL} chunks of ${ARTICLES_PER_CHUNK} at a time`,
      `Node ${process.version}, ${cpus().length} CPUs, load ${loadavg()[0]!.toFixed(2)}`,
      '',
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
      `Stored scoring runs at ${((local.ms > 0 ? baselineMs / local.ms : 0) * 100).toFixed(0)}% of the local provider's bare rating speed.`,
      `The local provider rates ${perSecond(pairs, baselineMs)} pairs/s, today's ranker ` +
        `${perSecond(pairs, todayMs)}: ratio ${speedRatio.toFixed(2)} ` +
        `(at least ${MIN_SPEED_RATIO}: ${fastEnough ? 'ok' : 'TOO SLOW'}).`,
      '',
      table(
        ['check', 'expected', 'actual', ''],
        checks.map(({ what, expected, actual }) => [
          what,
          String(expected),
          String(actual),
          actual === expected ? 'ok' : 'MISMATCH',
        ]),
      ),
      ok ? 'Counts and speed PASS' : 'FAIL: see the checks and the speed ratio above',
      '='.repeat(72),
    ].join('\n'),
  );
  return ok ? 0 : 1;
}

runBench(main);
