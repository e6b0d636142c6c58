// `npm start`'s demo analytics: after the seed and one rollup, every section of the campaign
// analytics page has figures, and a second seed writes nothing.
import { describe, expect, it } from 'vitest';
import * as Articles from '#core/articles';
import * as Worker from '#core/worker';
import * as CampaignAnalytics from '#core/campaign-analytics';
import * as Curation from '#core/curation';
import * as Jobs from '#core/jobs';
import { runToEnd } from '#tests/integration/job-queue';
import { useOwnTable } from '#tests/integration/own-table';
import * as Newsletter from '#core/newsletter';
import { messagesTo } from '#tests/integration/mail';
import { seedDemoAnalytics } from './analytics';
import { clickDemoIssue, seedDemoPicks } from './demo-newsletter';
import { seedDemoData, seedId } from './index';

useOwnTable('seed-analytics');

const sum = (values: number[]) => values.reduce((total, n) => total + n, 0);

describe('the demo analytics', () => {
  it('gives every chart of the page something to show, once', async () => {
    await seedDemoData();
    const seeded = await seedDemoAnalytics();
    expect(seeded.subscribers).toBe(8);
    expect(seeded.historyEvents).toBeGreaterThan(28 * 50);
    const process = await Jobs.enqueue(CampaignAnalytics.rollUpAnalytics, {}, 'npm-start');
    expect((await runToEnd(process.id, Worker.jobs)).ended.status).toBe('Success');

    const report = await CampaignAnalytics.report({});
    for (const step of CampaignAnalytics.FUNNEL_STEPS)
      expect(report.funnel.totals[step], step).toBeGreaterThan(0);
    expect(report.funnel.byCampaign.map((row) => row.utm)).toEqual(
      expect.arrayContaining(['spring-launch', 'newsletter-swap', 'podcast', '', 'invite-wave']),
    );
    expect(report.funnel.byReferrer.filter((row) => row.raud !== '').length).toBeGreaterThan(0);
    const trendDays = report.funnel.trend.filter((day) => day.counts.visit > 0);
    expect(trendDays.length).toBeGreaterThanOrEqual(28);
    // Subscribers per audience grow over the weeks; today's confirmations add to them.
    const top = report.audiences.rows[0]!;
    expect(top.end).toBeGreaterThan(0);
    expect(new Set(top.series).size).toBeGreaterThan(1);
    expect(report.audiences.rows.some((row) => row.left > 0)).toBe(true);
    expect(report.audiences.niches.some((niche) => niche.votes > 0)).toBe(true);
    expect(report.audiences.suggestions).toEqual([
      { text: 'bitcoin miners', count: 2 },
      { text: 'dao treasurers', count: 1 },
    ]);
    expect(sum(report.readers.trend.map((day) => day.active))).toBeGreaterThan(28);
    expect(sum(report.readers.trend.map((day) => day.likes))).toBeGreaterThan(0);
    expect(report.updatedAt).not.toBeNull();

    expect(await seedDemoAnalytics()).toEqual({ subscribers: 0, historyEvents: 0 });
  }, 120_000);

  it("sends the demo's first issue, whose readers click, so the newsletter section has figures", async () => {
    expect(await seedDemoPicks()).toBeGreaterThan(0);
    const seeded = (await Articles.latest(100)).filter(
      (article) => article.streamId === seedId('stream:demo'),
    );
    expect(seeded.length).toBeGreaterThan(0);
    expect(seeded.every((article) => article.storyId)).toBe(true);
    const send = await Jobs.enqueue(
      Newsletter.sendNewsletters,
      { frequency: 'daily' },
      'npm-start',
    );
    expect((await runToEnd(send.id, Worker.jobs)).ended.status).toBe('Success');
    const issueId = Newsletter.periodIssueId('daily', Date.now());
    // The confirmed demo readers of daily audiences get it (reading the sink runs the outbox).
    const received = [];
    for (const number of [1, 2, 3, 4, 6]) {
      const subjects = (await messagesTo(`demo-reader-${number}@example.org`)).map(
        (m) => m.subject,
      );
      if (subjects.some((subject) => subject.startsWith('Your daily Cluefeed')))
        received.push(number);
    }
    expect(received.length).toBeGreaterThanOrEqual(3);
    const clicks = await clickDemoIssue(issueId);
    expect(clicks).toBeGreaterThan(0);
    const rollup = await Jobs.enqueue(CampaignAnalytics.rollUpAnalytics, {}, 'npm-start');
    expect((await runToEnd(rollup.id, Worker.jobs)).ended.status).toBe('Success');

    const { newsletters } = await CampaignAnalytics.report({});
    const [issue] = newsletters.issues;
    expect(issue).toMatchObject({ id: issueId, clicks, failed: 0 });
    expect(issue!.sent).toBe(received.length);
    expect(sum(issue!.stories.map((story) => story.clicks))).toBe(clicks);
    // Only stories the daily issue carried were clicked (never a weekly audience's).
    const sent = (await Newsletter.issueById(issueId))!;
    const carried = await Promise.all(
      sent.audienceIds.map((id) => Curation.picksForAudience(id, { from: sent.from, to: sent.to })),
    );
    const carriedIds = carried.flat().map((pick) => pick.articleId);
    for (const story of issue!.stories) expect(carriedIds).toContain(story.articleId);
    expect(newsletters.topStories.length).toBeGreaterThan(0);
    expect(newsletters.topStories[0]!.title).not.toBe('(article no longer stored)');
  }, 120_000);
});
