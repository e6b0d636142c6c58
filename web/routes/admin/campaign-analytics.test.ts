// The campaign analytics page and its CSV through their loaders, in a table of their own (the
// figures are this file's events only): the admin guard, bad dates and sections answered with a
// 400 and the report's message, the page's figures and filters, and each CSV's contents with
// formulas defused.
import { beforeAll, describe, expect, it } from 'vitest';
import * as Analytics from '#core/analytics';
import * as CampaignAnalytics from '#core/campaign-analytics';
import { call } from '#tests/integration/route-call';
import { useOwnTable } from '#tests/integration/own-table';
import { signedInAdmin } from '#web/lib/admin.server.test-helpers';
import { loader as csvLoader } from './campaign-analytics.csv';
import { figuresHtmlOf } from '#web/components/analytics/page-figures';
import { loader as pageLoader } from './campaign-analytics';

useOwnTable('campaign-analytics-route');

const today = new Date().toISOString().slice(0, 10);

type Page = {
  head: Pick<CampaignAnalytics.AnalyticsReport, 'from' | 'to' | 'filters' | 'choices'>;
};
/** The page's loader data and the sections' HTML the server renders beside it. */
async function page(query: string): Promise<Page & { figures: string }> {
  const answer = await call(pageLoader, get(`/admin-panel/campaign-analytics${query}`));
  expect(answer.status).toBe(200);
  return { ...(answer.data as Page), figures: figuresHtmlOf(answer.data as object)! };
}
/** The visits in the page's subscriber funnel table. */
const visits = (figures: string) =>
  /<caption>Subscriber funnel<\/caption>.*?<th scope="row">Visits<\/th><td>(\d+)<\/td>/s.exec(
    figures,
  )?.[1];
let cookie: string;

const get = (path: string, withCookie = true) =>
  new Request(new URL(path, 'http://localhost:3000'), {
    headers: withCookie ? { Cookie: cookie } : {},
  });

async function csv(query: string): Promise<Response> {
  return csvLoader({
    request: get(`/admin-panel/campaign-analytics.csv?${query}`),
    params: {},
    context: {},
  });
}

beforeAll(async () => {
  ({ cookie } = await signedInAdmin());
  for (const [utm, vus] of [
    ['-spring', 'sp'],
    ['-spring', 'sp'],
    ['-spring', ''],
    ['autumn', 'ip'],
  ] as const) {
    const token = Analytics.pageViewToken(`http://localhost/?utm=${utm}&vus=${vus}&raud=defi`);
    await Analytics.recordPageView({ name: 'page_view', token });
  }
  await Analytics.AnalyticsEventEntity.create(
    Analytics.eventItem({
      name: 'audience_suggested',
      key: 'route-test:1',
      path: '/subscribed-to-newsletter',
      text: '=hyperlink("https://evil.example")',
    }),
  ).go();
  await CampaignAnalytics.rollUpDay(today);
});

