// Kill points: a daily issue goes to 500 confirmed subscribers while the worker, a process of its
// own (scripts/local/worker-process.ts, compiled as npm start runs it), is killed with SIGKILL at
// 20 random moments and started again each time. At 2 of them the SMTP sink, a process of its own
// too, is killed instead and started again on the same port; at 2 others DynamoDB Local (this
// file's own, keeping its data in files on tmpfs) is killed under the live worker and started
// again on its port and data, and then the worker is killed too. Every subscriber must end with
// one message (every copy of it with the same Message-ID), a sent Delivery naming it, and the
// issue must count 500 sent. A second copy is allowed only where a kill fell between the sink's
// acceptance of the first copy and the second, with no settle of that e-mail logged before the
// second: both moments are logged (the sink's line before each 250, the worker's 'E-mail sent'
// or 'E-mails sent' after each settle).
//
// The file has a DynamoDB Local, a table, a queue and an SMTP sink of its own, so every count is
// exact and the database can die without taking other files' tests with it. The queue has npm
// start's settings (scripts/local/jobs.ts: a dead-letter queue after 5 receives) with the
// visibility timeout scaled down to 2 s, so a dead worker's messages come back in seconds. A
// restarted worker runs with its clock moved on past every lease (core/jobs' chunk lease, the
// outbox's send lease), as if the recovery schedule had started it once those ended; the
// recovery calls here pass the same time. Only the killed workers send: the recovery here queues
// what is due, as the schedule does.
//
// There is no deadline but the test's: the send may take as long as it keeps moving (a loaded
// machine sends slowly, and an e-mail retried after the sink died waits its back-off). It fails
// once nothing has moved for STUCK_MS past any retry that was due, saying where the send stands
// (the run, its chunks, what is on its way, both queues) and what the test did until then.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import {
  CreateQueueCommand,
  DeleteQueueCommand,
  GetQueueAttributesCommand,
} from '@aws-sdk/client-sqs';
import { decodeTime, ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { config } from '#core/config';
import * as Jobs from '#core/jobs';
import * as Newsletter from '#core/newsletter';
import * as Outbox from '#core/outbox';
import * as Subscribers from '#core/subscribers';
import { bundleProcesses, PROCESSES } from '#scripts/local/build';
import { startDynamoDb, type LocalDynamoDb } from '#scripts/local/dynamodb';
import { queueAttributes } from '#scripts/local/jobs';
import { freePort } from '#scripts/local/net';
import { startSinkProcess, type Accepted, type SinkProcess } from '#scripts/local/smtp-sink';
import { dailyWorld } from '#tests/integration/newsletter-world';
import { useOwnTable } from '#tests/integration/own-table';
import { sqs } from '../../core/jobs/queue';
import { isRunning } from '#scripts/local/child-process';

useOwnTable('kill-points');

const SUBSCRIBERS = 500;
const KILLS = 20;
/** Of the kills, how many also kill the SMTP sink (it is started again after SINK_DOWN_MS). */
const SINK_KILLS = 2;
const SINK_DOWN_MS = 300;
/**
 * Of the worker kills, how many come after DynamoDB Local was killed under the live worker (it is
 * started again on its data after DATABASE_DOWN_MS; the worker's writes fail meanwhile).
 */
const DATABASE_KILLS = 2;
const DATABASE_DOWN_MS = 300;
/**
 * The send's progress is counted in steps (an e-mail queued, a copy accepted, a Delivery settled:
 * three per subscriber); each kill comes at a random step, so a slow machine is killed as often
 * mid-send as a fast one, then after a random few milliseconds more.
 */
const STEPS = 3 * SUBSCRIBERS;
const JITTER_MS = 150;
/** 'Send newsletters' presses at most, should a run end Failed after its chunks ran out of attempts. */
const MAX_PRESSES = 6;
/** No progress for this long: the test runs the recovery schedule's work. */
const STALL_MS = 15_000;
/**
 * Nothing of the send has moved for this long, though the recovery schedule's work ran, and no
 * retry came due meanwhile: it is stuck. A step takes seconds even on 2 overloaded cores, so
 * this fails only what would never end, however slow the machine.
 */
const STUCK_MS = 60_000;
/** The recovery schedule's work runs at most this often while the queue is idle. */
const RECOVER_EVERY_MS = 1_000;
/** How often the test looks at the send while it waits (two reads of the table). */
const LOOK_EVERY_MS = 100;
/** Every restart moves the worker's clock on by more than the longest lease. */
const LEASES_ENDED_MS =
  Math.max(Jobs.CHUNK_LEASE_MS, Jobs.STALE_AFTER_MS, Outbox.LEASE_MS) + 60_000;
const ROOT = join(import.meta.dirname, '..', '..');
/**
 * The worker compiled from this checkout's sources for this file alone (a second), so it is never
 * a stale build's, and outside build/, which a build another test starts empties.
 */
const WORKER_DIR = join('.cache', 'test', `kill-points-${process.pid}`);
const WORKER = join(WORKER_DIR, 'worker.js');

const settings = config() as {
  JOBS_QUEUE_URL?: string;
  EMAIL_QUEUE_URL?: string;
  TABLE_NAME: string;
  MAIL_FROM: string;
  DYNAMODB_ENDPOINT?: string;
};
// DynamoDB Local of this file's own, keeping its data in files so it can be killed and started
// again. It starts as the file loads, before anything of core opens a connection (the setup
// file's first hook does), so no hook of this file may run to stop it (a name filter skips them
// all): it ends with this process (scripts/local/dynamodb.ts), and a run's folder, named after
// its process, is removed by the next run once that process is gone. On tmpfs where there is
// one: a file survives the process's death without a disk's fsync on every write (which doubled
// the test's time).
const DATABASE_PARENT = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
const DATABASE_PREFIX = 'cluefeed-kill-points-db-';
for (const name of readdirSync(DATABASE_PARENT)) {
  const pid = Number(name.slice(DATABASE_PREFIX.length));
  if (name.startsWith(DATABASE_PREFIX) && !isRunning(pid))
    rmSync(join(DATABASE_PARENT, name), { recursive: true, force: true });
}
const databaseDir = join(DATABASE_PARENT, `${DATABASE_PREFIX}${process.pid}`);
let database: LocalDynamoDb = await startDynamoDb({ dataDir: databaseDir, port: await freePort() });
const sharedEndpoint = settings.DYNAMODB_ENDPOINT;
settings.DYNAMODB_ENDPOINT = database.endpoint;
let sharedQueueUrl: string | undefined;
let sharedEmailQueueUrl: string | undefined;
let queueUrl: string;
let dlqUrl: string;
let sink: SinkProcess;
let mailDir: string;
/** Every copy the sink accepted: recipient, Message-ID and the moment, just before its 250. */
const copies: { to: string; messageId: string; at: number }[] = [];
/** When each e-mail's settle as sent was first logged by a worker (outbound e-mail id -> ms). */
const settledAt = new Map<string, number>();
/** The moments of every kill, of a worker, the sink or the database. */
const killedAt: number[] = [];
/** Error lines the workers logged (a write refused while the database was down among them). */
const workerErrors: string[] = [];

const accepted = (message: Accepted) =>
  copies.push(...message.to.map((to) => ({ to, messageId: message.messageId, at: message.at })));
const startSink = (port?: number) => startSinkProcess({ dir: mailDir, port, onAccepted: accepted });

async function killSink() {
  const exited = new Promise((resolve) => sink.child.once('exit', resolve));
  sink.child.kill('SIGKILL');
  await exited;
  killedAt.push(Date.now());
}
const readers: Subscribers.Subscriber[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Worker = { child: ChildProcess; ahead: number; go(): void; ready: Promise<void> };

/**
 * A worker process, loaded but not polling until `go()`: the next one is loaded while the current
 * one runs, so a restart costs no start-up time. `ahead` is its clock's lead.
 */
function loadWorker(ahead: number): Worker {
  // Without the shared e-mail queue: the worker polls this file's one queue for both kinds.
  const { EMAIL_QUEUE_URL: _shared, ...environment } = process.env;
  const child = spawn(process.execPath, [WORKER], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: {
      ...environment,
      TABLE_NAME: settings.TABLE_NAME,
      DYNAMODB_ENDPOINT: database.endpoint,
      JOBS_QUEUE_URL: queueUrl,
      SMTP_URL: sink.url,
      SEND_RATE: '1000',
      WORKER_CLOCK_MS_AHEAD: String(ahead),
      WORKER_WAIT_FOR_GO: '1',
    },
  });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  });
  const ready = new Promise<void>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (line === 'worker ready') resolve();
      else if (line.includes('"level":"error"')) workerErrors.push(line);
      else if (line.includes('"E-mail sent"') || line.includes('"E-mails sent"')) {
        // One e-mail settled alone, or a group settled together.
        const { outboundEmailId, outboundEmailIds } = JSON.parse(line) as {
          outboundEmailId?: string;
          outboundEmailIds?: string[];
        };
        for (const id of outboundEmailIds ?? [outboundEmailId!])
          if (!settledAt.has(id)) settledAt.set(id, Date.now());
      }
    });
    child.once('exit', (code, signal) =>
      reject(new Error(`The worker exited (${code ?? signal}) before it was ready:\n${output}`)),
    );
  });
  ready.catch(() => undefined);
  return { child, ahead, ready, go: () => child.stdin!.write('go\n') };
}

