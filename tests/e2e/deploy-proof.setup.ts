// npm test's deploy proof (npm run deploy:proof), run once the main journeys end: beside the
// curation, newsletter and promote journeys, which run one after another and leave a core idle.
// It has a DynamoDB Local, a queue and a sink of its own, so it shares nothing with the journeys.
import { spawn } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { JOURNEY_SETTINGS } from '../../playwright.config';

test('the Lambda artifacts build and answer their events offline (npm run deploy:proof)', async () => {
  // Built with SST's options and invoked one by one: about 16 s on 2 idle cores.
  test.setTimeout(600_000);
  // With npm test's environment, not the journeys' table, admin and endpoints.
  const env = { ...process.env };
  for (const name of JOURNEY_SETTINGS) delete env[name];
  const child = spawn('npm', ['run', '--silent', 'deploy:proof'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  // Its own report, in npm test's output as when it ran on its own.
  process.stdout.write(output);
  expect(code, output).toBe(0);
});
