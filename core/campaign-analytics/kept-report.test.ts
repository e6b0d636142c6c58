// The campaign analytics report kept between rollups, in a table of its own: forty days of seeded
// events give the same figures as before reports were kept (a golden file written by the report
// that recomputed every view), a kept report gives them again, a new rollup shows on the next view,
// and racing first views compute the report once and never store a stale one over a fresh one.
import { ulid } from 'ulid';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import * as Analytics from '#core/analytics';
import * as Worker from '#core/worker';
import * as CampaignAnalytics from '#core/campaign-analytics';
import * as Jobs from '#core/jobs';
import { createArticle, createAudience } from '#tests/integration/factories';
import { runToEnd } from '#tests/integration/job-queue';
import { useOwnTable } from '#tests/integration/own-table';
import { keptFigures, MAX_KEPT_BYTES } from './kept-report';
import { KeptReportEntity } from './kept-report-entity';

useOwnTable('kept-report');

const DAY_MS = 86_400_000;
const SEEDED_DAYS = 40;
const today = () => new Date().toISOString().slice(0, 10);
const daysBack = (back: number) =>
  new Date(Date.parse(`${today()}T00:00:00Z`) - back * DAY_MS).toISOString().slice(0, 10);

/** A small deterministic generator, so the seeded events are the same on every run. */
function seededRandom(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** What the golden file names instead of ids and dates, so it holds on any day. */
const names = new Map<string, string>();

async function rollUp() {
  const run = await Jobs.enqueue(CampaignAnalytics.rollUpAnalytics, {}, 'scheduler');
  expect((await runToEnd(run.id, Worker.jobs)).ended.status).toBe('Success');
}

/** Forty days of every kind of event, ending today, with fixed ids and times. */
async function seedEvents() {
  const audiences = await Promise.all(
    ['audit smart contracts', 'build DeFi protocols', 'trade NFTs'].map((title) =>
      createAudience({ title }),
    ),
  );
  const niche = await createAudience({ title: 'restaking research', state: 'upcoming' });
  const articles = await Promise.all(
    ['A reentrancy bug', 'An audit contest ends', 'Bridges and their keys'].map((title) =>
      createArticle({ title }),
    ),
  );
  for (const item of [...audiences, niche, ...articles]) names.set(item.id, item.title);
  const next = seededRandom(34);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const events: Analytics.AnalyticsEvent[] = [];
  for (let back = SEEDED_DAYS - 1; back >= 0; back--) {
    const dayStart = Date.parse(`${daysBack(back)}T00:00:00Z`);
    const at = (i: number) => new Date(dayStart + 60_000 + i * 7_000).toISOString();
    for (let i = 0; i < 60; i++) {
      const utm = pick(['alpha', 'beta', 'gamma', undefined]);
      const tracking = {
        utm,
        vus: pick(['', 'sp', 'ip'] as const),
        raud: pick(['defi', undefined]),
      };
      const key = `${back}:${i}`;
      const name = pick([
        'page_view',
        'page_view',
        'page_view',
        'subscribe',
        'subscription_confirmed',
        'unsubscribe',
        'audience_added',
        'audience_removed',
        'niche_voted',
        'niche_unvoted',
        'audience_suggested',
        'newsletter_click',
        'invited',
        'funnel_started',
        'onboarded',
        'feed_first_visit',
        'reader_active',
        'story_liked',
        'story_disliked',
        'clues_changed',
      ] as const);
      if (name === 'page_view') {
        const id = ulid(dayStart + i);
        events.push({
          ...tracking,
          id,
          at: at(i),
          day: daysBack(back),
          shard: Analytics.shardOf(id),
          name,
          path: '/a/defi',
        });
        continue;
      }
      const audienceIds =
        name === 'niche_voted' || name === 'niche_unvoted'
          ? [niche.id]
          : name === 'subscription_confirmed'
            ? [pick(audiences).id, pick(audiences).id]
            : [pick(audiences).id];
      events.push(
        Analytics.eventItem(
          {
            ...tracking,
            name,
            key,
            path: '/a/defi',
            audienceIds,
            ...(name === 'audience_suggested' && { text: pick(['DAO treasurers', 'Miners']) }),
            ...(name === 'newsletter_click' && {
              issueId: `issue-${back}`,
              articleId: pick(articles).id,
            }),
          },
          at(i),
        ),
      );
    }
  }
  for (let start = 0; start < events.length; start += 25)
    await Analytics.AnalyticsEventEntity.put(events.slice(start, start + 25)).go();
}

/** The report with ids and days named as the golden file names them, and its time left out. */
function named(report: CampaignAnalytics.AnalyticsReport) {
  const { updatedAt, ...figures } = report;
  expect(updatedAt).toMatch(/^\d{4}-/);
  const offsets = new Map(
    Array.from({ length: SEEDED_DAYS + 1 }, (_, back) => [daysBack(back), `today-${back}`]),
  );
  return JSON.parse(
    JSON.stringify(figures, (_, value: unknown) =>
      typeof value === 'string' ? (names.get(value) ?? offsets.get(value) ?? value) : value,
    ),
  ) as unknown;
}

const RANGES: [string, CampaignAnalytics.ReportInput][] = [
  ['the default 30 days', {}],
  ['40 days', { from: daysBack(SEEDED_DAYS - 1) }],
  ['40 days of one campaign', { from: daysBack(SEEDED_DAYS - 1), utm: 'alpha' }],
  ['40 days of the default landing', { from: daysBack(SEEDED_DAYS - 1), vus: '' }],
  ['a campaign on one landing', { from: daysBack(SEEDED_DAYS - 1), utm: 'beta', vus: 'sp' }],
  ['ten days in the middle', { from: daysBack(25), to: daysBack(15) }],
];

beforeAll(async () => {
  await seedEvents();
  await rollUp();
}, 120_000);

describe('the kept report', () => {
  it('shows the figures the report showed when it recomputed every view, computed and kept', async () => {
    for (const view of ['first', 'kept']) {
      const figures: Record<string, unknown> = {};
      for (const [name, input] of RANGES)
        figures[name] = named(await CampaignAnalytics.report(input));
      await expect(JSON.stringify(figures, null, 1), view).toMatchFileSnapshot(
        './kept-report.golden.txt',
      );
    }
    const { data } = await KeptReportEntity.get({
      from: daysBack(SEEDED_DAYS - 1),
      to: today(),
      filters: 'alpha|*',
    }).go();
    expect(data?.revision).toBe((await CampaignAnalytics.watermark())?.revision);
  });

  it('answers racing first views from one computation, and each view after from what it kept', async () => {
    const input = { from: daysBack(33), utm: 'gamma' };
    const byDay = vi.spyOn(CampaignAnalytics.DayRollupEntity.query, 'byDay');
    const views = await Promise.all(
      Array.from({ length: 10 }, () => CampaignAnalytics.report(input)),
    );
    // One computation reads the range's days and the day before it: two Queries.
    expect(byDay).toHaveBeenCalledTimes(2);
    for (const view of views) expect(view).toEqual(views[0]);
    expect(await CampaignAnalytics.report(input)).toEqual(views[0]);
    expect(byDay).toHaveBeenCalledTimes(2);
    vi.restoreAllMocks();
  });

  it('shows the figures of a new rollup on the next view', async () => {
    const input = { from: daysBack(SEEDED_DAYS - 1) };
    const before = await CampaignAnalytics.report(input);
    expect(before.choices.utms).not.toContain('delta');
    for (let i = 0; i < 3; i++) {
      await Analytics.AnalyticsEventEntity.put(
        Analytics.eventItem({ name: 'subscribe', key: `late:${i}`, path: '/a/defi', utm: 'delta' }),
      ).go();
    }
    // Until the rollup counts them, the kept figures stand.
    expect(await CampaignAnalytics.report(input)).toEqual(before);
    await rollUp();
    const after = await CampaignAnalytics.report(input);
    expect(after.choices.utms).toContain('delta');
    expect(after.funnel.totals.subscribe).toBe(before.funnel.totals.subscribe + 3);
    expect(after.funnel.byCampaign.find((row) => row.utm === 'delta')?.counts.subscribe).toBe(3);
  });

  it('shows new figures after the watermark was deleted and a first rollup ran again', async () => {
    const input = { from: daysBack(SEEDED_DAYS - 1) };
    const before = await CampaignAnalytics.report(input);
    await CampaignAnalytics.RollupWatermarkEntity.delete({}).go();
    await Analytics.AnalyticsEventEntity.put(
      Analytics.eventItem({ name: 'subscribe', key: 'after-reset', path: '/a/defi', utm: 'zeta' }),
    ).go();
    await rollUp();
    const after = await CampaignAnalytics.report(input);
    expect(after.funnel.totals.subscribe).toBe(before.funnel.totals.subscribe + 1);
    expect(after.choices.utms).toContain('zeta');
  }, 60_000);
});

describe('keeping figures', () => {
  const range = (utm: string) => ({
    from: '2026-01-01',
    to: '2026-01-31',
    filters: { utm, vus: null },
  });
  const notAgain = () => Promise.reject(new Error('computed again'));

  it('never keeps figures computed before a rollup over those computed after it', async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const older = keptFigures(range('race'), 1, async () => {
      await gate;
      return 'figures of revision 1';
    });
    // The older view holds its claim while a rollup moves the revision and a newer view computes.
    await vi.waitFor(async () => {
      const { data } = await KeptReportEntity.get({ ...range('race'), filters: 'race|*' }).go();
      expect(data?.claimedRevision).toBe(1);
    });
    expect(await keptFigures(range('race'), 2, async () => 'figures of revision 2')).toBe(
      'figures of revision 2',
    );
    release();
    expect(await older).toBe('figures of revision 1');
    expect(await keptFigures(range('race'), 2, notAgain)).toBe('figures of revision 2');
    // A view that read the revision just before the rollup is shown the newer figures.
    expect(await keptFigures(range('race'), 1, notAgain)).toBe('figures of revision 2');
  });

  it('computes once for views arriving together, and again for a new revision', async () => {
    let computed = 0;
    const compute = (revision: number) => async () => {
      computed++;
      await new Promise((resolve) => setTimeout(resolve, 200));
      return { revision };
    };
    const views = await Promise.all(
      Array.from({ length: 10 }, () => keptFigures(range('together'), 5, compute(5))),
    );
    expect(computed).toBe(1);
    expect(views).toEqual(Array.from({ length: 10 }, () => ({ revision: 5 })));
    expect(await keptFigures(range('together'), 6, compute(6))).toEqual({ revision: 6 });
    expect(computed).toBe(2);
  });

  it('computes figures too large for an item with every view, never showing older ones', async () => {
    await keptFigures(range('large'), 1, async () => 'small');
    const large = 'x'.repeat(MAX_KEPT_BYTES + 1);
    expect(await keptFigures(range('large'), 2, async () => large)).toBe(large);
    expect(await keptFigures(range('large'), 2, async () => 'computed again')).toBe(
      'computed again',
    );
  });
});
