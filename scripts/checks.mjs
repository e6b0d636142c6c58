// npm test's first step: lint, type-check (the app and the stacks apart) and build at once. Each is
// mostly one thread, so on two cores together they take about as long as the longest alone. Each
// one's output is printed whole when it ends, and the step fails if any of them does.
import { spawn } from 'node:child_process';

const SCRIPTS = ['lint', 'typecheck:app', 'typecheck:stacks', 'build'];

function run(script) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      const seconds = Math.round((Date.now() - started) / 1000);
      const verdict = code === 0 ? 'passed' : `failed (exit ${code})`;
      process.stdout.write(`${output}${output && !output.endsWith('\n') ? '\n' : ''}`);
      console.log(`npm run ${script}: ${verdict} in ${seconds} s\n`);
      resolve(code === 0);
    });
  });
}

const passed = await Promise.all(SCRIPTS.map(run));
process.exit(passed.every(Boolean) ? 0 : 1);
