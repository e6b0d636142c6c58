// Builds what `npm start` runs when it is missing or older than any of its sources: the Remix app
// (Vite) and the local web server around it (esbuild), so the web process runs compiled
// JavaScript with plain Node, as Lambda does.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const SOURCES = [
  'web',
  'core',
  'vite.config.ts',
  'package-lock.json',
  'package.json',
  'tsconfig.json',
  'patches',
  'scripts/local',
  'stacks/front-door.ts',
];

/** The compiled local web server (scripts/local/web-process.ts). */
export const WEB_SERVER = join('build', 'local', 'web-server.js');

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
  const outputs = [join(root, 'build', 'server', 'index.js'), join(root, WEB_SERVER)];
  if (!outputs.every((output) => existsSync(output))) return true;
  const built = Math.min(...outputs.map((output) => statSync(output).mtimeMs));
  return SOURCES.some((source) => newestMtime(join(root, source)) > built);
}

/** Bundles our code of the web server; packages stay imports of node_modules. */
export async function buildWebServer(root: string): Promise<void> {
  // esbuild as the project has it (Vite's), as the deploy proof bundles the Lambda artifacts.
  const esbuild = createRequire(createRequire(import.meta.url).resolve('vite/package.json'))(
    'esbuild',
  ) as typeof import('esbuild');
  await esbuild.build({
    entryPoints: [join(root, 'scripts', 'local', 'web-process.ts')],
    outfile: join(root, WEB_SERVER),
    platform: 'node',
    format: 'esm',
    target: 'node20',
    bundle: true,
    packages: 'external',
    logLevel: 'error',
  });
}

/**
 * The Remix app, always a production build: Vite keeps a NODE_ENV it finds, and a build started
 * under tests (NODE_ENV=test) shipped React's development build, whose hydration warnings failed
 * 128 of the 183 journeys.
 */
export function buildApp(root: string): void {
  const result = spawnSync('npx', ['remix', 'vite:build'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) throw new Error('The build failed; see the output above.');
}

/** `npm run build`: the app, then the web server. */
export async function build(root: string): Promise<void> {
  buildApp(root);
  await buildWebServer(root);
}

export async function ensureBuild(root: string): Promise<void> {
  if (!buildIsStale(root)) return;
  console.log('Building the app...');
  await build(root);
}
