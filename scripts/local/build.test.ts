// The build is a production build whoever starts it: under tests NODE_ENV is 'test', and Vite
// keeps a NODE_ENV it finds (React's development build then hydrates with warnings). And it is
// stale when a source of any of npm start's processes is newer than it.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';

const spawnSync = vi.hoisted(() => vi.fn(() => ({ status: 0 })));
vi.mock('node:child_process', async (original) => ({
  ...(await original<typeof import('node:child_process')>()),
  spawnSync,
}));

afterEach(() => vi.unstubAllEnvs());

it('builds the app with NODE_ENV=production even when the caller runs under another', async () => {
  vi.stubEnv('NODE_ENV', 'test');
  const { buildApp } = await import('./build');
  buildApp(process.cwd());
  expect(spawnSync).toHaveBeenCalledWith(
    'npx',
    ['remix', 'vite:build'],
    expect.objectContaining({ env: expect.objectContaining({ NODE_ENV: 'production' }) }),
  );
});

it('counts the worker handler in functions/ among the sources a build is stale against', async () => {
  const { buildIsStale, PROCESSES } = await import('./build');
  const root = mkdtempSync(join(tmpdir(), 'cluefeed-build-'));
  const builtAt = Date.parse('2026-01-01T00:00:00Z');
  const dated = (path: string, ms: number) => utimesSync(join(root, path), ms / 1000, ms / 1000);
  try {
    const outputs = [
      join('build', 'server', 'index.js'),
      ...Object.values(PROCESSES).map(({ output }) => output),
    ];
    for (const output of outputs) {
      mkdirSync(dirname(join(root, output)), { recursive: true });
      writeFileSync(join(root, output), '');
      dated(output, builtAt);
    }
    mkdirSync(join(root, 'functions'));
    writeFileSync(join(root, 'functions', 'worker.ts'), '');
    dated(join('functions', 'worker.ts'), builtAt - 60_000);
    dated('functions', builtAt - 60_000);
    expect(buildIsStale(root)).toBe(false);
    dated(join('functions', 'worker.ts'), builtAt + 60_000);
    expect(buildIsStale(root)).toBe(true);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
