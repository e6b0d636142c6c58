// npm run bench:assessment: audience name assessments with the local provider against an in-memory
// DynamoDB Local, BENCH_CONCURRENCY (20) at a time, every clue distinct so none is a cache hit.
// Each assessment is the whole public operation: configured model and current prompt (reads), the
// cache read (a miss), the local model, and the cache write. The baseline is the local model alone
// on the same clues, measured before and after the assessments; a ratio to it is printed only when
// it held still (scripts/bench/lib.ts). Prints p50/p99 and whether p50 < 60 ms (issue 18).
//   BENCH_ASSESSMENTS=400   assessments measured (after 40 for warm-up)
//   BENCH_CONCURRENCY=20    at a time
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { audiences } from '../seed/data';
import { startDynamoDb } from '../local/dynamodb';
import { baseline, envNumber, loadAverage, onCleanup, ratio, report, runBench, table } from './lib';

const COUNT = Math.floor(envNumber('BENCH_ASSESSMENTS', 400));
const CONCURRENCY = Math.floor(envNumber('BENCH_CONCURRENCY', 20));
const WARM_UP = 40;
/** The p50 an assessment should stay under with the local provider (issue 18). */
const TARGET_P50_MS = 60;
const TABLE_NAME = 'cluefeed-bench-assessment';
const PLACES = ['on Ethereum', 'on Solana', 'on rollups', 'for institutions', 'in Europe'];

/** Distinct, realistic clues: seed audience titles, a place, and a run number. */
const clue = (i: number) =>
  `${audiences[i % audiences.length]!.title} ${PLACES[Math.floor(i / audiences.length) % PLACES.length]} (team ${i})`;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function main(): Promise<number> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  console.error('Starting DynamoDB Local (in memory)...');
  const dynamo = await startDynamoDb();
  onCleanup(
    () => dynamo.stop(),
    () => dynamo.process.kill('SIGKILL'),
  );
  // core/config reads the environment once, on first use: set it before core is loaded.
  Object.assign(process.env, {
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    TABLE_NAME,
    APP_SECRET: randomBytes(20).toString('hex'),
    NODE_ENV: 'development',
    AI_GPT_MODEL: 'local/cluefeed-bm25',
  });
  const [{ ensureTable }, Assessment, Ai, { mapPool }, { flush }] = await Promise.all([
    import('#core/db'),
    import('#core/assessment'),
    import('#core/ai'),
    import('#core/common'),
    import('#core/logs'),
  ]);
  await ensureTable();
  onCleanup(() => flush());

  const model = await Ai.configured('gpt');
  /** The local model alone (no table), to tell its share of an assessment's time. */
  const modelOnly = async (from: number, count: number) =>
    mapPool(
      Array.from({ length: count }, (_, i) => from + i),
      CONCURRENCY,
      async (i) => {
        const started = performance.now();
        const input = { prefix: 'I am one of those who', audienceName: clue(i) };
        await Ai.ai().complete({ model, task: Ai.audienceNameAssessment, input, user: '' });
        return performance.now() - started;
      },
    );
  const run = async (from: number, count: number) =>
    mapPool(
      Array.from({ length: count }, (_, i) => from + i),
      CONCURRENCY,
      async (i) => {
        const started = performance.now();
        const answer = await Assessment.assess({
          prefix: 'I am one of those who',
          audienceName: clue(i),
        });
        if (answer.cached) throw new Error(`Clue ${i} was a cache hit; the bench needs misses`);
        return performance.now() - started;
      },
    );

  console.error(`Warming up with ${WARM_UP} assessments...`);
  await run(0, WARM_UP);
  await modelOnly(0, WARM_UP);
  const loadBefore = loadAverage();
  const timed = async (what: string, pass: () => Promise<number[]>) => {
    console.error(`${what}: ${COUNT} calls, ${CONCURRENCY} at a time...`);
    const started = performance.now();
    const latencies = (await pass()).sort((a, b) => a - b);
    return { latencies, perSecond: COUNT / ((performance.now() - started) / 1000) };
  };
  const modelBefore = await timed('Baseline: the local model alone', () =>
    modelOnly(WARM_UP, COUNT),
  );
  const assessed = await timed('Assessments', () => run(WARM_UP, COUNT));
  const modelAfter = await timed('Baseline again', () => modelOnly(WARM_UP, COUNT));

  const p50 = (latencies: number[]) => percentile(latencies, 50);
  const base = baseline(
    'local model alone, p50',
    'ms',
    p50(modelBefore.latencies),
    p50(modelAfter.latencies),
  );
  const ms = (value: number) => value.toFixed(1);
  const row = (name: string, pass: typeof assessed) => [
    name,
    String(COUNT),
    String(CONCURRENCY),
    ms(p50(pass.latencies)),
    ms(percentile(pass.latencies, 99)),
    ms(pass.latencies.at(-1)!),
    pass.perSecond.toFixed(1),
  ];
  const assessedP50 = p50(assessed.latencies);
  console.log(
    [
      ...report(
        'Audience name assessment, local provider, DynamoDB Local in memory, no cache hits',
        loadBefore,
        [base],
      ),
      table(
        ['measured', 'calls', 'concurrency', 'p50 ms', 'p99 ms', 'max ms', 'per second'],
        [
          row('local model alone (baseline, before)', modelBefore),
          row('Assessment.assess (cache miss)', assessed),
          row('local model alone (baseline, after)', modelAfter),
        ],
      ),
      '',
      `Assessment p50 ${ms(assessedP50)} ms = ${ratio(assessedP50, base).text} x the model's p50; ` +
        `target < ${TARGET_P50_MS} ms: ${assessedP50 < TARGET_P50_MS ? 'PASS' : 'FAIL'}`,
      '='.repeat(72),
    ].join('\n'),
  );
  return 0;
}

runBench(main);
