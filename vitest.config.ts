// Unit and integration tests: beside the code, against DynamoDB Local (one table per worker).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import SlowestFirst from './tests/slowest-first';

const TEST_FOLDERS = ['core', 'web', 'functions', 'scripts', 'tests/sweeps', 'tests/integration'];

/**
 * What makes a test file need modules of its own: it mocks a module, stubs the environment or a
 * global, sets the environment before core reads its configuration (once per module instance), or
 * changes core's configuration itself. Such a file runs in a fresh module graph; every other file
 * shares its worker's modules with the files before it, which saves loading core again for each
 * file (docs/performance.md). A file with a table of its own shares them too: `useOwnTable` points
 * the shared configuration at its table for the file's duration and flushes the log lines buffered
 * before and during it, so each goes to the table of the file that wrote it.
 */
const NEEDS_OWN_MODULES = new RegExp(
  [
    /vi\.(mock|doMock|stubEnv|stubGlobal)\(/,
    /process\.env(\.\w+|\[[^\]]+\])\s*(\?\?)?=[^=]/,
    /delete process\.env|Object\.assign\(process\.env/,
    /config\(\) as/,
  ]
    .map((pattern) => pattern.source)
    .join('|'),
);

function testFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.test.ts') && !path.includes('node_modules'))
    .map((path) => join(folder, path));
}

const files = TEST_FOLDERS.flatMap(testFiles);
const ownModules = files.filter((file) => NEEDS_OWN_MODULES.test(readFileSync(file, 'utf8')));
const sharedModules = files.filter((file) => !ownModules.includes(file));

export default defineConfig({
  resolve: { alias: { '#web': fileURLToPath(new URL('./web', import.meta.url)) } },
  test: {
    globalSetup: ['tests/integration/global-setup.ts'],
    setupFiles: ['tests/integration/setup.ts'],
    pool: 'forks',
    // Most of a test's time is spent waiting on DynamoDB Local, the queue or a child process, not
    // on this machine's CPU: on 2 cores Vitest's default (cores - 1) ran the files one at a time.
    maxWorkers: 4,
    sequence: { sequencer: SlowestFirst },
    testTimeout: 20_000,
    hookTimeout: 60_000,
    projects: [
      // Each project's workers get tables and queues named after it (tests/integration/setup.ts).
      {
        extends: true,
        test: { name: 'own-modules', include: ownModules, env: { TEST_PROJECT: 'own' } },
      },
      {
        extends: true,
        test: {
          name: 'shared-modules',
          include: sharedModules,
          isolate: false,
          env: { TEST_PROJECT: 'shared' },
        },
      },
    ],
  },
});