/** DynamoDB Local dies (SIGKILL) and, DATABASE_DOWN_MS later, starts again on its port and data. */
async function killDatabase() {
  const exited = new Promise((resolve) => database.process.once('exit', resolve));
  database.process.kill('SIGKILL');
  await exited;
  killedAt.push(Date.now());
  await sleep(DATABASE_DOWN_MS);
  database = await startDynamoDb({
    dataDir: databaseDir,
    port: Number(new URL(database.endpoint).port),
  });
}

async function kill(worker: Worker) {
  if (worker.child.exitCode !== null || worker.child.signalCode !== null) return;
  const exited = new Promise((resolve) => worker.child.once('exit', resolve));
  worker.child.kill('SIGKILL');
  await exited;
  // Once it is dead: a copy it sent before can only have been accepted before this moment.
  killedAt.push(Date.now());
}

/** A queue's messages: waiting, in flight (being handled or held by a dead worker), delayed. */
async function depthOf(url: string) {
  const { Attributes = {} } = await sqs().send(
    new GetQueueAttributesCommand({
      QueueUrl: url,
      AttributeNames: [
        'ApproximateNumberOfMessages',
        'ApproximateNumberOfMessagesNotVisible',
        'ApproximateNumberOfMessagesDelayed',
      ],
    }),
  );
  return {
    waiting: Number(Attributes.ApproximateNumberOfMessages ?? 0),
    inFlight: Number(Attributes.ApproximateNumberOfMessagesNotVisible ?? 0),
    delayed: Number(Attributes.ApproximateNumberOfMessagesDelayed ?? 0),
  };
}

