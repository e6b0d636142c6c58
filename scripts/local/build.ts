// Builds the Remix app when the build is missing or older than any of its sources.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SOURCES = ['web', 'core', 'vite.config.ts', 'package-lock.json'];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce(
    (newest, name) => Math.max(newest, newestMtime(join(path, name))),
    stat.mtimeMs,
  );
}

export function buildIsStale(root: string): boolean {
  const output = join(root, 'build', 'server', 'index.js');
  if (!existsSync(output)) return true;
  const built = statSync(output).mtimeMs;
  return SOURCES.some((source) => newestMtime(join(root, source)) > built);
}

export function ensureBuild(root: string): void {
  if (!buildIsStale(root)) return;
  console.log('Building the app...');
  const result = spawnSync('npx', ['remix', 'vite:build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('The build failed; see the output above.');
}
