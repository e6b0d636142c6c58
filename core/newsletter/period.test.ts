// The period issues of the daily and weekly schedules: their ids on the ISO calendar, and their
// content windows, which follow one another so no pick is in two issues and none is in none.
// The file has a table of its own, so "the active daily audiences" are exactly its own.
import { describe, expect, it } from 'vitest';
import * as Jobs from '#core/jobs';
import * as Newsletter from '#core/newsletter';
import { receive } from '#tests/integration/job-queue';
import { messagesTo } from '#tests/integration/mail';
import { confirmedReaders, pick } from '#tests/integration/newsletter-world';
import { createAudience } from '#tests/integration/factories';
import { useOwnTable } from '#tests/integration/own-table';

useOwnTable('newsletter-periods');

const jobs = Jobs.registry([Newsletter.sendNewsletters]);

async function runToEnd(processId: string) {
  await Jobs.handleBatch(await receive(processId), jobs);
  for (const message of await receive(processId)) await Jobs.handleBatch([message], jobs);
  return (await Jobs.byId(processId))!;
}

describe('the period of an issue', () => {
  it('is the UTC day, or the ISO week (Monday to Sunday, in the year of its Thursday)', () => {
    const weeks: [string, string][] = [
      ['2026-11-23T07:10:00Z', '2026-W48'],
      ['2026-12-28T00:00:00Z', '2026-W53'],
      ['2026-12-31T12:00:00Z', '2026-W53'],
      ['2027-01-01T00:00:00Z', '2026-W53'],
      ['2027-01-03T23:59:59.999Z', '2026-W53'],
      ['2027-01-04T00:00:00Z', '2027-W01'],
      ['2020-12-31T00:00:00Z', '2020-W53'],
      ['2021-01-03T23:59:59Z', '2020-W53'],
      ['2021-01-04T00:00:00Z', '2021-W01'],
      ['2024-12-30T00:00:00Z', '2025-W01'],
      ['2025-12-29T00:00:00Z', '2026-W01'],
    ];
    for (const [at, week] of weeks)
      expect([at, Newsletter.periodOf('weekly', Date.parse(at))]).toEqual([at, week]);
    expect(Newsletter.periodIssueId('daily', Date.parse('2026-11-23T23:59:59.999Z'))).toBe(
      'daily-2026-11-23',
    );
    expect(Newsletter.periodIssueId('daily', Date.parse('2026-11-24T00:00:00Z'))).toBe(
      'daily-2026-11-24',
    );
  });

  it("starts where the last period's issue ended, even when that was early in its day", async () => {
    const audience = await createAudience({ title: 'audit smart contracts' });
    const [reader] = await confirmedReaders(audience, 1);
    // Yesterday's issue was sent just after midnight (an early 'Send newsletters' press): what
    // was picked after it, more than a day before today's run, belongs to today's issue.
    const now = Date.now();
    const yesterday = Newsletter.periodOf('daily', now - Newsletter.WINDOW_MS.daily);
    const lastEnded = `${yesterday}T00:00:00.000Z`;
    await Newsletter.NewsletterIssueEntity.create({
      id: `daily-${yesterday}`,
      frequency: 'daily',
      from: new Date(Date.parse(lastEnded) - Newsletter.WINDOW_MS.daily).toISOString(),
      to: lastEnded,
      audienceIds: [audience.id],
      status: 'done',
      createdAt: lastEnded,
    }).go();
    const between = (Date.parse(lastEnded) + now - Newsletter.WINDOW_MS.daily) / 2;
    await pick(audience, 'A story picked after the last issue', new Date(between).toISOString());

    const process = await Jobs.enqueue(Newsletter.sendNewsletters, { frequency: 'daily' }, 'admin');
    expect(await runToEnd(process.id)).toMatchObject({ status: 'Success' });
    const issue = (await Newsletter.issueById(Newsletter.periodIssueId('daily', now)))!;
    expect(issue.from).toBe(lastEnded);
    const [digest] = await messagesTo(reader!.email);
    expect(digest?.text).toContain('A story picked after the last issue');
  });
});
