// Browser journeys in Debian's Chromium (its headless shell) against `npm start --ephemeral`
// (in-memory DynamoDB Local on a fixed port, so tests can check what was stored; no schedules, so
// no hourly import mid-run).
import { readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, HEADLESS_SHELL_PATH } from './scripts/local/chromium';
import { isRunning } from './scripts/local/child-process';

// Ports move with E2E_PORT, E2E_DYNAMO_PORT and FIXTURE_FEEDS_PORT, so two runs can share a machine:
// each run takes the port each names and the one after it (the back office's app), so move them by
// at least 2.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_DYNAMO_PORT = Number(process.env.E2E_DYNAMO_PORT ?? 8765);
const FIXTURE_FEEDS_PORT = Number(process.env.FIXTURE_FEEDS_PORT ?? 4591);

const RUN_FOLDER_PREFIX = 'cluefeed-e2e-run-';
// Each run keeps its apps' mail in a folder of its own, named after the runner's process, which
// its workers inherit: a journey polls its sink's folder, and the messages of every earlier run
// there made each poll slower (3,500 of them made one journey miss a message that had arrived).
// The runner removes the folders of runs that have ended, where it may (another user's stay).
if (!process.env.E2E_RUN) {
  process.env.E2E_RUN = String(process.pid);
  for (const name of readdirSync(tmpdir())) {
    const pid = Number(name.slice(RUN_FOLDER_PREFIX.length));
    if (!name.startsWith(RUN_FOLDER_PREFIX) || isRunning(pid)) continue;
    try {
      rmSync(join(tmpdir(), name), { recursive: true, force: true });
    } catch {
      // Not ours to remove: it costs this run nothing.
    }
  }
}
const RUN_FOLDER = join(tmpdir(), `${RUN_FOLDER_PREFIX}${process.env.E2E_RUN}`);

/** An `npm start --ephemeral` the journeys run against, with ports and a mail sink of its own. */
export type AppUnderTest = {
  port: number;
  dynamoPort: number;
  fixtureFeedsPort: number;
  origin: string;
  mailDir: string;
};

function appUnderTest(offset: number): AppUnderTest {
  const port = E2E_PORT + offset;
  return {
    port,
    dynamoPort: E2E_DYNAMO_PORT + offset,
    fixtureFeedsPort: FIXTURE_FEEDS_PORT + offset,
    origin: `http://127.0.0.1:${port}`,
    mailDir: join(RUN_FOLDER, `mail-${port}`),
  };
}

/** The app most journeys share. */
export const JOURNEYS_APP = appUnderTest(0);
/**
 * The back office's journeys change what every other journey reads: picks add content cards to
 * the seeded audiences, a send holds the one send slot, a promoted scoring setup changes every
 * score. They run one at a time against an app of their own, beside the other journeys instead of
 * after them.
 */
export const BACK_OFFICE_APP = appUnderTest(1);
const BACK_OFFICE_JOURNEYS = /(curation|newsletter|promote)\.spec\.ts/;
/** The project whose tests run against BACK_OFFICE_APP (tests/e2e/fixtures.ts points them there). */
export const BACK_OFFICE_PROJECT = 'back office';

const appEnv = {
  TABLE_NAME: 'cluefeed-e2e',
  APP_SECRET: 'e2e-secret-that-is-long-enough-0123456789abcdef',
  RATE_LIMIT_FACTOR: '50',
  ADMIN_USERNAME: 'admin',
  ADMIN_PASSWORD: 'e2e-admin-password-0123',
};

/** What a journey's own process needs to read what its app stored, through the core operations. */
export function journeyEnv(app: AppUnderTest): Record<string, string> {
  return {
    PUBLIC_URL: app.origin,
    DYNAMODB_ENDPOINT: `http://127.0.0.1:${app.dynamoPort}`,
    FIXTURE_FEEDS_PORT: String(app.fixtureFeedsPort),
    E2E_MAIL_DIR: app.mailDir,
  };
}

// Test workers load this file too: journeys read what the app stored through the core operations,
// so they point at the same DynamoDB Local and table (the back office's workers are pointed at
// theirs before their first test, tests/e2e/fixtures.ts).
Object.assign(process.env, appEnv, journeyEnv(JOURNEYS_APP), {
  // Production config needs one; journeys send no mail themselves (the app's goes to its sink).
  SMTP_URL: 'smtp://127.0.0.1:9',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
});

const webServer = (app: AppUnderTest) => ({
  command: `npx tsx scripts/start.ts --ephemeral --port ${app.port} --dynamo-port ${app.dynamoPort} --mail-dir ${app.mailDir}`,
  url: `${app.origin}/healthz`,
  // Never another run's app: the journeys read the mail of the app this run started.
  reuseExistingServer: false,
  timeout: 180_000,
  env: { ...appEnv, ...journeyEnv(app) },
  stdout: 'pipe' as const,
});

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  // Journeys wait on the app's jobs and on timers for part of their time: on 2 cores a third
  // worker fills that wait; a fourth made them slower inside npm test (docs/performance.md).
  workers: 3,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  timeout: 30_000,
  // The back office first: its journeys are queued before the others, so its one worker starts at
  // once and the rest run beside it. One at a time, in file order (curation, newsletter, promote):
  // each reads what the one before it left.
  projects: [
    {
      name: BACK_OFFICE_PROJECT,
      testMatch: BACK_OFFICE_JOURNEYS,
      workers: 1,
      fullyParallel: false,
      use: { baseURL: BACK_OFFICE_APP.origin },
    },
    { name: 'journeys', testIgnore: BACK_OFFICE_JOURNEYS },
  ],
  use: {
    baseURL: JOURNEYS_APP.origin,
    // A trace records every action's snapshots: about a fifth of the journeys' time on 2 cores
    // (docs/performance.md). CI keeps no files of a run, only its output, so it records none.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    launchOptions: { executablePath: HEADLESS_SHELL_PATH, args: CHROMIUM_ARGS },
  },
  webServer: [webServer(JOURNEYS_APP), webServer(BACK_OFFICE_APP)],
});
