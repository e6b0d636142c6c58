// The analytics page's own arithmetic and words: ratios of counts, the address of its filters and
// CSV, and each section's CSV rows.
import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { axisTop, LineChart, PARTIAL_NOTE } from './charts';
import { sectionCsv } from './csv';
import { isPartialDay, percentText, ratioCell, stepRatio } from './figures';
import { csvFilename, csvHref, reportInput } from './filters';
import {
  FUNNEL_STEPS,
  SUBSCRIBER_STEPS,
  type AnalyticsReport,
  type StepCounts,
} from '#core/campaign-analytics';

const counts = (values: Partial<StepCounts>): StepCounts => ({
  ...(Object.fromEntries(FUNNEL_STEPS.map((step) => [step, 0])) as StepCounts),
  ...values,
});

function sample(): AnalyticsReport {
  return {
    from: '2026-11-01',
    to: '2026-11-02',
    days: ['2026-11-01', '2026-11-02'],
    filters: { utm: null, vus: '' },
    updatedAt: '2026-11-02T06:00:00.000Z',
    choices: { utms: ['', 'spring'], vuses: ['', 'sp'] },
    funnel: {
      totals: counts({ visit: 8, subscribe: 2, confirm: 1, invited: 3 }),
      byCampaign: [{ utm: '=cmd', vus: '', counts: counts({ visit: 8, subscribe: 2 }) }],
      byReferrer: [{ raud: 'defi', counts: counts({ visit: 4 }) }],
      trend: [
        { day: '2026-11-01', counts: counts({ visit: 5 }) },
        { day: '2026-11-02', counts: counts({ visit: 3, subscribe: 2, confirm: 1 }) },
      ],
    },
    audiences: {
      rows: [
        {
          id: 'a1',
          title: 'DeFi builders',
          state: 'active',
          start: 2,
          end: 3,
          joined: 2,
          left: 1,
          growth: 1,
          churn: 0.25,
          series: [2, 3],
        },
      ],
      niches: [{ id: 'n1', title: '@mention lovers', votes: 4, votesInRange: 1 }],
      suggestions: [{ text: '+1 traders', count: 2 }],
    },
    newsletters: {
      issues: [
        {
          id: 'i1',
          label: 'Daily 2 Nov',
          createdAt: '2026-11-02T09:00:00.000Z',
          status: 'done',
          sent: 10,
          failed: 1,
          unsubscribes: 2,
          clicks: 5,
          uniqueClicks: 4,
          stories: [{ articleId: 's1', title: 'Aave "v4"', clicks: 5, uniqueClicks: 4 }],
        },
      ],
      topStories: [{ articleId: 's1', title: 'Aave "v4"', clicks: 5 }],
    },
    readers: {
      trend: [
        { day: '2026-11-01', active: 2, likes: 1, dislikes: 0, clueChanges: 0 },
        { day: '2026-11-02', active: 3, likes: 0, dislikes: 2, clueChanges: 1 },
      ],
    },
  };
}

const lines = (csv: string) => csv.trimEnd().split('\r\n');

describe('ratios of counts', () => {
  it('divide a step by the one before, and are unknown after a 0', () => {
    const funnel = counts({ visit: 8, subscribe: 2, confirm: 0 });
    expect(stepRatio(funnel, SUBSCRIBER_STEPS, 1)).toBe(0.25);
    expect(stepRatio(funnel, SUBSCRIBER_STEPS, 2)).toBe(0);
    expect(stepRatio(counts({ subscribe: 3 }), SUBSCRIBER_STEPS, 1)).toBeNull();
    expect(stepRatio(funnel, SUBSCRIBER_STEPS, 0)).toBeNull();
    expect([percentText(2 / 3), percentText(null), percentText(1.5)]).toEqual([
      '66.7%',
      '—',
      '150.0%',
    ]);
    expect([ratioCell(2 / 3), ratioCell(null)]).toEqual([0.6667, '']);
  });

  it('draw against a round top', () => {
    expect([0, 1, 3, 7, 10, 11, 480].map(axisTop)).toEqual([1, 1, 5, 10, 10, 20, 500]);
  });

  it('draw each line on its own scale, named where it is drawn, the partial day said, text at least 12 px', () => {
    const svg = renderToStaticMarkup(
      createElement(LineChart, {
        title: 'Visits, subscribes and confirms per day',
        summary: 'Per day.',
        days: ['2026-12-05', '2026-12-06'],
        lines: [
          { name: 'Visits', values: [480, 120] },
          { name: 'Confirms', values: [12, 3] },
        ],
        partialLast: true,
      }),
    );
    // Confirms get an axis to 20 of their own, not visits' 500.
    expect(svg).toContain('>500</text>');
    expect(svg).toContain('>20</text>');
    expect(svg).toContain('Visits: 120 so far today');
    expect(svg).toContain('Confirms: 3 so far today');
    expect(svg).toContain('2026-12-06 (so far)');
    expect(svg).toContain(PARTIAL_NOTE);
    const sizes = [...svg.matchAll(/font-size="(\d+)"/g)].map((match) => Number(match[1]));
    expect(sizes.length).toBeGreaterThan(0);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(12);
    // Drawn at its own size: a phone does not shrink its text.
    expect(svg).toMatch(/<svg[^>]* width="320"/);
  });

  it('call a day partial only while it is today (UTC)', () => {
    const now = new Date('2026-12-06T03:37:00Z');
    expect(isPartialDay('2026-12-06', now)).toBe(true);
    expect(isPartialDay('2026-12-05', now)).toBe(false);
    expect(isPartialDay(undefined, now)).toBe(false);
  });
});

