// Builds what `npm start` runs when it is missing or older than any of its sources: the Remix app
// (Vite), and the web server around it, the jobs worker and the schedules (esbuild), so each of
// npm start's processes runs compiled JavaScript with plain Node, as Lambda does.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { NATIVE_MODULES } from '../../stacks/native-modules';

const SOURCES = [
  'web',
  'core',
  'vite.config.ts',
  'package-lock.json',
  'package.json',
  'tsconfig.json',
  'patches',
  'scripts/local',
  'functions',
  'stacks/front-door.ts',
  'stacks/native-modules.ts',
];

/** Where npm start's processes are compiled to (the Remix app is in build/server, build/client). */
export const PROCESSES_DIR = join('build', 'local');
/** npm start's processes: each one's source and its compiled file. */
export const PROCESSES = {
  webServer: {
    entry: join('scripts', 'local', 'web-process.ts'),
    output: join(PROCESSES_DIR, 'web-server.js'),
  },
  worker: {
    entry: join('scripts', 'local', 'worker-process.ts'),
    output: join(PROCESSES_DIR, 'worker.js'),
  },
  schedules: {
    entry: join('scripts', 'local', 'schedules-process.ts'),
    output: join(PROCESSES_DIR, 'schedules.js'),
  },
};

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
  const outputs = [
    join(root, 'build', 'server', 'index.js'),
    ...Object.values(PROCESSES).map(({ output }) => join(root, output)),
  ];
  if (!outputs.every((output) => existsSync(output))) return true;
  const built = Math.min(...outputs.map((output) => statSync(output).mtimeMs));
  return SOURCES.some((source) => newestMtime(join(root, source)) > built);
}

/**
 * Bundles each entry (name -> source) into `outdir`/name.js, with the code they share and what they
 * import only when needed (the local model's word vectors, 7 MB) in chunks/. `packages`:
 * - 'bundled': packages too, but for those with native code, as SST bundles a Lambda handler (the
 *   worker loads in about 1.0 s of CPU, against 2.2 s with its packages as imports and 3.4 s
 *   through tsx; docs/performance.md);
 * - 'imported': packages stay imports of node_modules, for the web server, which must share them
 *   with the Remix build it loads.
 * The folder is inside `root`, so what stays an import resolves from node_modules.
 */
export async function bundleProcesses(
  root: string,
  entries: Record<string, string>,
  outdir: string,
  packages: 'bundled' | 'imported',
): Promise<void> {
  // esbuild as the project has it (Vite's), as the deploy proof bundles the Lambda artifacts.
  const esbuild = createRequire(createRequire(import.meta.url).resolve('vite/package.json'))(
    'esbuild',
  ) as typeof import('esbuild');
  await esbuild.build({
    entryPoints: Object.fromEntries(
      Object.entries(entries).map(([name, entry]) => [name, join(root, entry)]),
    ),
    outdir: join(root, outdir),
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    bundle: true,
    logLevel: 'error',
    ...(packages === 'imported'
      ? { packages: 'external' as const }
      : {
          external: NATIVE_MODULES,
          mainFields: ['module', 'main'],
          // CommonJS packages in an ES module bundle still call require (SST's banner does this).
          banner: {
            js: "import { createRequire as topLevelCreateRequire } from 'node:module';\nconst require = topLevelCreateRequire(import.meta.url);",
          },
        }),
  });
}

/** The web server, the jobs worker and the schedules, into a fresh PROCESSES_DIR. */
export async function buildProcesses(root: string): Promise<void> {
  rmSync(join(root, PROCESSES_DIR), { recursive: true, force: true });
  const { webServer, worker, schedules } = PROCESSES;
  const name = (output: string) => basename(output, '.js');
  await Promise.all([
    bundleProcesses(root, { [name(webServer.output)]: webServer.entry }, PROCESSES_DIR, 'imported'),
    bundleProcesses(
      root,
      { [name(worker.output)]: worker.entry, [name(schedules.output)]: schedules.entry },
      PROCESSES_DIR,
      'bundled',
    ),
  ]);
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

/** `npm run build`: the app, then npm start's processes. */
export async function build(root: string): Promise<void> {
  buildApp(root);
  await buildProcesses(root);
}

export async function ensureBuild(root: string): Promise<void> {
  if (!buildIsStale(root)) return;
  console.log('Building the app...');
  await build(root);
}
