// npm test's checks of what deploying builds, run beside the curation journeys (the same Playwright
// phase), which wait on the app's jobs and leave a core idle. The stacks' type-check and the deploy
// proof (npm run deploy:proof, with a DynamoDB Local, a queue and a sink of its own) share nothing
// with the journeys. When a journey fails they do not run: the run has failed already.
import { spawn } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { JOURNEY_SETTINGS } from '../../playwright.config';

/** Runs an npm script with npm test's environment (not the journeys' table, admin and endpoints). */
async function npmRun(script: string): Promise<{ code: number | null; output: string }> {
  const env = { ...process.env };
  for (const name of JOURNEY_SETTINGS) delete env[name];
  // A group of its own, so a test that times out stops the script and all it started.
  const child = spawn('npm', ['run', '--silent', script], {
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = () => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // Ended meanwhile.
    }
  };
  process.once('exit', stop);
  // Its report goes to npm test's output as it comes, as when it ran on its own.
  let output = '';
  const report = (chunk: Buffer) => {
    output += chunk.toString();
    process.stdout.write(chunk);
  };
  child.stdout.on('data', report);
  child.stderr.on('data', report);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  process.off('exit', stop);
  return { code, output };
}

test('the stacks type-check (npm run typecheck:stacks)', async () => {
  test.setTimeout(600_000);
  const { code, output } = await npmRun('typecheck:stacks');
  expect(code, output).toBe(0);
});

test('the Lambda artifacts build and answer their events offline (npm run deploy:proof)', async () => {
  // Built with SST's options and invoked one by one: about 16 s on 2 idle cores.
  test.setTimeout(600_000);
  const { code, output } = await npmRun('deploy:proof');
  expect(code, output).toBe(0);
});
