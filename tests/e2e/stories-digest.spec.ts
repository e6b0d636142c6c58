// One event told by two fixture feeds is one story: the audience page shows it once, with "Also
// covered by 1 source" and a link to the other outlet, and a subscriber's newsletter carries it
// once, led by its best pick and linking the other source. Another event on the same topic stays
// its own entry. The articles are stored and scored through core as an import and a scoring run
// leave them; the
// card is picked by the real curation; a reader subscribes on the page, an admin sends a campaign
// and the app's worker sends the issue to its SMTP sink.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { ulid } from 'ulid';
import { labelOf } from '#core/ai';
import { ArticleEntity, byIds as articlesByIds } from '#core/articles';
import * as Audiences from '#core/audiences';
import * as Curation from '#core/curation';
import * as Feeds from '#core/feeds';
import { logger } from '#core/logs';
import * as Scoring from '#core/scoring';
import * as Stories from '#core/stories';
import { FIXTURE_FEEDS_DIR } from '#tests/fakes/feed-server';
import { expect, test } from './fixtures';
import { messageTo, onlyMessageTo, pathOfLink } from './mail';
import { expectFitsAndReadable, sidewaysOverflow, WIDTHS } from './page-checks';

/**
 * The fixture feeds' Base outage, told by Blocknotes and by Chainwire Daily, and Chainwire Daily's
 * Starknet halt (the same topic, another event), with the score each gets for the audience.
 */
const REPORTS = [
  { feed: 'blocknotes.xml', title: 'Base sequencer outage: 42 minutes', score: 0.92 },
  { feed: 'chainwire-daily.xml', title: "Coinbase's Base network halts", score: 0.88 },
  { feed: 'chainwire-daily.xml', title: 'Starknet stops producing blocks', score: 0.8 },
];

/** A fixture feed's item as the import normalises it. */
function fixtureItem(feed: string, title: string) {
  const parsed = Feeds.parseFeed(readFileSync(join(FIXTURE_FEEDS_DIR, feed), 'utf8'));
  const source = {
    streamId: 'stream-e2e',
    streamName: parsed.title ?? feed,
    feedUrl: `https://feeds.example/${feed}`,
  };
  const item = parsed.items
    .flatMap((entry) => Feeds.normaliseItem(entry, source) ?? [])
    .find((article) => article.title.startsWith(title));
  if (!item) throw new Error(`No "${title}" in ${feed}`);
  return item;
}

/**
 * The reports stored, grouped into stories and scored for a new audience. Each is a copy under a
 * URL of its own, on a day long ago that no other run uses: the admin journey imports the fixture
 * feeds themselves and counts the newest articles, and no story may join one stored by another
 * journey of the run.
 */
async function reportedEvent() {
  const key = ulid().toLowerCase();
  const audience = await Audiences.create({
    title: `follow rollup outages ${key.slice(-6)}`,
    slug: `rollup-outages-${key}`,
    tag: 'aud-rollups',
    frequency: 'daily',
    state: 'active',
    featured: false,
  });
  const ids: string[] = [];
  const day = Date.UTC(2020, 0, 1) + Math.floor(Math.random() * 300) * 4 * 86_400_000;
  for (const [index, report] of REPORTS.entries()) {
    const id = ulid();
    const item = fixtureItem(report.feed, report.title);
    const publishedAt = new Date(day + (8 + index) * 3600_000).toISOString();
    await ArticleEntity.create({
      ...item,
      id,
      canonicalUrl: `${item.canonicalUrl}?copy=${id.toLowerCase()}`,
      publishedAt,
      importedAt: new Date().toISOString(),
      fingerprint: createHash('sha256').update(id).digest('hex'),
    }).go();
    await Scoring.storeScore(id, Scoring.audienceTarget(audience), await Scoring.productionKeys(), {
      label: labelOf(report.score),
      score: report.score,
      reason: `Relevant because you follow rollup outages: ${item.title}.`,
      relevantClues: [audience.title],
      publishedAt,
      processId: ulid(),
      inputTokens: 0,
      outputTokens: 0,
    });
    ids.push(id);
  }
  await Stories.joinArticles(ids);
  const articles = await articlesByIds(ids);
  expect(articles[1]!.storyId).toBe(articles[0]!.storyId);
  expect(articles[2]!.storyId).not.toBe(articles[0]!.storyId);
  return { audience, articles };
}

