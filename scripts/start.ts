// npm start: the whole product on one machine, with the local stand-ins of AWS (DESIGN.md):
// DynamoDB Local (data under .data/), fauxqs + a poller running the worker handler, the
// schedules, an SMTP sink, the fixture feeds, the seeded demo data and admin, and the app.
//   --ephemeral        keep data in memory (end-to-end tests, benchmarks)
//   --port N           web port (default PORT or 3000)
//   --dynamo-port N    DynamoDB Local port (default: any free port)
//   --mail-dir DIR     where the SMTP sink keeps messages (default .data/mail)
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startFeedServer } from '#tests/fakes/feed-server';
import { ensureBuild } from './local/build';
import { hasJava, JAVA_INSTALL_HINT, startDynamoDb } from './local/dynamodb';
import { startPoller, startQueue, startScheduler } from './local/jobs';
import { startWebServer } from './local/server';
import { describeMessage, startSmtpSink } from './local/smtp-sink';

// The Lambda runtime is Node 22; locally Node 20 is supported, so the SDK's notice is noise.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    ephemeral: { type: 'boolean', default: false },
    port: { type: 'string' },
    'dynamo-port': { type: 'string' },
    'mail-dir': { type: 'string' },
  },
});
/** Fixed, because the seeded streams store their URLs. */
const FIXTURE_FEEDS_PORT = Number(process.env.FIXTURE_FEEDS_PORT ?? 4590);

function appSecret(dataDir: string): string {
  if (process.env.APP_SECRET) return process.env.APP_SECRET;
  const file = join(dataDir, 'app-secret');
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

async function main() {
  if (!hasJava()) {
    console.error(
      `Java 17+ is needed to run DynamoDB Local and was not found.\nInstall it with:\n\n  ${JAVA_INSTALL_HINT}\n`,
    );
    process.exit(1);
  }
  const dataDir = join(root, '.data');
  mkdirSync(dataDir, { recursive: true });
  ensureBuild(root);

  const port = Number(args.port ?? process.env.PORT ?? 3000);
  const mailDir = args['mail-dir'] ?? join(dataDir, 'mail');
  const [dynamo, sink, queue, feeds] = await Promise.all([
    startDynamoDb({
      dataDir: args.ephemeral ? undefined : join(dataDir, 'dynamodb'),
      port: args['dynamo-port'] ? Number(args['dynamo-port']) : undefined,
    }),
    startSmtpSink({ dir: mailDir, onMessage: (message) => console.log(describeMessage(message)) }),
    startQueue(),
    startFeedServer({ port: FIXTURE_FEEDS_PORT }),
  ]);
  Object.assign(process.env, {
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    SMTP_URL: sink.url,
    MAIL_DIR: mailDir,
    SQS_ENDPOINT: queue.endpoint,
    JOBS_QUEUE_URL: queue.queueUrl,
    APP_SECRET: appSecret(dataDir),
  });
  process.env.TABLE_NAME ??= 'cluefeed';
  process.env.NODE_ENV ??= 'production';
  process.env.PUBLIC_URL ??= `http://localhost:${port}`;

  const { config } = await import('#core/config');
  config();
  const { ensureTable } = await import('#core/db');
  const { seedDemoData } = await import('./seed/index');
  const { ensureLocalAdmin, seedLocalStreams } = await import('./seed/local');
  const Automations = await import('#core/automations');
  const Jobs = await import('#core/jobs');
  const { handler: worker } = await import('../functions/worker');

  await ensureTable();
  const seeded = await seedDemoData();
  const total = seeded.audiences + seeded.posts + seeded.contentCards;
  console.log(
    total > 0 ? `Seeded demo data: ${JSON.stringify(seeded)}` : 'Demo data already present.',
  );
  await seedLocalStreams(feeds.origin);
  const adminLine = await ensureLocalAdmin(
    process.env.ADMIN_USERNAME ?? 'admin',
    process.env.ADMIN_PASSWORD,
  );

  const server = await startWebServer({ buildDir: join(root, 'build'), port });
  const poller = startPoller({
    endpoint: queue.endpoint,
    queueUrl: queue.queueUrl,
    handler: worker,
  });
  const scheduler = startScheduler(Automations.SCHEDULES, Automations.runSchedule);
  await Jobs.recover();

  console.log(
    [
      `\nCluefeed is running at http://localhost:${port}`,
      `Admin panel: http://localhost:${port}/admin-panel — ${adminLine}`,
      `DynamoDB Local: ${dynamo.endpoint}${args.ephemeral ? ' (in memory)' : ` (data in ${join(dataDir, 'dynamodb')})`}`,
      `Jobs queue (fauxqs): ${queue.endpoint}; schedules: ${Automations.SCHEDULES.map((s) => `${s.id} "${s.cron}"`).join(', ')}`,
      `Fixture feeds: ${feeds.origin}`,
      `Outgoing e-mail: ${sink.url}, kept in ${mailDir} (a line per message below)`,
      'Press Ctrl-C to stop.\n',
    ].join('\n'),
  );

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    scheduler.stop();
    server.close();
    server.closeAllConnections();
    await poller.stop();
    await Promise.all([dynamo.stop(), sink.stop(), queue.stop(), feeds.stop()]);
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  dynamo.process.on('exit', (code) => {
    if (stopping) return;
    console.error(`DynamoDB Local stopped unexpectedly (exit code ${code}).`);
    process.exit(1);
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
