import { describe, expect, it } from 'vitest';
import type { ScheduledEvent } from 'aws-lambda';
import * as Worker from '#core/worker';
import * as Jobs from '#core/jobs';
import * as Outbox from '#core/outbox';
import * as Subscribers from '#core/subscribers';
import { createAudience } from '#tests/integration/factories';
import { receiveEmails } from '#tests/integration/job-queue';
import { receivedBy } from '#tests/integration/mail';
import { handler } from './cron';

/** What EventBridge Scheduler invokes the function with: the schedule's input, verbatim. */
const schedulerEvent = { schedule: 'import-articles' };

/** An EventBridge rule's scheduled event, as AWS documents it. */
const ruleEvent = (detail: Record<string, unknown>): ScheduledEvent => ({
  version: '0',
  id: '53dc4d37-cffa-4f76-80c9-8b7d4a4d2eaa',
  'detail-type': 'Scheduled Event',
  source: 'aws.events',
  account: '123456789012',
  time: '2026-11-21T13:00:00Z',
  region: 'eu-west-1',
  resources: ['arn:aws:events:eu-west-1:123456789012:rule/cluefeed-import-articles'],
  detail,
});

describe('cron handler', () => {
  it('enqueues the hourly import for the scheduler event', async () => {
    const before = await Jobs.lastRun('import-articles');
    await handler(schedulerEvent);
    const queued = await Jobs.lastRun('import-articles');
    expect(queued?.id).not.toBe(before?.id);
    expect(queued).toMatchObject({
      name: 'import-articles',
      systemUserId: 'scheduler',
      status: 'Queued',
    });
    // Run it, so the next schedule finds no import in progress.
    await Jobs.runProcess(queued!.id, Worker.jobs);
    expect((await Jobs.byId(queued!.id))?.status).toBe('Success');
  });

  it('reads the schedule from an EventBridge rule event detail', async () => {
    const before = await Jobs.lastRun('import-articles');
    await handler(ruleEvent({ schedule: 'import-articles' }));
    const queued = await Jobs.lastRun('import-articles');
    expect(queued?.id).not.toBe(before?.id);
    expect(queued).toMatchObject({ systemUserId: 'scheduler', status: 'Queued' });
    // Leaves no run in progress for the next test file sharing this table.
    await Jobs.runProcess(queued!.id, Worker.jobs);
  });

  it('refuses an event that names no known schedule, saying what it got', async () => {
    await expect(handler(ruleEvent({}))).rejects.toThrowError(
      /^The cron event names no known schedule: \{"version":"0"/,
    );
    await expect(handler({ schedule: 'nope' })).rejects.toThrowError(
      'The cron event names no known schedule: {"schedule":"nope"}',
    );
  });

  it('queues again, on the 5-minute recovery, an e-mail whose queue message was lost', async () => {
    const audience = await createAudience();
    const email = `reader-${Date.now()}@example.org`;
    await Subscribers.subscribe({ email, audienceId: audience.id });
    const [queued] = (await Outbox.recent({ limit: 200 })).filter(({ to }) => to === email);
    // Its message is lost, and it has been due for longer than a message can take since.
    expect(await receiveEmails([queued!.id])).toHaveLength(1);
    await Outbox.OutboundEmailEntity.patch({ day: queued!.day, id: queued!.id })
      .set({
        status: 'queued',
        nextAttemptAt: new Date(Date.now() - Outbox.LOST_AFTER_MS - 60_000).toISOString(),
      })
      .go();

    await handler({ schedule: 'recover-jobs' });
    expect(await receivedBy(email)).toEqual([]);
    const messages = await receiveEmails([queued!.id]);
    expect(messages).toHaveLength(1);
    await Outbox.handleBatch(messages);
    expect(await receivedBy(email)).toHaveLength(1);
    expect((await Outbox.byId(queued!.id))?.status).toBe('sent');
  });
});
