// npm start as a person runs it: a child process, judged by what it prints and what it leaves behind.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '#scripts/local/net';
import { isRunning } from './local/child-process';

/** Pids of DynamoDB Local processes listening on `port` (its command line names the port). */
function dynamoDbProcesses(port: number): number[] {
  return readdirSync('/proc').flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      const at = args.indexOf('-port');
      const isOurs =
        args.some((arg) => arg.endsWith('DynamoDBLocal.jar')) && args[at + 1] === String(port);
      return isOurs ? [Number(entry)] : [];
    } catch {
      return []; // Gone while we looked.
    }
  });
}

/** The command lines of the processes whose parent is `pid`. */
function childrenOf(pid: number): { pid: number; command: string }[] {
  return readdirSync('/proc').flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      // The parent's pid is the 4th field of stat, after the name in brackets.
      const parent = Number(
        readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.split(' ')[1],
      );
      if (parent !== pid) return [];
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ');
      return [{ pid: Number(entry), command }];
    } catch {
      return []; // Gone while we looked.
    }
  });
}

const APP_PROCESSES = [/web-server\.js/, /local\/worker\.js/, /local\/schedules\.js/];

type Run = {
  pid: number;
  output: () => string;
  exited: Promise<number | null>;
  stop: (signal?: NodeJS.Signals) => void;
};

function startRuntime(args: string[], env: Record<string, string>): Run {
  // One process (no npx or tsx wrapper between), so the signal reaches the runtime itself.
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'scripts/start.ts', '--ephemeral', ...args],
    {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const run: Run = {
    pid: child.pid!,
    output: () => output,
    exited,
    stop: (signal = 'SIGTERM') => child.kill(signal),
  };
  runs.push(run);
  return run;
}

const runs: Run[] = [];
const occupied: Server[] = [];
const dynamoPorts: number[] = [];
afterEach(() => {
  // A run a failed test left going is stopped, children and all.
  for (const run of runs.splice(0)) run.stop('SIGKILL');
  for (const server of occupied.splice(0)) server.close();
  // Whatever a failing run left behind is ours to end, by its pid.
  for (const port of dynamoPorts.splice(0)) {
    for (const pid of dynamoDbProcesses(port)) process.kill(pid, 'SIGKILL');
  }
});

async function occupy(): Promise<number> {
  const server = createServer();
  occupied.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

describe('npm start', () => {
  it('names the taken fixture-feed port and its setting, and leaves no DynamoDB Local behind', async () => {
    const [feedPort, webPort, dynamoPort] = [await occupy(), await freePort(), await freePort()];
    dynamoPorts.push(dynamoPort);
    const run = startRuntime(['--port', String(webPort), '--dynamo-port', String(dynamoPort)], {
      FIXTURE_FEEDS_PORT: String(feedPort),
    });
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain(
      `Port ${feedPort} is taken, so the fixture feeds cannot start. Stop whatever uses it, or choose another port with FIXTURE_FEEDS_PORT.`,
    );
    expect(dynamoDbProcesses(dynamoPort)).toEqual([]);
  }, 90_000);

  async function started(run: Run) {
    const deadline = Date.now() + 170_000;
    while (!run.output().includes('Press Ctrl-C to stop.')) {
      if (Date.now() > deadline) throw new Error(`Did not start:\n${run.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  it('runs the app, the worker and the schedules in processes of their own, and stops every child on SIGTERM', async () => {
    const [webPort, dynamoPort] = [await freePort(), await freePort()];
    dynamoPorts.push(dynamoPort);
    const run = startRuntime(
      ['--schedules', '--port', String(webPort), '--dynamo-port', String(dynamoPort)],
      { FIXTURE_FEEDS_PORT: '' },
    );
    await started(run);
    expect(run.output()).toContain('schedules: import-articles "0 * * * *"');
    expect((await fetch(`http://127.0.0.1:${webPort}/healthz`)).status).toBe(200);
    expect(dynamoDbProcesses(dynamoPort)).toHaveLength(1);
    const children = childrenOf(run.pid);
    const app = APP_PROCESSES.map((name) => children.filter((child) => name.test(child.command)));
    expect(app.map((found) => found.length)).toEqual([1, 1, 1]);
    // Each runs compiled JavaScript with plain Node, as on Lambda.
    expect(app.flat().filter((child) => child.command.includes('tsx'))).toEqual([]);
    run.stop();
    expect(await run.exited).toBe(0);
    expect(dynamoDbProcesses(dynamoPort)).toEqual([]);
    // (A runtime killed outright leaves none behind either: scripts/local/child-process.test.ts.)
    expect(app.flat().filter((child) => isRunning(child.pid))).toEqual([]);
  }, 180_000);
});
