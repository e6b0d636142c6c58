// The build is a production build whoever starts it: under tests NODE_ENV is 'test', and Vite
// keeps a NODE_ENV it finds (React's development build then hydrates with warnings).
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