/**
 * No message waits and none is being handled: no worker is sending, so the recovery schedule's
 * work may run. A delayed message (an e-mail's retry) may still come; recovery leaves its e-mail
 * until it is due at the worker's time, and then only queues a message the claim decides on.
 */
async function queueIdle(): Promise<boolean> {
  const { waiting, inFlight } = await depthOf(queueUrl);
  return waiting + inFlight === 0;
}

/** Each kill, press and recovery, with when it happened: told when the test fails. */
const timeline: string[] = [];
let startedAt = Date.now();
const note = (line: string) =>
  timeline.push(`${((Date.now() - startedAt) / 1000).toFixed(1)} s: ${line}`);

/**
 * The recover-jobs schedule's work (functions/cron.ts), run as if once the leases of the worker
 * whose clock says `workerNow` had ended and its e-mails' messages had had time to come: chunks
 * and e-mails no message is coming for are queued again, and an issue whose last e-mail settled
 * as its sender died is closed.
 */
async function recover(workerNow: number) {
  const chunks = await Jobs.recover(workerNow + Outbox.LEASE_MS + 1);
  const emails = await Outbox.recoverDue({ at: workerNow + Outbox.LOST_AFTER_MS + 1 });
  const closed = await Newsletter.closeSettledIssues();
  if (chunks + emails.queued + emails.sending + closed > 0)
    note(
      `recovery: ${chunks} job message(s), ${emails.queued + emails.sending} e-mail(s) (${emails.sending} of them on an ended lease), ${closed} issue(s) closed`,
    );
}

