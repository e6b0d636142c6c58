// npm start: the whole product on one machine, with the local stand-ins of AWS (DESIGN.md):
// DynamoDB Local (data under .data/), fauxqs, an SMTP sink, the fixture feeds, the seeded demo
// data and admin; then, each in its own process as on AWS (so a send or a scoring run never takes
// the web server's event loop): the app, the jobs worker (a poller running the worker handler)
// and the schedules, each compiled JavaScript run with plain Node.
//   --ephemeral        keep data in memory, fixture feeds on a free port, no schedules (tests, benchmarks)
//   --schedules        run the schedules even with --ephemeral
//   --port N           web port (default PORT or 3000)
//   --dynamo-port N    DynamoDB Local port (default: any free port)
//   --mail-dir DIR     where the SMTP sink keeps messages (default .data/mail)
//   --data-dir DIR     where kept data lives (default .data), so a second copy can run beside it
// Every child (DynamoDB Local above all) is stopped on any exit: Ctrl-C, SIGTERM, an uncaught
// error or a failed start; the three app processes also end themselves if this one is killed.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFeedServer } from '#tests/fakes/feed-server';
import { ensureBuild, PROCESSES } from './local/build';
import { hasJava, JAVA_INSTALL_HINT, startDynamoDb } from './local/dynamodb';
import { startChild } from './local/child-process';
import { isGoneLocalWorker, localWorkerName, startQueue } from './local/jobs';
import { explainListenError } from './local/net';
import { describeMessage, startSmtpSink } from './local/smtp-sink';
import { startOptions } from './local/start-options';

// The Lambda runtime is Node 22; locally Node 20 is supported, so the SDK's notice is noise.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const {
  args,
  fixtureFeedsPort: FIXTURE_FEEDS_PORT,
  runSchedules,
} = startOptions(process.argv.slice(2), process.env);

// Stops, latest started first; run once on whatever ends the process.
const stops: (() => Promise<unknown> | void)[] = [];
let stopping: Promise<void> | undefined;
function stopAll(): Promise<void> {
  stopping ??= (async () => {
    for (const stop of stops.reverse()) {
      await Promise.resolve()
        .then(stop)
        .catch((error: unknown) => console.error('While stopping:', error));
    }
  })();
  return stopping;
}
async function exit(code: number, message?: string): Promise<never> {
  if (message) console.error(message);
  await stopAll();
  process.exit(code);
}
process.on('SIGINT', () => void exit(0));
process.on('SIGTERM', () => void exit(0));
process.on('SIGHUP', () => void exit(0));
process.on('uncaughtException', (error) => void exit(1, `Stopping after an error: ${error.stack}`));
process.on(
  'unhandledRejection',
  (error) => void exit(1, `Stopping after an error: ${String(error)}`),
);

