// npm start stopped with SIGTERM while a job runs, then started again on the same data, as the
// attack review did it (issue 32, item 6): the real scripts/start.ts with kept data in a folder of
// its own, an admin signed in through the sign-in form, a scoring run queued through Content
// Automations and stopped mid-way. The next start takes the run over at once (its worker is known
// to be gone) instead of leaving every action disabled until the run's heartbeat is 5 minutes old,
// says what its own start-up job waits for, and a new run can be started within a short bound.
// The first start also shows how npm start runs: the app, the worker and the schedules in
// processes of their own with plain Node, and a SIGTERM that stops every child and DynamoDB Local.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFeedServer, type FeedServer } from '#tests/fakes/feed-server';
import { isRunning } from '#scripts/local/child-process';
import { freePort } from '#scripts/local/net';
import { APP_PROCESSES, childrenOf, dynamoDbProcesses } from '#tests/integration/processes';

const ADMIN = { userName: 'admin', password: 'restart-admin-password-0123' };
/** What the tests' own setup sets (tests/integration/setup.ts), which npm start sets for itself. */
const TEST_SETTINGS = [
  'NODE_ENV',
  'TABLE_NAME',
  'APP_SECRET',
  'DYNAMODB_ENDPOINT',
  'SQS_ENDPOINT',
  'JOBS_QUEUE_URL',
  'SMTP_URL',
  'MAIL_DIR',
  'SEND_RATE',
  'FEED_FETCH_ALLOW',
  'MODEL_FETCH_ALLOW',
];
/** Generous: a first start seeds the demo data and sends the demo issue, on 2 busy cores. */
const START_MS = 300_000;
/**
 * How soon after the restart every action is enabled again: the rest of the stopped run and its
 * readers' feed builds included, on 2 busy cores (about 1 minute at a load of 20).
 */
const RECOVERY_MS = 240_000;
/** New stories for the stream added: enough scoring chunks that a stop leaves some undone. */
const NEW_STORIES = 80;

type ProcessView = {
  name: string;
  chunksTotal?: number;
  chunksDone?: number;
  silent?: unknown;
};

type Run = {
  pid: number;
  output: () => string;
  exited: Promise<number | null>;
  stop: () => void;
};

let dataDir: string;
let feeds: FeedServer;
let ports: { web: number; dynamo: number; fixtureFeeds: number };
let origin: string;
const runs: Run[] = [];

