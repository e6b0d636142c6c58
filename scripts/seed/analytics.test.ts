// `npm start`'s demo analytics: after the seed and one rollup, every section of the campaign
// analytics page has figures, and a second seed writes nothing.
import { describe, expect, it } from 'vitest';
import * as Automations from '#core/automations';
import * as CampaignAnalytics from '#core/campaign-analytics';
import * as Jobs from '#core/jobs';
import { runToEnd } from '#tests/integration/job-queue';
import { useOwnTable } from '#tests/integration/own-table';
import { seedDemoAnalytics } from './analytics';
import { seedDemoData } from './index';

useOwnTable('seed-analytics');

const sum = (values: number[]) => values.reduce((total, n) => total + n, 0);

describe('the demo analytics', () => {
  it('gives every chart of the page something to show, once', async () => {
    await seedDemoData();
    const seeded = await seedDemoAnalytics();
    expect(seeded.subscribers).toBe(8);
    expect(seeded.historyEvents).toBeGreaterThan(28 * 50);
    const process = await Jobs.enqueue(CampaignAnalytics.rollUpAnalytics, {}, 'npm-start');
    expect((await runToEnd(process.id, Automations.jobs)).ended.status).toBe('Success');

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
});
