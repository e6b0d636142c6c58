// The app processes of npm start: ready when they say so, a start failure reported with its
// reason, an exit nobody asked for heard, and no child left behind by a parent killed outright.
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startChild } from './child-process';

const MODULE = fileURLToPath(new URL('./child-process.ts', import.meta.url));

/** Node arguments running `code` as an ES module with tsx (so it can import our TypeScript). */
const script = (code: string) => ['--import', 'tsx', '--input-type=module', '-e', code];

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function waitUntil(check: () => boolean, what: string) {
  const deadline = Date.now() + 15_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const SERVING = `import { serveAsChild } from ${JSON.stringify(MODULE)};
serveAsChild(async () => {});
setInterval(() => {}, 1_000);`;

describe('app processes', () => {
  it('is ready when the child says so, and stops it on request', async () => {
    const exits: unknown[] = [];
    const child = await startChild({
      name: 'test child',
      args: script(SERVING),
      env: process.env,
      onExit: (...exit) => exits.push(exit),
    });
    expect(isRunning(child.process.pid!)).toBe(true);
    await child.stop();
    expect(child.process.exitCode).toBe(0);
    expect(exits).toEqual([]);
  });

  it('rejects with the reason a child could not start for', async () => {
    const failing = `import { failStarting } from ${JSON.stringify(MODULE)};
await failStarting(Object.assign(new Error('listen EADDRINUSE: address already in use'), { code: 'EADDRINUSE' }));`;
    await expect(
      startChild({ name: 'test child', args: script(failing), env: process.env, onExit: () => {} }),
    ).rejects.toMatchObject({ code: 'EADDRINUSE', message: expect.stringContaining('in use') });
  });

  it('stops a child that never says it is ready, and says so', async () => {
    const marker = `silent-child-${process.pid}-${Date.now()}`;
    const running = () =>
      spawnSync('pgrep', ['-f', marker], { encoding: 'utf8' }).stdout.trim() !== '';
    const started = startChild({
      name: 'silent child',
      args: script(`setInterval(() => {}, 1_000); // ${marker}`),
      env: process.env,
      onExit: () => {},
      startDeadlineMs: 1_500,
    });
    await waitUntil(running, 'the silent child runs');
    await expect(started).rejects.toThrowError(
      'The silent child was not ready within 1.5 s, so it was stopped.',
    );
    await waitUntil(() => !running(), 'the silent child is gone');
  });

  it('hears of an exit nobody asked for', async () => {
    const dying = `import { serveAsChild } from ${JSON.stringify(MODULE)};
serveAsChild(async () => {});
setTimeout(() => process.exit(3), 200);`;
    const exited = new Promise((resolve) => {
      void startChild({
        name: 'test child',
        args: script(dying),
        env: process.env,
        onExit: (code) => resolve(code),
      });
    });
    expect(await exited).toBe(3);
  });

  it('leaves no child behind when the parent is killed outright', async () => {
    const parentCode = `import { startChild } from ${JSON.stringify(MODULE)};
const child = await startChild({ name: 'child', args: ${JSON.stringify(script(SERVING))}, env: process.env, onExit: () => {} });
console.log('child ' + child.process.pid);
setInterval(() => {}, 1_000);`;
    const parent = spawn(process.execPath, script(parentCode), {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const childPid = await new Promise<number>((resolve) => {
      parent.stdout.on('data', (chunk: Buffer) => {
        const found = /child (\d+)/.exec(chunk.toString());
        if (found) resolve(Number(found[1]));
      });
    });
    expect(isRunning(childPid)).toBe(true);
    parent.kill('SIGKILL');
    await waitUntil(() => !isRunning(childPid), 'the child ended itself');
  });
});