describe('the filters in the address', () => {
  it('leave out what is empty and turn the word for the default landing into its empty value', () => {
    expect(reportInput(new URLSearchParams('from=&to=&utm=&vus='))).toEqual({});
    expect(
      reportInput(new URLSearchParams('from=2026-11-01&to=2026-11-02&utm=spring&vus=(default)')),
    ).toEqual({ from: '2026-11-01', to: '2026-11-02', utm: 'spring', vus: '' });
    expect(reportInput(new URLSearchParams('utm=spring&vus=sp'))).toEqual({
      utm: 'spring',
      vus: 'sp',
    });
  });

  it("name the report's range and filters in the CSV address and file name", () => {
    expect(csvHref(sample(), 'funnel')).toBe(
      '/admin-panel/campaign-analytics.csv?section=funnel&from=2026-11-01&to=2026-11-02&vus=%28default%29',
    );
    expect(csvFilename(sample(), 'readers')).toBe(
      'campaign-analytics-readers-2026-11-01-to-2026-11-02.csv',
    );
  });
});

describe('the CSV of each section', () => {
  it('funnel: totals, campaigns, referrers and days with their ratios, formulas defused', () => {
    const [header, totals, campaign, referrer, day] = lines(sectionCsv(sample(), 'funnel'));
    expect(header).toBe(
      '"table","day","campaign (utm)","landing variant (vus)","referring audience (raud)","Visits","Subscribes","Confirms","Invited","Funnel started","Onboarded","First feed visits","Subscribes / Visits","Confirms / Subscribes","Funnel started / Invited","Onboarded / Funnel started","First feed visits / Onboarded"',
    );
    expect(totals).toBe('"totals","","","","","8","2","1","3","0","0","0","0.25","0.5","0","",""');
    expect(campaign).toMatch(/^"by campaign","","'=cmd","","","8","2",/);
    expect(referrer).toMatch(/^"by referring audience","","","","defi","4",/);
    expect(day).toMatch(/^"per day","2026-11-01","","","","5",/);
  });

  it('audiences: growth and churn, subscribers per day, niches and defused suggestions', () => {
    const csv = lines(sectionCsv(sample(), 'audiences'));
    expect(csv[1]).toBe(
      '"audiences","a1","DeFi builders","active","2","3","2","1","1","0.25","","","","","",""',
    );
    expect(csv[3]).toBe(
      '"subscribers per day","a1","DeFi builders","","","","","","","","2026-11-02","3","","","",""',
    );
    expect(csv[4]).toBe(
      `"upcoming niches","n1","'@mention lovers","","","","","","","","","","4","1","",""`,
    );
    expect(csv[5]).toMatch(/"'\+1 traders","2"$/);
  });

  it('newsletters: each issue, its stories and the stories clicked most', () => {
    const csv = lines(sectionCsv(sample(), 'newsletters'));
    expect(csv[1]).toBe(
      '"issues","i1","Daily 2 Nov","2026-11-02T09:00:00.000Z","done","10","1","2","5","4","",""',
    );
    expect(csv[2]).toBe(
      '"story clicks","i1","Daily 2 Nov","","","","","","5","4","s1","Aave ""v4"""',
    );
    expect(csv[3]).toMatch(/^"stories clicked most",.*"5","","s1","Aave ""v4"""$/);
  });

  it('readers: a row per day', () => {
    expect(lines(sectionCsv(sample(), 'readers'))).toEqual([
      '"day","active readers","likes","dislikes","clue changes"',
      '"2026-11-01","2","1","0","0"',
      '"2026-11-02","3","0","2","1"',
    ]);
  });
});
