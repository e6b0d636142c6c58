// Unit and integration tests: beside the code, against DynamoDB Local (one table per worker).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import SlowestFirst from './tests/slowest-first';

export default defineConfig({
  resolve: { alias: { '#web': fileURLToPath(new URL('./web', import.meta.url)) } },
  test: {
    include: [
      'core/**/*.test.ts',
      'web/**/*.test.ts',
      'functions/**/*.test.ts',
      'scripts/**/*.test.ts',
      'tests/sweeps/**/*.test.ts',
      'tests/integration/**/*.test.ts',
    ],
    globalSetup: ['tests/integration/global-setup.ts'],
    setupFiles: ['tests/integration/setup.ts'],
    pool: 'forks',
    // Most of a test's time is spent waiting on DynamoDB Local, the queue or a child process, not
    // on this machine's CPU: on 2 cores Vitest's default (cores - 1) ran the files one at a time.
    maxWorkers: 4,
    sequence: { sequencer: SlowestFirst },
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
