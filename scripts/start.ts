// npm start: DynamoDB Local (data under .data/), the table, demo data, and the app on PORT.
//   --ephemeral        keep data in memory (end-to-end tests, benchmarks)
//   --port N           web port (default PORT or 3000)
//   --dynamo-port N    DynamoDB Local port (default: any free port)
//   --mail-dir DIR     where the SMTP sink keeps messages (default .data/mail)
// The Lambda runtime is Node 22; locally Node 20 is supported, so the SDK's notice is noise.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { hasJava, JAVA_INSTALL_HINT, startDynamoDb } from './local/dynamodb';
import { ensureBuild } from './local/build';
import { startWebServer } from './local/server';
import { describeMessage, startSmtpSink } from './local/smtp-sink';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    ephemeral: { type: 'boolean', default: false },
    port: { type: 'string' },
    'dynamo-port': { type: 'string' },
    'mail-dir': { type: 'string' },
  },
});

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

  const dynamo = await startDynamoDb({
    dataDir: args.ephemeral ? undefined : join(dataDir, 'dynamodb'),
    port: args['dynamo-port'] ? Number(args['dynamo-port']) : undefined,
  });
  const mailDir = args['mail-dir'] ?? join(dataDir, 'mail');
  const sink = await startSmtpSink({
    dir: mailDir,
    onMessage: (message) => console.log(describeMessage(message)),
  });
  process.env.SMTP_URL = sink.url;
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  process.env.TABLE_NAME ??= 'cluefeed';
  process.env.APP_SECRET = appSecret(dataDir);
  process.env.NODE_ENV ??= 'production';
  const port = Number(args.port ?? process.env.PORT ?? 3000);
  process.env.PUBLIC_URL ??= `http://localhost:${port}`;

  const { config } = await import('#core/config');
  config();
  const { ensureTable } = await import('#core/db');
  const { seedDemoData } = await import('./seed/index');
  await ensureTable();
  const seeded = await seedDemoData();
  const total = seeded.audiences + seeded.posts + seeded.contentCards;
  console.log(
    total > 0 ? `Seeded demo data: ${JSON.stringify(seeded)}` : 'Demo data already present.',
  );

  const server = await startWebServer({ buildDir: join(root, 'build'), port });
  console.log(
    [
      `\nCluefeed is running at http://localhost:${port}`,
      `DynamoDB Local: ${dynamo.endpoint}${args.ephemeral ? ' (in memory)' : ` (data in ${join(dataDir, 'dynamodb')})`}`,
      `Outgoing e-mail: ${sink.url}, kept in ${mailDir} (a line per message below)`,
      'Press Ctrl-C to stop.\n',
    ].join('\n'),
  );

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    server.close();
    server.closeAllConnections();
    await Promise.all([dynamo.stop(), sink.stop()]);
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  dynamo.process.on('exit', (code) => {
    if (stopping) return;
    console.error(`DynamoDB Local stopped unexpectedly (exit code ${code}).`);
    server.close();
    process.exit(1);
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