describe('the campaign analytics page', () => {
  it('sends a visitor without an admin session to sign in, page and CSV alike', async () => {
    const page = await call(
      pageLoader,
      get('/admin-panel/campaign-analytics?from=2026-01-01', false),
    );
    expect(page.status).toBe(302);
    expect(page.location).toBe(
      `/admin-panel/authorize?${new URLSearchParams({ returnUrl: '/admin-panel/campaign-analytics?from=2026-01-01' })}`,
    );
    const download = await call(
      csvLoader,
      get('/admin-panel/campaign-analytics.csv?section=funnel', false),
    );
    expect(download.status).toBe(302);
    expect(download.location).toMatch(/^\/admin-panel\/authorize\?returnUrl=/);
  });

  it("answers bad dates with the report's message and a 400, not a 500", async () => {
    for (const [query, message] of [
      ['from=2026-02-30', CampaignAnalytics.REPORT_MESSAGES.badDate],
      ['from=yesterday', CampaignAnalytics.REPORT_MESSAGES.badDate],
      ['from=2026-03-02&to=2026-03-01', CampaignAnalytics.REPORT_MESSAGES.reversed],
      ['from=2024-01-01&to=2026-01-01', CampaignAnalytics.REPORT_MESSAGES.tooLong],
    ]) {
      const answer = await call(pageLoader, get(`/admin-panel/campaign-analytics?${query}`));
      expect(answer.status, query).toBe(400);
      expect(answer.data, query).toMatchObject({ problem: message });
      const download = await csv(`section=funnel&${query}`);
      expect(download.status, query).toBe(400);
      expect(await download.text(), query).toBe(message);
    }
  });

  it('shows the last 30 days by default, with the campaigns seen as choices', async () => {
    const { head, figures } = await page('');
    expect(head.to).toBe(today);
    expect(head.from).toBe(new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10));
    expect(head.choices.utms).toEqual(expect.arrayContaining(['-spring', 'autumn']));
    expect(visits(figures)).toBe('4');
  });

  it('filters the funnel by campaign and landing variant from the address', async () => {
    const { head, figures } = await page('?from=&to=&utm=-spring&vus=(default)');
    expect(head.filters).toEqual({ utm: '-spring', vus: '' });
    expect(visits(figures)).toBe('1');
  });

  it("renders the sections as HTML beside the loader data, not the report's rows, and again when the figures change", async () => {
    const answer = await call(pageLoader, get('/admin-panel/campaign-analytics?utm=autumn'));
    // What goes to the browser: the page's head and the filters asked, no figures.
    expect(Object.keys(answer.data as object).sort()).toEqual(['asked', 'head']);
    const first = await page('?utm=autumn');
    expect(Object.keys(first.head).sort()).toEqual([
      'choices',
      'filters',
      'from',
      'to',
      'updatedAt',
    ]);
    expect(first.figures).toContain('<h2 id="section-funnel-by-campaign">Funnel by campaign</h2>');
    expect(first.figures).toContain(
      `download="campaign-analytics-readers-${first.head.from}-to-${today}.csv"`,
    );
    expect(visits(first.figures)).toBe('1');
    expect((await page('?utm=autumn')).figures).toBe(first.figures);
    const token = Analytics.pageViewToken('http://localhost/?utm=autumn&vus=ip');
    await Analytics.recordPageView({ name: 'page_view', token });
    await CampaignAnalytics.rollUpDay(today);
    expect(visits((await page('?utm=autumn')).figures)).toBe('2');
  });
});

describe('the campaign analytics CSV', () => {
  it('refuses a section it does not know with a 400 and a message', async () => {
    for (const query of ['', 'section=everything', 'section=']) {
      const answer = await csv(query);
      expect(answer.status, query).toBe(400);
      expect(await answer.text()).toBe(
        'Choose a section: funnel, audiences, newsletters or readers',
      );
    }
  });

  it('names the section and range, and defuses cells a spreadsheet would run', async () => {
    const answer = await csv(`section=funnel&from=${today}&to=${today}&utm=-spring`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect(answer.headers.get('Content-Disposition')).toBe(
      `attachment; filename="campaign-analytics-funnel-${today}-to-${today}.csv"`,
    );
    expect(answer.headers.get('Cache-Control')).toBe('private, no-store');
    const rows = (await answer.text()).trimEnd().split('\r\n');
    expect(rows[0]).toMatch(/^"table","day","campaign \(utm\)","landing variant \(vus\)",/);
    expect(rows[1]).toMatch(/^"totals","","","","","3",/);
    expect(rows).toContain(
      `"by campaign","","'-spring","sp","","2","0","0","0","0","0","0","0","","","",""`,
    );
    expect(rows.some((row) => row.includes('autumn'))).toBe(false);
  });

  it('gives the suggestions in the audiences CSV, a formula made text', async () => {
    const text = await (await csv(`section=audiences&from=${today}&to=${today}`)).text();
    expect(text).toContain(`"'=hyperlink(""https://evil.example"")","1"`);
  });

  it('gives readers one row per day of the range', async () => {
    const text = await (await csv(`section=readers&from=2026-01-01&to=2026-01-03`)).text();
    expect(text.trimEnd().split('\r\n')).toEqual([
      '"day","active readers","likes","dislikes","clue changes"',
      '"2026-01-01","0","0","0","0"',
      '"2026-01-02","0","0","0","0"',
      '"2026-01-03","0","0","0","0"',
    ]);
  });
});
