// npm run bench:assessment: audience name assessments with the local provider against an in-memory
// DynamoDB Local, BENCH_CONCURRENCY (20) at a time, every clue distinct so none is a cache hit.
// Each assessment is the whole public operation: configured model and current prompt (reads), the
// cache read (a miss), the local model, and the cache write. Prints p50/p99; asserts nothing.
//   BENCH_ASSESSMENTS=400   assessments measured (after 40 for warm-up)
//   BENCH_CONCURRENCY=20    at a time
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { audiences } from '../seed/data';
import { startDynamoDb } from '../local/dynamodb';
import { envNumber, onCleanup, runBench, table } from './lib';

const COUNT = Math.floor(envNumber('BENCH_ASSESSMENTS', 400));
const CONCURRENCY = Math.floor(envNumber('BENCH_CONCURRENCY', 20));
const WARM_UP = 40;
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
  console.error(`Measuring ${COUNT} assessments, ${CONCURRENCY} at a time...`);
  const started = performance.now();
  const latencies = (await run(WARM_UP, COUNT)).sort((a, b) => a - b);
  const seconds = (performance.now() - started) / 1000;
  const modelStarted = performance.now();
  const modelLatencies = (await modelOnly(WARM_UP, COUNT)).sort((a, b) => a - b);
  const modelSeconds = (performance.now() - modelStarted) / 1000;

  const ms = (value: number) => value.toFixed(1);
  console.log(
    [
      '='.repeat(72),
      `Audience name assessment, local provider, DynamoDB Local in memory, no cache hits`,
      `Node ${process.version}, ${cpus().length} CPUs, load ${loadavg()[0]!.toFixed(2)}`,
      '',
      table(
        ['measured', 'calls', 'concurrency', 'p50 ms', 'p99 ms', 'max ms', 'per second'],
        [
          [
            'Assessment.assess (cache miss)',
            String(COUNT),
            String(CONCURRENCY),
            ms(percentile(latencies, 50)),
            ms(percentile(latencies, 99)),
            ms(latencies.at(-1)!),
            (COUNT / seconds).toFixed(1),
          ],
          [
            'local model alone',
            String(COUNT),
            String(CONCURRENCY),
            ms(percentile(modelLatencies, 50)),
            ms(percentile(modelLatencies, 99)),
            ms(modelLatencies.at(-1)!),
            (COUNT / modelSeconds).toFixed(1),
          ],
        ],
      ),
      '='.repeat(72),
    ].join('\n'),
  );
  return 0;
}

runBench(main);
