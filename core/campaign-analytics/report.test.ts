// The campaign analytics report after a real newsletter send, clicks at once and an unsubscribe,
// in a table of its own: each issue's figures equal a recount of its stored deliveries, clicks per
// story equal the recorded clicks, and bad input is a 400 with its message.
import { ulid } from 'ulid';
import { beforeAll, describe, expect, it } from 'vitest';
import * as Analytics from '#core/analytics';
import * as Worker from '#core/worker';
import * as CampaignAnalytics from '#core/campaign-analytics';
import * as Jobs from '#core/jobs';
import * as Newsletter from '#core/newsletter';
import * as Subscribers from '#core/subscribers';
import { createArticle, createAudience } from '#tests/integration/factories';
import { runToEnd } from '#tests/integration/job-queue';
import { messagesTo } from '#tests/integration/mail';
import { pick } from '#tests/integration/newsletter-world';
import { useOwnTable } from '#tests/integration/own-table';

useOwnTable('campaign-report');

const today = () => new Date().toISOString().slice(0, 10);
const tokenOf = (url: string) => new URL(url).searchParams.get('subscriberHash');

let issueId: string;
let readers: Subscribers.Subscriber[];
let counted = 0;
let follows = 0;

beforeAll(async () => {
  const audience = await createAudience({ title: 'audit smart contracts' });
  const articles = await Promise.all([
    createArticle({ title: 'A reentrancy bug in a lending pool' }),
    createArticle({ title: 'An audit contest ends' }),
  ]);
  for (const article of articles) await pick(audience, article.title, undefined, article.id);
  readers = [];
  for (let i = 0; i < 4; i++) {
    const { subscriber } = await Subscribers.subscribe({
      email: `reader-${i}-${ulid().toLowerCase()}@example.org`,
      audienceId: audience.id,
      utm: i % 2 ? 'spring' : undefined,
    });
    readers.push(
      await Subscribers.confirm(tokenOf(Subscribers.subscriberLinks(subscriber).confirmUrl)),
    );
  }
  const send = await Jobs.enqueue(Newsletter.sendNewsletters, {}, 'admin-1');
  expect((await runToEnd(send.id, Worker.jobs)).ended.status).toBe('Success');
  issueId = Newsletter.periodIssueId('daily', Date.now());
  // Each reader clicks each story link three times at once (the first counts as unique).
  const following = [];
  for (const reader of readers) {
    const [digest] = (await messagesTo(reader.email)).filter((message) =>
      message.subject.startsWith('Your daily Cluefeed'),
    );
    const links = digest!.html.match(/http:\/\/localhost:3000\/r\/[^"]+/g) ?? [];
    expect(links.length).toBeGreaterThanOrEqual(2);
    for (const link of new Set(links)) {
      const token = new URL(link).pathname.slice('/r/'.length);
      following.push(
        ...[0, 1, 2].map(() =>
          Newsletter.followClick(token, { ip: `192.0.2.${following.length % 200}` }).then(
            (followed) => ({ followed }),
          ),
        ),
      );
    }
  }
  follows = following.length;
  counted = (await Promise.all(following)).filter(
    ({ followed }) => followed.counted !== 'not',
  ).length;
  await Subscribers.unsubscribe((await Subscribers.byId(readers[0]!.id))!);
  const rollup = await Jobs.enqueue(CampaignAnalytics.rollUpAnalytics, {}, 'scheduler');
  expect((await runToEnd(rollup.id, Worker.jobs)).ended.status).toBe('Success');
}, 120_000);

describe('the report', () => {
  it("shows each issue's figures as its stored deliveries and clicks recount them", async () => {
    const report = await CampaignAnalytics.report({});
    const [row] = report.newsletters.issues;
    expect(row?.id).toBe(issueId);
    const { data: deliveries } = await Newsletter.DeliveryEntity.query
      .byIssue({ issueId })
      .go({ pages: 'all' });
    expect(row!.sent).toBe(deliveries.filter((d) => d.status === 'sent').length);
    expect(row!.sent).toBe(readers.length);
    expect(row!.failed).toBe(deliveries.filter((d) => d.status === 'failed').length);
    expect(row!.unsubscribes).toBe(1);
    const events = (await Analytics.forDay(today())).filter(
      (event) => event.name === 'newsletter_click' && event.issueId === issueId,
    );
    // Every click counted, as the issue, its stories and the events each recount them.
    expect(counted).toBe(follows);
    expect(row!.clicks).toBe(counted);
    expect(events.length).toBe(counted);
    const { data: firstClicks } = await Newsletter.ClickEntity.query
      .byIssue({ issueId })
      .go({ pages: 'all' });
    for (const story of row!.stories) {
      const mine = (e: { articleId?: string }) => e.articleId === story.articleId;
      expect(story.clicks, story.title).toBe(events.filter(mine).length);
      expect(story.uniqueClicks, story.title).toBe(firstClicks.filter(mine).length);
    }
    expect(row!.uniqueClicks).toBe(firstClicks.length);
    expect(row!.stories.map((story) => story.title).sort()).toEqual([
      'A reentrancy bug in a lending pool',
      'An audit contest ends',
    ]);
    expect(report.newsletters.topStories.map((story) => story.clicks)).toEqual(
      row!.stories.map((story) => story.clicks),
    );
  });

  it('narrows the funnel to a campaign and counts the confirmed subscribers per audience', async () => {
    const all = await CampaignAnalytics.report({});
    const spring = await CampaignAnalytics.report({ utm: 'spring' });
    expect(all.funnel.totals.subscribe).toBe(4);
    expect(spring.funnel.totals.subscribe).toBe(2);
    expect(spring.funnel.byCampaign.map((row) => row.utm)).toEqual(['spring']);
    expect(spring.filters).toEqual({ utm: 'spring', vus: null });
    expect(all.choices.utms).toEqual(['spring']);
    const [audience] = all.audiences.rows;
    expect(audience).toMatchObject({ start: 0, joined: 4, left: 1, end: 3, growth: 3 });
    expect(audience!.churn).toBeCloseTo(1 / 4);
    expect(audience!.series.at(-1)).toBe(3);
  });

  it('refuses bad dates, reversed or too long ranges and bad filters with a 400', async () => {
    const refused = (input: CampaignAnalytics.ReportInput) =>
      CampaignAnalytics.report(input).then(
        () => 'accepted',
        (error: { status?: number; message: string }) => `${error.status} ${error.message}`,
      );
    const { REPORT_MESSAGES } = CampaignAnalytics;
    expect(await refused({ from: '2026-13-01' })).toBe(`400 ${REPORT_MESSAGES.badDate}`);
    expect(await refused({ to: '2026-02-30' })).toBe(`400 ${REPORT_MESSAGES.badDate}`);
    expect(await refused({ from: '2026-11-20', to: '2026-11-01' })).toBe(
      `400 ${REPORT_MESSAGES.reversed}`,
    );
    expect(await refused({ from: '2024-01-01', to: '2026-01-01' })).toBe(
      `400 ${REPORT_MESSAGES.tooLong}`,
    );
    // The last day a date input allows has no next day in YYYY-MM-DD: refused, never a hang.
    expect(await refused({ from: '9999-12-31', to: '9999-12-31' })).toBe(
      `400 ${REPORT_MESSAGES.badDate}`,
    );
    expect(await refused({ from: '0001-01-01', to: '9999-12-30' })).toBe(
      `400 ${REPORT_MESSAGES.tooLong}`,
    );
    expect(await refused({ from: '9999-12-01', to: '9999-12-30' })).toBe('accepted');
    expect(await refused({ utm: '<script>' })).toBe(`400 ${REPORT_MESSAGES.badFilter}`);
    expect(await refused({ vus: 'zz' as 'sp' })).toBe(`400 ${REPORT_MESSAGES.badFilter}`);
  });
});
