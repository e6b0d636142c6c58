// Sets up what a fresh machine lacks before `npm start` or `npm test` (plain Node: it runs
// before dependencies exist). Installs npm packages when missing or stale and applies our patches
// of them (patches/, also the `postinstall` script, which an npm that skips install scripts does
// not run); with --test also the
// system Chromium and Java the tests need (via apt when running as root, else it says how), and
// SST's platform code (`sst install`, offline apart from npm) that the type-check and the deploy
// proof read from .sst/platform.
import { execSync, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const forTests = process.argv.includes('--test');

function ensureNodeModules() {
  const lock = join(root, 'package-lock.json');
  const installed = join(root, 'node_modules', '.package-lock.json');
  const stale =
    !existsSync(installed) ||
    (existsSync(lock) && statSync(lock).mtimeMs > statSync(installed).mtimeMs);
  if (!stale) return;
  console.log('Installing npm dependencies...');
  execSync(existsSync(lock) ? 'npm ci --no-audit --no-fund' : 'npm install --no-audit --no-fund', {
    cwd: root,
    stdio: 'inherit',
  });
}

/** Applies patches/ to node_modules; one already applied is left as it is. */
function applyPatches() {
  execSync(`"${process.execPath}" node_modules/patch-package/index.js --error-on-fail`, {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

const has = (command, args) => spawnSync(command, args, { stdio: 'ignore' }).status === 0;
const isRoot = process.getuid?.() === 0;

function ensureSystemPackage(name, present, aptPackages) {
  if (present()) return;
  const command = `apt-get update && apt-get install -y --no-install-recommends ${aptPackages}`;
  if (isRoot && has('apt-get', ['--version'])) {
    console.log(`Installing ${name}...`);
    execSync(command, {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (present()) return;
  }
  console.error(`${name} is needed and was not found. Install it with:\n\n  sudo ${command}\n`);
  process.exit(1);
}

/** The same command as .ci/run: installs the pinned providers; downloads neither Pulumi nor Bun. */
function ensureSstPlatform() {
  if (existsSync(join(root, '.sst', 'platform', 'config.d.ts'))) return;
  console.log('Installing SST platform code (sst install)...');
  execSync('npx sst install', {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      SST_NO_BUN: '1',
      SST_STAGE: 'dev',
      SST_SKIP_DEPENDENCY_CHECK: '1',
      SST_TELEMETRY_DISABLED: '1',
    },
  });
}

ensureNodeModules();
applyPatches();
if (forTests) {
  ensureSstPlatform();
  ensureSystemPackage(
    'Java 17+ (for DynamoDB Local)',
    () => has('java', ['-version']),
    'openjdk-17-jre-headless',
  );
  ensureSystemPackage(
    'Chromium (for Lighthouse)',
    () => existsSync('/usr/bin/chromium'),
    'chromium',
  );
  ensureSystemPackage(
    "Chromium's headless shell (for the Playwright journeys)",
    () => existsSync('/usr/bin/chromium-headless-shell'),
    'chromium-headless-shell',
  );
}
