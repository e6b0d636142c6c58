// npm start as a person runs it: a child process, judged by what it prints and what it leaves behind.
// How a started runtime's processes run and stop is proven by the restart sweep
// (tests/sweeps/restart.test.ts), which starts one anyway.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '#scripts/local/net';
import { dynamoDbProcesses } from '#tests/integration/processes';

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
});