type Email = Pick<Outbox.OutboundEmail, 'id' | 'status' | 'attempts' | 'nextAttemptAt'>;

/** The e-mails still on their way, queued or being sent. */
async function onTheirWay(): Promise<Email[]> {
  const found = await Promise.all(
    (['queued', 'sending'] as const).map((status) =>
      Outbox.OutboundEmailEntity.query
        .byStatus({ status })
        .go({ pages: 'all', attributes: ['id', 'status', 'attempts', 'nextAttemptAt'] }),
    ),
  );
  return found.flatMap(({ data }) => data);
}

/**
 * Where the send stands, for a failure's message: the run and its chunks, the issue's counts,
 * what is still on its way (the first few e-mails, with when each is due at the worker's time)
 * and both queues' depths.
 */
async function situation(issueId: string, processId: string, workerNow: number): Promise<string> {
  const [run, issue, emails, chunks, queue, dead] = await Promise.all([
    Jobs.byId(processId),
    Newsletter.issueById(issueId),
    onTheirWay(),
    Jobs.ProcessChunkEntity.query
      .byProcess({ processId })
      .go({ pages: 'all', attributes: ['status'] })
      .then(({ data }) => data),
    depthOf(queueUrl),
    depthOf(dlqUrl),
  ]);
  const chunkCounts = new Map<string, number>();
  for (const { status } of chunks) chunkCounts.set(status, (chunkCounts.get(status) ?? 0) + 1);
  const count = (status: Email['status']) =>
    emails.filter((email) => email.status === status).length;
  const dueIn = (email: Email) => Math.round((Date.parse(email.nextAttemptAt) - workerNow) / 1000);
  return [
    `run ${processId} ${run?.status}${run?.error ? ` (${run.error})` : ''}, chunks: ${[...chunkCounts].map(([status, n]) => `${n} ${status}`).join(', ') || 'none'}`,
    `issue ${issue?.status}: ${issue?.recipients ?? '?'} recipients, ${issue?.queued ?? 0} queued, ${issue?.sent ?? 0} sent, ${issue?.skipped ?? 0} skipped, ${issue?.failed ?? 0} failed`,
    `on their way: ${count('queued')} e-mail(s) queued, ${count('sending')} sending${emails
      .slice(0, 5)
      .map(
        (email) =>
          `; ${email.id} ${email.status} after ${email.attempts ?? 0} attempt(s), due in ${dueIn(email)} s`,
      )
      .join('')}`,
    `queue: ${queue.waiting} waiting, ${queue.inFlight} in flight, ${queue.delayed} delayed; dead-letter queue: ${dead.waiting + dead.inFlight + dead.delayed}`,
    `${copies.length} copies accepted, ${workerErrors.length} error lines from workers`,
  ].join('\n');
}

/** When the latest queued e-mail is due, at the clock of the worker that queued it (0 if none). */
async function latestRetry(): Promise<number> {
  const queued = (await onTheirWay()).filter(({ status }) => status === 'queued');
  return Math.max(0, ...queued.map(({ nextAttemptAt }) => Date.parse(nextAttemptAt)));
}

/**
 * The send as the test follows it: its steps so far (e-mails queued or settled, and copies the
 * sink accepted) and `moved`, which changes whenever anything of it moves.
 */
async function look(issueId: string, processId: string) {
  const [issue, run] = await Promise.all([Newsletter.issueById(issueId), Jobs.byId(processId)]);
  const { queued = 0, sent = 0, skipped = 0, failed = 0 } = issue ?? {};
  return {
    issue,
    run: run!,
    steps: queued + 2 * sent + copies.length,
    moved: [
      processId,
      run?.status,
      run?.chunksDone,
      run?.chunksFailed,
      issue?.status,
      queued,
      sent,
      skipped,
      failed,
      copies.length,
    ].join(' '),
  };
}