function appSecret(dataDir: string): string {
  if (process.env.APP_SECRET) return process.env.APP_SECRET;
  const file = join(dataDir, 'app-secret');
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

/** Starts the services side by side; when one fails, the others that did start are stopped. */
async function startServices(dataDir: string, mailDir: string) {
  const dynamoPort = args['dynamo-port'] ? Number(args['dynamo-port']) : undefined;
  const started = await Promise.allSettled([
    startDynamoDb({
      dataDir: args.ephemeral ? undefined : join(dataDir, 'dynamodb'),
      port: dynamoPort,
    }).catch((error: unknown) => {
      throw explainListenError(error, dynamoPort, 'DynamoDB Local', '--dynamo-port');
    }),
    startSmtpSink({ dir: mailDir, onMessage: (message) => console.log(describeMessage(message)) }),
    startQueue(),
    startFeedServer({ port: FIXTURE_FEEDS_PORT }).catch((error: unknown) => {
      throw explainListenError(
        error,
        FIXTURE_FEEDS_PORT,
        'the fixture feeds',
        'FIXTURE_FEEDS_PORT',
      );
    }),
  ]);
  for (const result of started) {
    if (result.status === 'fulfilled') stops.push(() => result.value.stop());
  }
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  const [dynamo, sink, queue, feeds] = started.map(
    (result) => (result as PromiseFulfilledResult<unknown>).value,
  ) as [
    Awaited<ReturnType<typeof startDynamoDb>>,
    Awaited<ReturnType<typeof startSmtpSink>>,
    Awaited<ReturnType<typeof startQueue>>,
    Awaited<ReturnType<typeof startFeedServer>>,
  ];
  dynamo.process.on('exit', (code) => {
    if (stopping) return;
    void exit(1, `DynamoDB Local stopped unexpectedly (exit code ${code}).`);
  });
  // The last resort if the process ends without stopAll (process.exit elsewhere): no orphan JVM.
  process.on('exit', () => {
    if (dynamo.process.exitCode === null) dynamo.process.kill('SIGKILL');
  });
  return { dynamo, sink, queue, feeds };
}

async function main() {
  if (!hasJava()) {
    return exit(
      1,
      `Java 17+ is needed to run DynamoDB Local and was not found.\nInstall it with:\n\n  ${JAVA_INSTALL_HINT}\n`,
    );
  }
  const dataDir = resolve(args['data-dir'] ?? join(root, '.data'));
  mkdirSync(dataDir, { recursive: true });
  const port = Number(args.port ?? process.env.PORT ?? 3000);
  // This run's worker claims jobs under this name; the next start knows them as left behind.
  const worker = localWorkerName();
  const mailDir = args['mail-dir'] ?? join(dataDir, 'mail');
  const { dynamo, sink, queue, feeds } = await startServices(dataDir, mailDir);
  await ensureBuild(root);

  Object.assign(process.env, {
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    SMTP_URL: sink.url,
    MAIL_DIR: mailDir,
    SQS_ENDPOINT: queue.endpoint,
    JOBS_QUEUE_URL: queue.queueUrl,
    EMAIL_QUEUE_URL: queue.emailQueueUrl,
    APP_SECRET: appSecret(dataDir),
    // The fixture feeds are on loopback, which feed fetches refuse unless allowed: their origin
    // only, so a feed or a redirect cannot reach DynamoDB Local or any other local port.
    FEED_FETCH_ALLOW: [process.env.FEED_FETCH_ALLOW, new URL(feeds.origin).host]
      .filter(Boolean)
      .join(','),
  });
  process.env.TABLE_NAME ??= 'cluefeed';
  process.env.NODE_ENV ??= 'production';
  process.env.PUBLIC_URL ??= `http://localhost:${port}`;

  const { config } = await import('#core/config');
  config();
  const { ensureTable } = await import('#core/db');
  const { seedDemoData } = await import('./seed/index');
  const { ensureLocalAdmin, seedLocalStreams } = await import('./seed/local');
  const { seedDemoAnalytics } = await import('./seed/analytics');
  const { seedDemoPicks, sendDemoIssue } = await import('./seed/demo-newsletter');
  const CampaignAnalytics = await import('#core/campaign-analytics');
  const Automations = await import('#core/automations');
  const Jobs = await import('#core/jobs');
  const Worker = await import('#core/worker');
  const { flush } = await import('#core/logs');
  // Log lines still buffered for the table go after the app stops, before DynamoDB Local does.
  stops.push(() => flush());

  await ensureTable();
  const seeded = await seedDemoData();
  const total = seeded.audiences + seeded.posts + seeded.contentCards + seeded.sentenceStarters;
  console.log(
    total > 0 ? `Seeded demo data: ${JSON.stringify(seeded)}` : 'Demo data already present.',
  );
  const demoAnalytics = await seedDemoAnalytics();
  // The demo's first issue, for kept data only: journeys (--ephemeral) send their own issues.
  const demoIssue = demoAnalytics.subscribers > 0 && !args.ephemeral;
  if (demoIssue) await seedDemoPicks();
  if (demoAnalytics.subscribers > 0)
    console.log(`Seeded demo analytics: ${JSON.stringify(demoAnalytics)}`);
  await seedLocalStreams(feeds.origin);
  const adminLine = await ensureLocalAdmin(
    process.env.ADMIN_USERNAME ?? 'admin',
    process.env.ADMIN_PASSWORD,
  );

  // Each runs compiled JavaScript with plain Node, as Lambda does (scripts/local/build.ts).
  const processes = [
    {
      name: 'web server',
      // WEB_NODE_ARGS, e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof', profiles the web server alone
      // (docs/performance.md); Node refuses --cpu-prof in NODE_OPTIONS.
      args: [
        ...(process.env.WEB_NODE_ARGS ?? '').split(' ').filter(Boolean),
        join(root, PROCESSES.webServer.output),
      ],
      env: { BUILD_DIR: join(root, 'build') },
    },
    {
      name: 'jobs worker',
      args: [join(root, PROCESSES.worker.output)],
      env: { JOBS_WORKER: worker },
    },
    ...(runSchedules
      ? [{ name: 'schedules', args: [join(root, PROCESSES.schedules.output)] }]
      : []),
  ];
  const started = await Promise.allSettled(
    processes.map((child) =>
      startChild({
        ...child,
        env: { ...process.env, PORT: String(port), ...child.env },
        // A clean exit is a stop someone asked for (Ctrl-C reaches the whole process group).
        onExit: (code, signal) =>
          code === 0
            ? void exit(0)
            : void exit(
                1,
                `The ${child.name} stopped unexpectedly (${signal ?? `exit code ${code}`}).`,
              ),
      }),
    ),
  );
  for (const result of started) {
    if (result.status === 'fulfilled') stops.push(() => result.value.stop());
  }
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    throw failed === started[0]
      ? explainListenError(failed.reason, port, 'the app', 'PORT or --port')
      : failed.reason;
  }
  // What an earlier run stopped mid-way (Ctrl-C, SIGTERM, a crash) runs again now: its worker
  // and its queue are gone, so nothing it held is waited out.
  const left = await Jobs.recoverAfterRestart((name) => isGoneLocalWorker(name, worker));
  for (const process of left.released)
    console.log(`${Jobs.jobTitle(process.name)} was stopped with the last run: it runs again.`);
  for (const process of left.resumed)
    console.log(
      `${Jobs.jobTitle(process.name)} was stopped with the last run: its remaining chunks run again.`,
    );
  /** What `what` waits for: the run that holds its job's slot, by name and state. */
  const waits = (what: string, job: { name: string; slot?: string }) => async (error: unknown) => {
    const slot = job.slot ?? job.name;
    const holder = (await Jobs.active()).find((run) => (run.slot ?? run.name) === slot);
    const state = holder?.status === 'Running' ? `running since ${holder.startTime}` : 'queued';
    console.log(
      holder
        ? `${what} waits for ${Jobs.jobTitle(holder.name)} (${state}, process ${holder.id}).`
        : `${what} waits: ${(error as Error).message}`,
    );
  };
  if (runSchedules) {
    await Jobs.recover(Date.now(), Worker.jobs);
    // Kept data may hold scores from before ADR 0033: they move (once; a rerun moves nothing).
    await Jobs.enqueue(Automations.moveScores, {}, 'npm-start').catch(
      waits('Moving scores to the new keys', Automations.moveScores),
    );
  }
  // The campaign analytics page's figures, now rather than at the schedule's next turn.
  const rollUp = () =>
    Jobs.enqueue(CampaignAnalytics.rollUpAnalytics, {}, 'npm-start').catch(
      waits('Rolling up analytics', CampaignAnalytics.rollUpAnalytics),
    );
  await rollUp();
  if (demoIssue) {
    // In the background: the issue goes out through the worker and the outbox while you look.
    void sendDemoIssue('npm-start')
      .then(async ({ issueId, done, clicks }) => {
        console.log(
          done
            ? `Demo newsletter ${issueId} sent; its readers clicked ${clicks} stories.`
            : `Demo newsletter ${issueId} is still being sent; its readers will not click.`,
        );
        await rollUp();
      })
      .catch((error: unknown) =>
        console.log(`The demo newsletter was not sent: ${(error as Error).message}`),
      );
  }
  // E-mails queued before a restart lost their queue messages with fauxqs: the worker sends what
  // is due from new ones.
  const Outbox = await import('#core/outbox');
  await Outbox.recoverDue({ queueEmptied: true });

  const schedules = runSchedules
    ? `schedules: ${Worker.SCHEDULES.map((s) => `${s.id} "${s.cron}"`).join(', ')}`
    : 'schedules: off (--ephemeral; add --schedules to run them)';
  console.log(
    [
      `\nCluefeed is running at http://localhost:${port}`,
      `Admin panel: http://localhost:${port}/admin-panel — ${adminLine}`,
      `DynamoDB Local: ${dynamo.endpoint}${args.ephemeral ? ' (in memory)' : ` (data in ${join(dataDir, 'dynamodb')})`}`,
      `Jobs queue (fauxqs): ${queue.endpoint}; ${schedules}`,
      `Fixture feeds: ${feeds.origin} (FIXTURE_FEEDS_PORT)`,
      `Outgoing e-mail: ${sink.url}, kept in ${mailDir} (a line per message below)`,
      'Press Ctrl-C to stop.\n',
    ].join('\n'),
  );
}

main().catch((error: unknown) => exit(1, error instanceof Error ? error.message : String(error)));
