// When an issue turns done: after its last e-mail settles, even when the worker that settled it
// died (or its close failed) before it closed the issue. The file has a table of its own, so the
// daily issue goes to exactly these readers.
import { decodeTime } from 'ulid';
import { beforeAll, describe, expect, it } from 'vitest';
import * as Jobs from '#core/jobs';
import * as Newsletter from '#core/newsletter';
import * as Outbox from '#core/outbox';
import { receive } from '#tests/integration/job-queue';
import { dailyWorld } from '#tests/integration/newsletter-world';
import { useOwnTable } from '#tests/integration/own-table';
import { closeIfSettled } from './issue-close';
import { NewsletterIssueEntity } from './issue-entity';

useOwnTable('issue-close');

const jobs = Jobs.registry([Newsletter.sendNewsletters]);

beforeAll(async () => {
  await dailyWorld(2);
});

/** The issue the first test sends and settles; the race below reopens it. */
let settledIssueId = '';

describe('closing an issue', () => {
  it("closes it when its last e-mail's message comes again after the worker settled it and died before closing", async () => {
    const run = await Jobs.enqueue(Newsletter.sendNewsletters, {}, 'admin-1');
    await Jobs.handleBatch(await receive(run.id), jobs);
    for (const chunk of await receive(run.id)) await Jobs.handleBatch([chunk], jobs);
    const issueId = Newsletter.periodIssueId('daily', decodeTime(run.id));
    settledIssueId = issueId;
    const emails = (await Outbox.recent({ limit: 50 })).filter(
      (email) => email.issueId === issueId,
    );
    expect(emails).toHaveLength(2);
    await Outbox.deliverDue();
    expect(await Newsletter.issueById(issueId)).toMatchObject({
      status: 'done',
      sent: 2,
      queued: 0,
    });

    // What a worker killed between its last settle and the close leaves: every e-mail settled, the
    // issue still 'sending', and the message it was handling not deleted, so it comes again.
    await NewsletterIssueEntity.patch({ id: issueId }).set({ status: 'sending' }).go();
    expect(await Outbox.deliver(emails[0]!.id)).toEqual({ result: 'not-due' });
    expect(await Newsletter.issueById(issueId)).toMatchObject({
      status: 'done',
      sent: 2,
      queued: 0,
    });
  });

  it('of closes decided at the same moment, exactly one lands, round after round', async () => {
    const issueId = settledIssueId;
    expect(await Newsletter.issueById(issueId)).toMatchObject({ status: 'done', queued: 0 });
    for (let round = 0; round < 8; round++) {
      await NewsletterIssueEntity.patch({ id: issueId }).set({ status: 'sending' }).go();
      // The worker settling the last e-mail, its message coming again, and the schedule, at once.
      const closed = await Promise.all([
        closeIfSettled(issueId),
        closeIfSettled(issueId),
        Newsletter.closeSettledIssues().then((count) => count > 0),
      ]);
      expect(closed.filter(Boolean), `round ${round}`).toHaveLength(1);
      expect(await Newsletter.issueById(issueId)).toMatchObject({ status: 'done', queued: 0 });
    }
  });
});