beforeAll(async () => {
  mailDir = await mkdtemp(join(tmpdir(), 'cluefeed-kill-points-'));
  await bundleProcesses(ROOT, { worker: PROCESSES.worker.entry }, WORKER_DIR, 'bundled');
  sink = await startSink();
  // npm start's queue and dead-letter queue, scaled down only through its settings.
  const name = `kill-points-${ulid().toLowerCase()}`;
  dlqUrl = (await sqs().send(new CreateQueueCommand({ QueueName: `${name}-dlq` }))).QueueUrl!;
  const { Attributes } = await sqs().send(
    new GetQueueAttributesCommand({ QueueUrl: dlqUrl, AttributeNames: ['QueueArn'] }),
  );
  const { QueueUrl } = await sqs().send(
    new CreateQueueCommand({
      QueueName: name,
      Attributes: queueAttributes(Attributes!.QueueArn!, { visibilityTimeoutSeconds: 2 }),
    }),
  );
  queueUrl = QueueUrl!;
  // Enqueue and recovery send to this file's queue.
  sharedQueueUrl = settings.JOBS_QUEUE_URL;
  settings.JOBS_QUEUE_URL = queueUrl;
  // E-mails too (and the send's chunks, which go where e-mails go): one queue, told apart by kind.
  sharedEmailQueueUrl = settings.EMAIL_QUEUE_URL;
  settings.EMAIL_QUEUE_URL = undefined;

  readers.push(...(await dailyWorld(SUBSCRIBERS)).readers);
  // Compiling the worker, starting the sink and writing 500 readers took 53 s on 2 cores that
  // other test runs kept busy: more than the default minute.
}, 180_000);

afterAll(async () => {
  settings.JOBS_QUEUE_URL = sharedQueueUrl;
  settings.EMAIL_QUEUE_URL = sharedEmailQueueUrl;
  settings.DYNAMODB_ENDPOINT = sharedEndpoint;
  const stopSink = async () => {
    if (!sink || sink.child.exitCode !== null || sink.child.signalCode !== null) return;
    const exited = new Promise((resolve) => sink.child.once('exit', resolve));
    sink.child.kill('SIGTERM');
    await exited;
  };
  // Each goes whether or not another failed; the first failure is the file's.
  const cleanups = await Promise.allSettled([
    database.stop().then(() => rm(databaseDir, { recursive: true, force: true })),
    stopSink().then(() => rm(mailDir, { recursive: true, force: true })),
    rm(join(ROOT, WORKER_DIR), { recursive: true, force: true }),
    ...[queueUrl, dlqUrl].map((url) =>
      sqs()
        .send(new DeleteQueueCommand({ QueueUrl: url }))
        .catch(() => undefined),
    ),
  ]);
  const failed = cleanups.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
});

