// Browser journeys in Debian's Chromium (its headless shell) against `npm start --ephemeral`
// (in-memory DynamoDB Local on a fixed port, so tests can check what was stored; no schedules, so
// no hourly import mid-run).
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, HEADLESS_SHELL_PATH } from './scripts/local/chromium';

// Ports move with E2E_PORT, E2E_DYNAMO_PORT and FIXTURE_FEEDS_PORT, so two runs can share a machine.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_DYNAMO_PORT = Number(process.env.E2E_DYNAMO_PORT ?? 8765);
const FIXTURE_FEEDS_PORT = process.env.FIXTURE_FEEDS_PORT ?? '4591';
export const E2E_MAIL_DIR = join(tmpdir(), `cluefeed-e2e-mail-${E2E_PORT}`);

const appEnv = {
  TABLE_NAME: 'cluefeed-e2e',
  APP_SECRET: 'e2e-secret-that-is-long-enough-0123456789abcdef',
  PUBLIC_URL: `http://127.0.0.1:${E2E_PORT}`,
  RATE_LIMIT_FACTOR: '50',
  ADMIN_USERNAME: 'admin',
  ADMIN_PASSWORD: 'e2e-admin-password-0123',
  FIXTURE_FEEDS_PORT,
};

// Test workers load this file too: journeys read what the app stored through the core operations,
// so they point at the same DynamoDB Local and table.
Object.assign(process.env, appEnv, {
  DYNAMODB_ENDPOINT: `http://127.0.0.1:${E2E_DYNAMO_PORT}`,
  // Production config needs one; journeys send no mail themselves (the app's goes to its sink).
  SMTP_URL: 'smtp://127.0.0.1:9',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
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
  // Curation journeys add content cards to seeded audiences that other journeys count: they run
  // after them. The newsletter journey sends a campaign, and only one send runs at a time: it runs
  // after the curation journeys, whose 'Send newsletters' would otherwise hold the slot. Promoting
  // a scoring setup changes which scores every other journey reads: it runs last.
  projects: [
    { name: 'journeys', testIgnore: /(curation|newsletter|promote)\.spec\.ts/ },
    // Retires the journeys' readers, so the curation journey's scoring run scores what it checks.
    { name: 'tidy', testMatch: /tidy\.setup\.ts/, dependencies: ['journeys'] },
    { name: 'curation', testMatch: /curation\.spec\.ts/, dependencies: ['tidy'] },
    { name: 'newsletter', testMatch: /newsletter\.spec\.ts/, dependencies: ['curation'] },
    { name: 'promote', testMatch: /promote\.spec\.ts/, dependencies: ['newsletter'] },
  ],
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    // A trace records every action's snapshots: about a fifth of the journeys' time on 2 cores
    // (docs/performance.md). CI keeps no files of a run, only its output, so it records none.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    launchOptions: { executablePath: HEADLESS_SHELL_PATH, args: CHROMIUM_ARGS },
  },
  webServer: {
    command: `npx tsx scripts/start.ts --ephemeral --port ${E2E_PORT} --dynamo-port ${E2E_DYNAMO_PORT} --mail-dir ${E2E_MAIL_DIR}`,
    url: `http://127.0.0.1:${E2E_PORT}/healthz`,
    reuseExistingServer: !process.env.CI,
    timeout: 180_000,
    env: {
      TABLE_NAME: 'cluefeed-e2e',
      APP_SECRET: 'e2e-secret-that-is-long-enough-0123456789abcdef',
    },
    stdout: 'pipe',
  },
});
