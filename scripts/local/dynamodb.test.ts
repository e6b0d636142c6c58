// DynamoDB Local is a JVM of its own: it must not outlive the process that started it, however
// that process ends (a runtime killed outright, a test runner stopping its worker).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { expect, it } from 'vitest';
import { waitFor } from './net';
import { isRunning } from './child-process';

const ROOT = join(import.meta.dirname, '..', '..');

it('stops when the process that started it is killed with SIGKILL', async () => {
  const parent = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '-e',
      "import('./scripts/local/dynamodb.ts').then(async ({ startDynamoDb }) => console.log((await startDynamoDb()).process.pid))",
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const jvm = await new Promise<number>((resolve, reject) => {
    createInterface({ input: parent.stdout }).once('line', (line) => resolve(Number(line)));
    parent.once('exit', (code) => reject(new Error(`The parent exited (${code}) first`)));
  });
  expect(isRunning(jvm)).toBe(true);
  parent.kill('SIGKILL');
  await waitFor(async () => {
    if (isRunning(jvm)) throw new Error(`DynamoDB Local (pid ${jvm}) is still running`);
  }, 10_000);
});