describe('Sending an issue while the worker is killed', () => {
  it('leaves every one of 500 subscribers exactly one message, however often the worker dies', async () => {
    const press = async () => {
      const run = await Jobs.enqueue(Newsletter.sendNewsletters, { frequency: 'daily' }, 'a-1');
      note(`pressed 'Send newsletters': run ${run.id}`);
      return run;
    };
    startedAt = Date.now();
    const presses = [await press()];
    const issueId = Newsletter.periodIssueId('daily', decodeTime(presses[0]!.id));
    const processId = () => presses.at(-1)!.id;

    let kills = 0;
    /** Times nothing moved for STALL_MS and the recovery schedule's work ran. */
    let stalls = 0;
    let worker = loadWorker(0);
    const workers = [worker];
    const workerNow = () => Date.now() + worker.ahead;
    // Whatever failed it (an assertion, the timeout), the log says where the send stood.
    onTestFailed(async () => {
      const where = await situation(issueId, processId(), workerNow()).catch(
        (error: unknown) => `(where the send stands could not be read: ${String(error)})`,
      );
      console.log(`Kill points, as the test failed:\n${where}\n${timeline.join('\n')}`);
    });

    /** What the send looked like when it last moved, and since when it has not. */
    let still = { moved: '', since: Date.now() };
    /**
     * Fails, saying where the send stands, once nothing has moved for STUCK_MS counted from the
     * last movement or from the latest retry the outbox scheduled, whichever is later: that
     * retry's message is delayed until it is due.
     */
    const failIfStuck = async (moved: string) => {
      if (moved !== still.moved) still = { moved, since: Date.now() };
      if (Date.now() - still.since < STUCK_MS) return;
      const retry = (await latestRetry()) - worker.ahead;
      if (retry > still.since) {
        still.since = retry;
        return;
      }
      expect.fail(
        `Nothing moved for ${STUCK_MS / 1000} s (no retry was due meanwhile):\n${await situation(issueId, processId(), workerNow())}\n${timeline.join('\n')}`,
      );
    };
    /**
     * Follows the send until `done`. A run whose chunks died on each of their attempts ends
     * Failed: the operator presses again. What no message is coming for any more (a chunk or an
     * e-mail a kill left between its write and its message, or whose message went to the
     * dead-letter queue) is the recovery schedule's: it runs at the worker's time plus an ended
     * lease whenever no worker is sending (while the kills go on, only once the run succeeded:
     * `whenIdle`), and whenever nothing has moved for STALL_MS.
     */
    const follow = async (
      done: (now: Awaited<ReturnType<typeof look>>) => boolean | Promise<boolean>,
      { whenIdle }: { whenIdle: (status: Jobs.ProcessStatus) => boolean },
    ) => {
      let recoveredAt = 0;
      for (;;) {
        const now = await look(issueId, processId());
        if (await done(now)) return now;
        await failIfStuck(now.moved);
        const sinceRecovery = Date.now() - recoveredAt;
        const stalled = Date.now() - still.since > STALL_MS && sinceRecovery > STALL_MS;
        if (now.run.status === 'Failed') {
          expect(presses.length, `pressed ${MAX_PRESSES} times: ${now.run.error}`).toBeLessThan(
            MAX_PRESSES,
          );
          presses.push(await press());
        } else if (
          stalled ||
          (sinceRecovery > RECOVER_EVERY_MS && whenIdle(now.run.status) && (await queueIdle()))
        ) {
          if (stalled) stalls += 1;
          await recover(workerNow());
          recoveredAt = Date.now();
        }
        await sleep(LOOK_EVERY_MS);
      }
    };
    /** The send is over: the run succeeded, nothing is on its way and the issue is done. */
    const over = async ({ run, issue }: Awaited<ReturnType<typeof look>>) =>
      run.status === 'Success' && issue?.status === 'done' && !(await Outbox.onTheirWay());

    try {
      let next = loadWorker(LEASES_ENDED_MS);
      workers.push(next);
      worker.go();
      await worker.ready;
      const killAt = Array.from({ length: KILLS }, () =>
        Math.floor(Math.random() * STEPS * 0.95),
      ).sort((a, b) => a - b);
      const sinkKills = new Set<number>();
      while (sinkKills.size < SINK_KILLS) sinkKills.add(Math.floor(Math.random() * KILLS));
      const databaseKills = new Set<number>();
      while (databaseKills.size < DATABASE_KILLS) {
        const at = Math.floor(Math.random() * KILLS);
        if (!sinkKills.has(at)) databaseKills.add(at);
      }
      while (kills < KILLS) {
        // Waits for the send to reach the kill point (or to end first).
        const { steps } = await follow(
          async (now) => now.steps >= killAt[kills]! || (await over(now)),
          {
            whenIdle: (status) => status === 'Success',
          },
        );
        await sleep(Math.random() * JITTER_MS);
        const what = sinkKills.has(kills)
          ? 'the sink'
          : databaseKills.has(kills)
            ? 'DynamoDB Local, then the worker'
            : 'the worker';
        note(`kill ${kills + 1}: ${what}, at ${steps} steps`);
        if (sinkKills.has(kills)) {
          // The mail server dies under a live worker, and comes back on its address.
          await killSink();
          kills += 1;
          await sleep(SINK_DOWN_MS);
          sink = await startSink(sink.port);
          continue;
        }
        // The database dies under the live worker, whose writes (claims, settles, checkpoints) fail
        // until it is back; then the worker dies too.
        if (databaseKills.has(kills)) await killDatabase();
        await kill(worker);
        kills += 1;
        // The recovery schedule, once the dead worker's leases have ended: re-sends its chunks.
        await Jobs.recover(Date.now() + next.ahead);
        worker = next;
        worker.go();
        await worker.ready;
        // The send is followed again from a live worker: the restarts are not its stall.
        still = { moved: '', since: Date.now() };
        if (kills < KILLS) {
          next = loadWorker(worker.ahead + LEASES_ENDED_MS);
          workers.push(next);
        }
      }

      // The last worker runs to the end, however long that takes while the send moves.
      note('the last worker runs on');
      await follow(over, { whenIdle: () => true });
    } finally {
      await Promise.all(workers.map(kill));
    }

    const issue = (await Newsletter.issueById(issueId))!;
    expect(issue).toMatchObject({
      recipients: SUBSCRIBERS,
      queued: 0,
      sent: SUBSCRIBERS,
      skipped: 0,
      failed: 0,
      status: 'done',
    });

    const { data: deliveries } = await Newsletter.DeliveryEntity.get(
      readers.map(({ id }) => ({ issueId, subscriberId: id })),
    ).go({ consistent: true });
    const deliveryOf = new Map(deliveries.map((delivery) => [delivery.subscriberId, delivery]));

    const received = new Map<string, Set<string>>();
    for (const { to, messageId } of copies)
      received.set(to, (received.get(to) ?? new Set()).add(messageId));
    const addresses = new Set(readers.map(({ email }) => email));
    expect([...received.keys()].filter((to) => !addresses.has(to))).toEqual([]);

    const wrong: string[] = [];
    for (const reader of readers) {
      const delivery = deliveryOf.get(reader.id);
      const messageIds = [...(received.get(reader.email) ?? [])];
      if (
        delivery?.status !== 'sent' ||
        !delivery.smtpMessageId ||
        messageIds.length !== 1 ||
        messageIds[0] !== delivery.smtpMessageId
      )
        wrong.push(`${reader.email}: ${delivery?.status} ${messageIds.join(' ')}`);
    }
    expect(wrong).toEqual([]);

    // SMTP has no idempotency: a kill between the server's 250 and the settle write sends the same
    // message (same Message-ID) again once its lease ends. Every second copy must be explained so:
    // a kill between the first copy's acceptance and the second's, and no settle of that e-mail
    // logged before the second copy.
    const idOf = new Map(
      (await Promise.all(readers.map(({ id }) => Newsletter.deliveryOf(issueId, id)))).map(
        (delivery) => [Outbox.messageIdOf(delivery!.outboundEmailId!), delivery!.outboundEmailId!],
      ),
    );
    const unexplained: string[] = [];
    const copiesOf = new Map<string, number[]>();
    for (const { messageId, at } of copies)
      copiesOf.set(messageId, [...(copiesOf.get(messageId) ?? []), at]);
    for (const [messageId, all] of copiesOf) {
      const times = all.sort((a, b) => a - b);
      for (let second = 1; second < times.length; second++) {
        const [first, then] = [times[second - 1]!, times[second]!];
        const settled = settledAt.get(idOf.get(messageId) ?? '');
        const killBetween = killedAt.some((at) => at >= first && at <= then);
        if (!killBetween || (settled !== undefined && settled < then))
          unexplained.push(
            `${messageId}: copies at ${first} and ${then}, settled ${settled ?? 'never'}, kills ${killedAt.join(' ')}`,
          );
      }
    }
    console.log(
      `Kill points: ${kills} kills (${SINK_KILLS} of the sink, ${DATABASE_KILLS} of DynamoDB Local then the worker), ${copies.length} raw copies, ${received.size} distinct messages, ${presses.length} press(es), ${stalls} stall(s), ${workerErrors.length} error lines from workers (${workerErrors.filter((line) => line.includes('ECONNREFUSED')).length} of a refused connection), ${((Date.now() - startedAt) / 1000).toFixed(1)} s`,
    );
    expect(unexplained).toEqual([]);
  }, 420_000);
});
