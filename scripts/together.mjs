// Runs npm scripts at once and fails if any of them does. npm test runs its checks this way (lint,
// the two type-checks and the build: each mostly one thread, so on two cores together they take
// about as long as the longest alone), and the deploy proof beside the journeys, which leave a
// core idle while they wait on the app. Each script's output is printed whole when it ends, but
// that of the one named by --live, which is printed as it comes.
import { spawn } from 'node:child_process';

const args = process.argv.slice(2);
const live = args[0] === '--live' ? args[1] : undefined;
const scripts = live ? args.slice(2) : args;

function run(script) {
  const started = Date.now();
  return new Promise((resolve) => {
    const streamed = script === live;
    const child = spawn('npm', ['run', '--silent', script], {
      stdio: ['ignore', streamed ? 'inherit' : 'pipe', streamed ? 'inherit' : 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      const seconds = Math.round((Date.now() - started) / 1000);
      const verdict = code === 0 ? 'passed' : `failed (exit ${code})`;
      process.stdout.write(`${output}${output && !output.endsWith('\n') ? '\n' : ''}`);
      console.log(`npm run ${script}: ${verdict} in ${seconds} s\n`);
      resolve(code === 0);
    });
  });
}

const passed = await Promise.all(scripts.map(run));
process.exit(passed.every(Boolean) ? 0 : 1);