const ADMIN = { userName: 'admin', password: 'e2e-admin-password-0123' };

/** A reader subscribes on the audience page and confirms from the e-mail, as anyone does. */
async function subscribe(page: Page, audience: Audiences.Audience): Promise<string> {
  const email = `e2e-stories-${ulid().toLowerCase()}@example.org`;
  await page.goto(`/a/${audience.slug}`);
  const hero = page.locator('.audience__hero');
  await hero.getByPlaceholder('Enter your email').fill(email);
  await hero.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByRole('heading', { name: 'Assemble your newsletter' })).toBeVisible();
  await page.goto(pathOfLink(await onlyMessageTo(email), '/confirm-subscription'));
  // The page confirms once its script runs, which a busy machine takes a while to start.
  await expect(page.getByRole('heading', { name: 'Awesome!' })).toBeVisible({ timeout: 30_000 });
  return email;
}

/** An admin sends a campaign of the audience's picks now, from the setup page. */
async function sendCampaign(page: Page, audience: Audiences.Audience) {
  await page.goto('/admin-panel/authorize');
  await page.getByLabel('User name').fill(ADMIN.userName);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('navigation', { name: 'Admin' })).toBeVisible();
  await page.goto('/admin-panel/setup-campaign');
  await page
    .getByRole('group', { name: 'Audiences' })
    .getByRole('checkbox', { name: `Those who ${audience.title} (daily)`, exact: true })
    .check();
  await page.getByRole('button', { name: 'Schedule campaign' }).click();
  await expect(page.getByRole('heading', { name: 'Campaign', level: 1 })).toBeVisible();
}

const count = (text: string, part: string) => text.split(part).length - 1;

async function showAt(page: Page, width: number) {
  await page.setViewportSize({ width, height: 900 });
}

test('an event carried by two fixture feeds shows once in the digest and once on its audience page, with both sources', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const { audience, articles } = await reportedEvent();
  const [lead, echo, other] = articles as [
    (typeof articles)[0],
    (typeof articles)[0],
    (typeof articles)[0],
  ];
  const result = await Curation.pickForAudience(audience, { processId: ulid(), log: logger });
  expect(result.articleIds).toEqual([lead.id, other.id]);

  for (const width of WIDTHS) {
    await showAt(page, width);
    await page.goto(`/a/${audience.slug}`);
    const card = page.locator('article.card');
    await expect(card).toHaveCount(1);
    await expect(card.locator('.story__title')).toHaveText([lead.title, other.title]);
    await expect(page.getByText(echo.title)).toHaveCount(0);
    const also = card.locator('.story__also');
    await expect(also).toHaveCount(1);
    await expect(also).toHaveText('also covered by 1 source: Chainwire Daily');
    await expect(also.getByRole('link', { name: 'Chainwire Daily' })).toHaveAttribute(
      'href',
      echo.canonicalUrl,
    );
    await expectFitsAndReadable(page, `audience page at ${width}`);
  }

  const email = await subscribe(page, audience);
  await showAt(page, 1280);
  await sendCampaign(page, audience);
  const mail = await messageTo(email, /^Your daily Cluefeed/, 90_000);
  expect(mail.subject).toBe(`Your daily Cluefeed: ${lead.title}`);
  // One entry for the story, led by its best pick; the other outlet is a link under it.
  expect(count(mail.text, 'also covered by 1 source')).toBe(1);
  expect(mail.text).not.toContain(echo.title);
  expect(mail.text).toContain('Chainwire Daily');
  expect(mail.text).toContain(other.title);
  expect(mail.text).toMatch(/2 stories picked for you/);

  // The e-mail as a mail client shows it: on a blank page, not under the site's CSP.
  await page.goto('about:blank');
  for (const width of WIDTHS) {
    await showAt(page, width);
    await page.setContent(mail.html);
    await expect(page.getByRole('heading', { name: lead.title })).toHaveCount(1);
    await expect(page.getByText('also covered by 1 source')).toBeVisible();
    const source = page.getByRole('link', { name: 'Chainwire Daily' });
    await expect(source).toBeVisible();
    // Through the click redirect, as every story link of an issue.
    await expect(source).toHaveAttribute('href', /\/r\//);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  }
});