/** `npm start` with kept data in `dataDir`, as a person runs it (one process, no npx between). */
function startRuntime(): Run {
  const env = { ...process.env };
  for (const name of TEST_SETTINGS) delete env[name];
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'scripts/start.ts',
      '--data-dir',
      dataDir,
      '--port',
      String(ports.web),
      '--dynamo-port',
      String(ports.dynamo),
    ],
    {
      env: {
        ...env,
        FIXTURE_FEEDS_PORT: String(ports.fixtureFeeds),
        // This test's own feed, beside the fixture feeds npm start allows itself.
        FEED_FETCH_ALLOW: new URL(feeds.origin).host,
        ADMIN_USERNAME: ADMIN.userName,
        ADMIN_PASSWORD: ADMIN.password,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const run = {
    pid: child.pid!,
    output: () => output,
    exited,
    stop: () => void child.kill('SIGTERM'),
  };
  runs.push(run);
  return run;
}

/** The lines npm start printed itself (the app's JSON log lines left out). */
const printed = (run: Run) =>
  run
    .output()
    .split('\n')
    .filter((line) => !line.startsWith('{'))
    .join('\n');

async function until<T>(
  what: () => string,
  timeoutMs: number,
  check: () => Promise<T | undefined> | T | undefined,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`Not within ${timeoutMs / 1000} s: ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

/** Waits for npm start's ready line; a start that ends first fails at once, with what it said. */
async function started(run: Run) {
  let ended = false;
  void run.exited.then(() => (ended = true));
  await until(
    () => `npm start is ready\n${run.output()}`,
    START_MS,
    () => {
      if (ended) throw new Error(`npm start ended while starting:\n${run.output()}`);
      return run.output().includes('Press Ctrl-C to stop.') ? true : undefined;
    },
  );
}

/** Signs the admin in through the sign-in form; answers the cookies a browser sends back. */
async function signIn(): Promise<string> {
  const response = await fetch(`${origin}/admin-panel/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { Origin: origin, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(ADMIN).toString(),
  });
  expect(response.status).toBe(302);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

/** The active processes, as the admin pages poll them. */
async function active(cookie: string): Promise<ProcessView[]> {
  const response = await fetch(`${origin}/admin-panel/status`, { headers: { Cookie: cookie } });
  expect(response.status).toBe(200);
  return ((await response.json()) as { processes: ProcessView[] }).processes;
}

/** A Content Automations action, as its form posts it; answers the page it renders. */
async function automation(cookie: string, fields: Record<string, string>): Promise<string> {
  const response = await fetch(`${origin}/admin-panel/content-automations`, {
    method: 'POST',
    headers: {
      Cookie: cookie,
      Origin: origin,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(fields).toString(),
  });
  expect(response.status).toBe(200);
  return response.text();
}

const idle = (cookie: string, timeoutMs: number) =>
  until(
    () => 'no process is active',
    timeoutMs,
    async () => ((await active(cookie)).length === 0 ? true : undefined),
  );

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'cluefeed-restart-'));
  feeds = await startFeedServer();
  const [web, dynamo, fixtureFeeds] = [await freePort(), await freePort(), await freePort()];
  ports = { web, dynamo, fixtureFeeds };
  origin = `http://127.0.0.1:${web}`;
});
afterAll(async () => {
  // A run a failed test left going is stopped, DynamoDB Local included, before its folder goes.
  for (const run of runs) run.stop();
  await Promise.all(runs.map((run) => run.exited));
  await feeds?.stop();
  rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

describe('npm start after a SIGTERM in the middle of a job', () => {
  it('runs its processes apart, stops them all on SIGTERM, then takes the stopped run over at once, says what waits for it, and enables the actions again', async () => {
    const first = startRuntime();
    await started(first);
    // Kept data runs the schedules; the app's three processes run compiled JavaScript with plain
    // Node, as on Lambda.
    expect(printed(first)).toContain('schedules: import-articles "0 * * * *"');
    expect((await fetch(`${origin}/healthz`)).status).toBe(200);
    expect(dynamoDbProcesses(ports.dynamo)).toHaveLength(1);
    const children = childrenOf(first.pid);
    const app = APP_PROCESSES.map((name) => children.filter((child) => name.test(child.command)));
    expect(app.map((found) => found.length)).toEqual([1, 1, 1]);
    expect(app.flat().filter((child) => child.command.includes('tsx'))).toEqual([]);
    let cookie = await signIn();
    // The first start's own jobs (the demo issue, the analytics roll-up) end first.
    await idle(cookie, START_MS);

    const page = await automation(cookie, {
      intent: 'add-stream',
      streamName: 'Restart Wire',
      streamUrl: feeds.addGenerated(1, NEW_STORIES)[0]!,
    });
    expect(page).toContain('Successfully triggered add stream and import articles');
    // The import queues the scoring of its new stories, planned in chunks: stopped once planned.
    await until(
      () => 'a scoring run is under way',
      120_000,
      async () =>
        (await active(cookie)).find(
          (run) =>
            run.name === 'score-articles' &&
            run.chunksTotal !== undefined &&
            (run.chunksDone ?? 0) < run.chunksTotal,
        ),
    );
    first.stop();
    expect(await first.exited).toBe(0);
    // A SIGTERM stops every child and DynamoDB Local (a runtime killed outright leaves none behind
    // either: scripts/local/child-process.test.ts).
    expect(dynamoDbProcesses(ports.dynamo)).toEqual([]);
    expect(app.flat().filter((child) => isRunning(child.pid))).toEqual([]);

    const second = startRuntime();
    await started(second);
    const restartedAt = Date.now();
    // Its start-up job shares the scoring run's slot: the start names what it waits for.
    expect(printed(second)).toContain(
      `Moving scores to the new keys waits for Scoring articles (running since `,
    );
    expect(printed(second)).not.toContain('waits: A process is still running');

    cookie = await signIn();
    await until(
      () => 'every action is enabled again',
      RECOVERY_MS,
      async () => {
        const now = await active(cookie);
        // While chunks of the stopped run remain, the notice must not say it waits for its
        // dead worker (and a takeover minutes away): this start has them running again.
        const waiting = now.filter(
          (run) => run.silent && (run.chunksDone ?? 0) < (run.chunksTotal ?? 0),
        );
        expect(waiting).toEqual([]);
        return now.length === 0 ? true : undefined;
      },
    );
    expect(Date.now() - restartedAt).toBeLessThan(RECOVERY_MS);
    // The stop came mid-run, and this start took the run over at once.
    expect(printed(second)).toContain(
      'Scoring articles was stopped with the last run: its remaining chunks run again.',
    );
    const after = await fetch(`${origin}/admin-panel/content-automations`, {
      headers: { Cookie: cookie },
    });
    const html = await after.text();
    expect(html).not.toContain('Actions are disabled while these processes run');
    expect(html).not.toMatch(/<button type="submit" class="button"[^>]* disabled/);

    expect(await automation(cookie, { intent: 'score' })).toContain(
      'Successfully triggered article scoring',
    );
    second.stop();
    expect(await second.exited).toBe(0);
  }, 1_200_000);
});
