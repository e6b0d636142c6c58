// The processes `npm start` runs as AWS runs them apart: the web server, the jobs worker and the
// schedules. Each is started with an IPC channel, tells its parent when it is ready, and ends
// itself when that channel closes, so a parent killed without a chance to stop them (SIGKILL)
// leaves no orphan behind.
import { spawn, type ChildProcess } from 'node:child_process';

/** How long a child has to stop after SIGTERM before it is killed. */
const STOP_GRACE_MS = 10_000;
/** How long a child has to say it is ready (loading its bundle on a busy machine takes seconds). */
export const START_DEADLINE_MS = 120_000;

type ChildMessage = { ready?: true; failed?: { message: string; code?: string } };

export type Child = {
  name: string;
  process: ChildProcess;
  /** SIGTERM, then SIGKILL after the grace period; resolves once the process has exited. */
  stop: () => Promise<void>;
};

/**
 * Starts `args` (run with this Node) as a child that inherits stdout and stderr; resolves once it
 * sends `{ ready: true }`, rejects with the error it reports, if it exits first, or if it is not
 * ready within `startDeadlineMs` (it is killed then). `onExit` hears of an exit nobody asked for.
 */
export function startChild(options: {
  name: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  onExit: (code: number | null, signal: NodeJS.Signals | null) => void;
  startDeadlineMs?: number;
}): Promise<Child> {
  const deadlineMs = options.startDeadlineMs ?? START_DEADLINE_MS;
  const child = spawn(process.execPath, options.args, {
    env: options.env,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let stopping = false;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    stopping = true;
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(killer);
  };
  return new Promise((resolve, reject) => {
    const early = (code: number | null, signal: NodeJS.Signals | null) =>
      reject(
        new Error(`The ${options.name} stopped while starting (${signal ?? `exit ${code}`}).`),
      );
    const late = setTimeout(() => {
      child.off('close', early);
      child.kill('SIGKILL');
      reject(
        new Error(
          `The ${options.name} was not ready within ${deadlineMs / 1000} s, so it was stopped.`,
        ),
      );
    }, deadlineMs);
    // 'close', not 'exit': it comes after every message the child sent, such as its failure.
    child.once('close', early);
    child.once('close', () => clearTimeout(late));
    child.once('error', reject);
    child.on('message', (message: ChildMessage) => {
      clearTimeout(late);
      if (message.failed) {
        child.off('close', early);
        return reject(Object.assign(new Error(message.failed.message), message.failed));
      }
      if (!message.ready) return;
      child.off('close', early);
      child.once('exit', (code, signal) => {
        if (!stopping) options.onExit(code, signal);
      });
      resolve({ name: options.name, process: child, stop });
    });
  });
}

/**
 * In a child: tells the parent it is ready, and runs `stop` on SIGTERM, SIGINT, SIGHUP or the
 * parent's end (the IPC channel closing), then exits; after STOP_GRACE_MS it exits regardless. Without a parent it only handles the signals.
 */
export function serveAsChild(stop: () => Promise<unknown>): void {
  let stopping: Promise<unknown> | undefined;
  const end = () => {
    // A stop that hangs (a job that does not end) must not outlive the runtime for long.
    setTimeout(() => process.exit(1), STOP_GRACE_MS).unref();
    stopping ??= Promise.resolve()
      .then(stop)
      .catch((error: unknown) => console.error('While stopping:', error))
      .finally(() => process.exit(0));
  };
  process.on('SIGTERM', end);
  process.on('SIGINT', end);
  process.on('SIGHUP', end);
  if (process.send) {
    process.on('disconnect', end);
    process.send({ ready: true });
  }
}

/**
 * In a child: reports why it could not start (e.g. its port is taken) to the parent and exits
 * once the report is on its way; the promise never settles.
 */
export function failStarting(error: unknown): Promise<never> {
  const { message, code } = error as { message?: string; code?: string };
  const failed: ChildMessage['failed'] = { message: message ?? String(error), code };
  if (!process.send) {
    console.error(error);
    process.exit(1);
  }
  process.send({ failed } satisfies ChildMessage, () => process.exit(1));
  return new Promise(() => {});
}

/** Whether a process of this id is alive (signal 0 checks without sending anything). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
