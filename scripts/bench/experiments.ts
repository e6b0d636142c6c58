// npm run bench:experiments: a 'Score Articles per Descriptor' experiment run with the local
// provider (issue 20), beside production scoring as bench:scoring measures it, in one process and
// on one table (DynamoDB Local in memory, fauxqs for the jobs queue). The same articles and
// audiences are stored as an import and an editor would store them. Production scoring rates every
// pair (scores stored, BENCH_PARALLEL chunks of 10 articles at a time, as bench:scoring does). Then
// a dataset is frozen from them, and a run of the seeded local model with a prompt of its own is
// executed as an operator would. Its job (the plan, then one chunk per 10 articles, each with its
// own copy of the dataset) runs through the worker's handler, fed by the local poller with
// BENCH_PARALLEL loops, as npm start runs it. The run is timed from 'Execute' until its process
// has ended. Production scoring is measured again afterwards, under another prompt version so
// that every pair is scored again. The ratio experiment / production is given only when those two
// passes held still (scripts/bench/lib.ts).
// Each row gives the CPU it took per pair in this process (scoring, and the worker's handler for
// the run) and in DynamoDB Local's JVM (from /proc).
// Exits 1 when the run did not end Success or did not score every pair.
//   BENCH_ARTICLES=200   articles (seed posts, varied); at most a dataset's 200
//   BENCH_PARALLEL=4     chunks at once, in both paths
import { createHash, randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { ulid } from 'ulid';
import { audiences } from '#scripts/seed/data';
import { startDynamoDb } from '../local/dynamodb';
import { startPoller, startQueue } from '../local/jobs';
import {
  baseline,
  checksTable,
  envNumber,
  loadAverage,
  onCleanup,
  processStat,
  ratio,
  report,
  runBench,
  table,
} from './lib';

const ARTICLES = Math.floor(envNumber('BENCH_ARTICLES', 200));
const PARALLEL = Math.floor(envNumber('BENCH_PARALLEL', 4));
const ADMIN = 'bench-admin';
/** The longest the run may take before the bench gives up on it. */
const RUN_TIMEOUT_MS = 20 * 60_000;

async function main(): Promise<number> {
  console.error('Starting DynamoDB Local (in memory) and fauxqs...');
  const [dynamo, queue] = await Promise.all([startDynamoDb(), startQueue()]);
  onCleanup(
    () => dynamo.stop(),
    () => dynamo.process.kill('SIGKILL'),
  );
  onCleanup(() => queue.stop());
  Object.assign(process.env, {
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    TABLE_NAME: 'cluefeed-bench-experiments',
    SQS_ENDPOINT: queue.endpoint,
    JOBS_QUEUE_URL: queue.queueUrl,
    APP_SECRET: randomBytes(20).toString('hex'),
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    NODE_ENV: 'development',
  });
  const [{ ensureTable }, Ai, Articles, Audiences, Experiments, Jobs, Scoring, Run, worker, seed] =
    await Promise.all([
      import('#core/db'),
      import('#core/ai'),
      import('#core/articles'),
      import('#core/audiences'),
      import('#core/experiments'),
      import('#core/jobs'),
      import('#core/scoring'),
      import('./scoring-run'),
      import('../../functions/worker'),
      import('#scripts/seed/ai'),
    ]);
  if (ARTICLES > Experiments.DATASET_LIMITS.articles) {
    throw new Error(
      `BENCH_ARTICLES is at most ${Experiments.DATASET_LIMITS.articles}, what a dataset holds`,
    );
  }
  await ensureTable();
  await seed.seedAi();

  // The job runtime logs JSON lines on stdout: they go to stderr with the notes, so that stdout
  // holds only the report.
  const printReport = process.stdout.write.bind(process.stdout);
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;

  console.error(`Storing ${audiences.length} audiences and ${ARTICLES} articles...`);
  // Every seed audience, active (a dataset freezes active ones): the audiences bench:scoring rates.
  for (const audience of audiences) {
    await Audiences.create({ ...audience, state: 'active' });
  }
  for (const [i, article] of Run.benchArticles(ARTICLES).entries()) {
    const canonicalUrl = `https://news.example/bench/${i}`;
    await Articles.storeIfNew({
      canonicalUrl,
      title: article.title,
      summary: article.summary,
      publishedAt: article.publishedAt,
      source: 'Bench Wire',
      streamId: 'bench',
      fingerprint: createHash('sha256').update(canonicalUrl).digest('hex'),
    });
  }
  const articles = await Articles.latest(ARTICLES);
  const targets = (await Audiences.list()).map(Scoring.audienceTarget);
  const pairs = articles.length * targets.length;
  // The corpus snapshot the import's refresh ('refresh-corpus') would have stored for them.
  await Ai.refreshCorpus(
    articles.map(({ title, summary, source }) => ({ title, summary: summary ?? '', source })),
  );

  const localModel = { id: 'local:cluefeed-bm25', ...Ai.LOCAL_MODELS.gpt };
  const promptText = '{audience}\n{clues}\n{title}\n{summary}';
  /** CPU so far (ms) of this process and of DynamoDB Local. */
  const cpuNow = () => {
    const { user, system } = process.cpuUsage();
    return { bench: (user + system) / 1000, dynamo: processStat(dynamo.process.pid!).cpuMs };
  };
  const cpuSince = (start: ReturnType<typeof cpuNow>) => {
    const end = cpuNow();
    return { bench: end.bench - start.bench, dynamo: end.dynamo - start.dynamo };
  };
  const production = async (promptVersion: string) => {
    const cpu = cpuNow();
    const scored = await Run.scoreInChunks(
      articles,
      targets,
      { prompt: { id: promptVersion, prompt: promptText }, model: localModel, processId: ulid() },
      PARALLEL,
    );
    return { ...scored, cpu: cpuSince(cpu) };
  };

  // Loads the word vectors and reads the corpus snapshot once, as a worker's first call does.
  await Scoring.scoreArticle(articles[0]!, targets.slice(0, 1), {
    prompt: { id: 'warm-up', prompt: promptText },
    model: localModel,
    processId: ulid(),
  });
  const loadBefore = loadAverage();
  console.error(`Production scoring: ${pairs} pairs, ${PARALLEL} chunks at a time...`);
  const before = await production('default-scoring');

  console.error('Freezing a dataset and adding a prompt and a run...');
  let started = performance.now();
  const dataset = await Experiments.freezeDataset({
    name: 'Bench descriptors',
    group: 'first_layer_descriptor',
    articles: ARTICLES,
    systemUserId: ADMIN,
  });
  const freezeMs = performance.now() - started;
  const prompt = await Experiments.addPrompt({
    expImplementationId: 'score-articles-per-descriptor',
    title: 'Bench prompt',
    prompt: promptText,
    systemUserId: ADMIN,
  });
  const added = await Experiments.addRun({
    name: 'Bench: score articles per descriptor',
    expImplementationId: 'score-articles-per-descriptor',
    input: {
      dataset: dataset.id,
      expGptModelId: localModel.id,
      expPromptId: prompt.id,
      articleLimit: ARTICLES,
    },
    systemUserId: ADMIN,
  });

  // The worker as npm start runs it: the local poller handing functions/worker's handler one
  // message per loop. Each handled message wakes the wait for the run's end (no polling of the table).
  let handled = () => {};
  const poller = startPoller({
    endpoint: queue.endpoint,
    queueUrl: queue.queueUrl,
    concurrency: PARALLEL,
    handler: async (event: SQSEvent): Promise<SQSBatchResponse> => {
      const answer = await worker.handler(event);
      handled();
      return answer;
    },
  });
  onCleanup(() => poller.stop());
  const endOf = async (processId: string) => {
    const giveUpAt = Date.now() + RUN_TIMEOUT_MS;
    while (Date.now() < giveUpAt) {
      const next = new Promise<void>((resolve) => (handled = resolve));
      const current = await Jobs.byId(processId);
      if (current?.status === 'Success' || current?.status === 'Failed') return current;
      await Promise.race([next, new Promise((resolve) => setTimeout(resolve, 1_000))]);
    }
    throw new Error(`The experiment run did not end within ${RUN_TIMEOUT_MS / 60_000} minutes`);
  };

  console.error(`Executing the experiment run: ${pairs} pairs, ${PARALLEL} chunks at a time...`);
  const runCpuStart = cpuNow();
  started = performance.now();
  await Experiments.executeRun({ id: added.id, systemUserId: ADMIN });
  const { processId } = (await Experiments.ExperimentRunEntity.get({ id: added.id }).go()).data!;
  const ended = await endOf(processId!);
  const runMs = performance.now() - started;
  const runCpu = cpuSince(runCpuStart);
  await poller.stop();
  const run = (await Experiments.run(added.id))!;
  const runPairs = (run.output?.resultsPerMatchingEntity ?? []).reduce(
    (sum, entity) => sum + (entity.groupByMetricPerMatchingEntity.Total ?? 0),
    0,
  );

  console.error('Production scoring again, under another prompt version...');
  const after = await production('default-scoring-after');

  const perSecond = (count: number, ms: number) => count / (ms / 1000);
  const base = baseline(
    "production scoring, bench:scoring's way",
    'pairs/s',
    perSecond(before.totals.scored, before.ms),
    perSecond(after.totals.scored, after.ms),
  );
  const runRate = perSecond(runPairs, runMs);
  const checks = [
    { what: 'dataset: articles', expected: ARTICLES, actual: dataset.articles },
    { what: 'dataset: descriptors', expected: targets.length, actual: dataset.descriptors },
    { what: 'production: pairs scored', expected: pairs, actual: before.totals.scored },
    { what: 'production again: pairs scored', expected: pairs, actual: after.totals.scored },
    { what: 'experiment: pairs (sum of Total)', expected: pairs, actual: runPairs },
    { what: 'experiment: status Success', expected: 1, actual: run.status === 'Success' ? 1 : 0 },
  ];
  const ok = checks.every((check) => check.actual === check.expected);
  const row = (
    name: string,
    count: number,
    ms: number,
    calls: number | string,
    cpu: { bench: number; dynamo: number },
  ) => [
    name,
    String(count),
    (ms / 1000).toFixed(2),
    perSecond(count, ms).toFixed(0),
    String(calls),
    (cpu.bench / count).toFixed(2),
    (cpu.dynamo / count).toFixed(2),
  ];
  const lines = [
    ...report(
      `Experiments: 'Score Articles per Descriptor' with the local provider, ${articles.length} ` +
        `articles x ${targets.length} audiences = ${pairs} pairs, ${PARALLEL} chunks of ` +
        `${Run.ARTICLES_PER_CHUNK} at a time, beside production scoring`,
      loadBefore,
      [base],
    ),
    table(
      [
        'run',
        'pairs',
        'seconds',
        'pairs/s',
        'model calls',
        'CPU ms/pair: this process',
        'DynamoDB Local',
      ],
      [
        row(
          'production scoring (before)',
          before.totals.scored,
          before.ms,
          before.totals.calls,
          before.cpu,
        ),
        row(
          'experiment run, Execute to its end',
          runPairs,
          runMs,
          run.output?.usage.calls ?? '-',
          runCpu,
        ),
        row(
          'production scoring (after)',
          after.totals.scored,
          after.ms,
          after.totals.calls,
          after.cpu,
        ),
      ],
    ),
    '',
    `The experiment run scores ${runRate.toFixed(0)} pairs/s: ${ratio(runRate, base).text} of ` +
      `production scoring (the mean of its two passes, ${base.value.toFixed(0)} pairs/s).`,
    `The run's own duration (its process's start to its output): ` +
      `${((run.output?.durationMs ?? 0) / 1000).toFixed(2)} s; freezing the dataset took ` +
      `${(freezeMs / 1000).toFixed(2)} s (not in the run's time).`,
    ...(ended.status === 'Failed' ? [`The run failed: ${ended.error ?? 'no error given'}`] : []),
    '',
    checksTable(checks),
    ok ? 'Counts PASS' : 'FAIL: see the checks above',
    '='.repeat(72),
  ];
  printReport(`${lines.join('\n')}\n`);
  return ok ? 0 : 1;
}

runBench(main);
