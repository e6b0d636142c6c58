// npm run bench:suite (issue 35, item 5): where npm test's time goes. Runs its phases one after
// another, as npm test does, and prints for each its wall time, the CPU time the whole machine
// spent meanwhile (from /proc/stat: every process, ours and the engines'), and the share of the
// cores left idle. A phase that leaves no core idle is bound by this machine's CPU: it gets shorter
// only by doing less work, not by running more at once. Meaningful only on a machine doing nothing
// else (the load average before and after is printed to show it). Each phase prints as npm test does.
//   BENCH_PHASES=checks,test:unit,deploy:proof,test:e2e   the npm scripts to run, in order
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';

type CpuTimes = { busy: number; idle: number };

/** Seconds of CPU the machine has spent busy and idle since boot, over all cores. */
function machineCpu(): CpuTimes {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fields.map(Number) as number[];
  const ticksPerSecond = 100; // USER_HZ, 100 on every Linux this runs on
  return {
    busy: (user! + nice! + system! + irq! + softirq! + steal!) / ticksPerSecond,
    idle: (idle! + iowait!) / ticksPerSecond,
  };
}

function run(script: string): Promise<number> {
  return new Promise((done) => {
    const child = spawn('npm', ['run', '--silent', script], {
      stdio: 'inherit',
      env: { ...process.env, CI: '1' },
    });
    child.on('close', (code) => done(code ?? 1));
  });
}

const phases = (process.env.BENCH_PHASES ?? 'checks,test:unit,deploy:proof,test:e2e').split(',');
const cores = cpus().length;
const rows: string[] = [];
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
console.log(`${cores} cores; load average before: ${load()}`);
let failed = false;
for (const phase of phases) {
  const started = performance.now();
  const before = machineCpu();
  const code = await run(phase);
  const after = machineCpu();
  const wall = (performance.now() - started) / 1000;
  const busy = after.busy - before.busy;
  const idle = after.idle - before.idle;
  failed ||= code !== 0;
  rows.push(
    `| ${phase} | ${code === 0 ? 'passed' : `failed (${code})`} | ${wall.toFixed(0)} | ${busy.toFixed(0)} | ${(busy / wall).toFixed(2)} | ${((100 * idle) / (busy + idle)).toFixed(0)}% | ${(busy / cores).toFixed(0)} |`,
  );
}
console.log(`load average after: ${load()}\n`);
console.log(
  '| phase | result | wall s | machine CPU s | cores busy on average | idle share | wall floor at full use s |',
);
console.log('|---|---|--:|--:|--:|--:|--:|');
for (const row of rows) console.log(row);
process.exit(failed ? 1 : 0);
