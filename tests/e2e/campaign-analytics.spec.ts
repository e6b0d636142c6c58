// Campaign analytics in real Chromium: an operator opens the page after a rollup, sees the four
// sections' charts and tables, narrows the funnel to a campaign and a landing variant (the
// address follows, Back restores), downloads the funnel's CSV, and the page fits 1280 and 390 px
// with readable controls.
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { ulid } from 'ulid';
import * as Analytics from '#core/analytics';
import * as CampaignAnalytics from '#core/campaign-analytics';
import { expect, hydrated, test } from './fixtures';
import { expectFitsAndReadable } from './page-checks';

const ADMIN = { userName: 'admin', password: 'e2e-admin-password-0123' };
const PATH = '/admin-panel/campaign-analytics';
const DESKTOP_CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

async function signIn(page: Page) {
  await page.goto(PATH);
  await page.getByLabel('User name').fill(ADMIN.userName);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Campaign analytics', level: 1 })).toBeVisible();
}

/** The subscriber funnel's table (step, count, ratio). */
const funnel = (page: Page) => page.getByRole('table', { name: 'Subscriber funnel', exact: true });

/** The number in a campaign row's column (the subscriber funnel table). */
function visitsOf(page: Page, utm: string, variant: string) {
  return page
    .getByRole('table', { name: 'Subscriber funnel by campaign' })
    .getByRole('row', { name: new RegExp(`^${utm} ${variant} `) })
    .getByRole('cell')
    .nth(1);
}

test('an operator reads the figures, narrows the funnel and downloads it', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  // Visits of a campaign of this test's own by four visitors at once, each in a desktop browser of
  // its own (the headless shell's user agent is a known bot): three on the 'sp' landing, served
  // from one shared copy of the page, and one on the default landing.
  const utm = `e2e-${ulid().toLowerCase().slice(-10)}`;
  const visitors = await Promise.all(
    (['sp', 'sp', 'sp', ''] as const).map(async (vus) => {
      const visitor = await browser.newPage({ baseURL, userAgent: DESKTOP_CHROME });
      await visitor.goto(`/?utm=${utm}${vus ? `&vus=${vus}` : ''}`);
      return visitor;
    }),
  );
  const today = new Date().toISOString().slice(0, 10);
  await expect
    .poll(async () => (await Analytics.forDay(today)).filter((e) => e.utm === utm).length)
    .toBe(4);
  await Promise.all(visitors.map((visitor) => visitor.close()));
  // The rollup `npm start` runs at start moves the watermark the page reports; then this test's
  // day is counted again with its visits.
  await expect.poll(async () => (await CampaignAnalytics.watermark())?.rolledAt).toBeTruthy();
  await CampaignAnalytics.rollUpDay(today);

  await signIn(page);
  await hydrated(page);
  await expect(
    page.getByText(/^Figures last updated \d+ \w+ \d{4}, \d\d:\d\d UTC\./),
  ).toBeVisible();
  for (const section of ['Funnel by campaign', 'Audiences', 'Newsletters', 'Readers']) {
    await expect(page.getByRole('heading', { name: section, level: 2 })).toBeVisible();
  }
  for (const chart of [
    'Subscriber funnel',
    'Reader funnel',
    'Visits, subscribes and confirms per day',
    'Subscribers per audience',
    'Active readers, likes, dislikes and clue changes per day',
  ]) {
    const image = page.getByRole('img', { name: new RegExp(`^${chart}\\. `) });
    await expect(image).toBeVisible();
    await expect(image.locator('title')).toHaveText(chart);
  }
  await expect(funnel(page)).toBeVisible();
  await expect(page.getByRole('table', { name: 'Growth and churn per audience' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Readers per day' })).toBeVisible();
  await expect(visitsOf(page, utm, 'sp')).toHaveText('3');
  await expect(visitsOf(page, utm, 'Default landing')).toHaveText('1');

  // The campaign: the address carries it and the funnel shows it alone.
  await page.getByLabel('Campaign (utm)').selectOption({ label: utm });
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]utm=${utm}(&|$)`));
  await expect(funnel(page).getByRole('row', { name: /^Visits / })).toContainText('4');
  // Then the landing variant.
  await page.getByLabel('Landing variant (vus)').selectOption({ label: 'sp' });
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/[?&]vus=sp(&|$)/);
  await expect(funnel(page).getByRole('row', { name: /^Visits / })).toContainText('3');
  // Back: every variant again, in the address, the select and the figures.
  await page.goBack();
  await expect(page).not.toHaveURL(/vus=sp/);
  await expect(page.getByLabel('Landing variant (vus)')).toHaveValue('');
  await expect(funnel(page).getByRole('row', { name: /^Visits / })).toContainText('4');

  // The funnel's CSV: what the page shows, for the same range and campaign.
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download funnel by campaign CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(
    new RegExp(`^campaign-analytics-funnel-\\d{4}-\\d{2}-\\d{2}-to-${today}\\.csv$`),
  );
  const rows = (await readFile((await file.path())!, 'utf8')).trimEnd().split('\r\n');
  expect(rows[0]).toMatch(/^"table","day","campaign \(utm\)","landing variant \(vus\)",/);
  expect(rows).toContainEqual(
    expect.stringMatching(new RegExp(`^"by campaign","","${utm}","sp","","3",`)),
  );

  await expectFitsAndReadable(page, 'Campaign analytics');
});

test.describe('a bad range', () => {
  test.use({ allowConsoleErrors: [/status of 400 /] });

  test('shows the message on the page, with a 400', async ({ page }) => {
    await signIn(page);
    const answer = await page.goto(`${PATH}?from=2026-03-02&to=2026-03-01`);
    expect(answer?.status()).toBe(400);
    await expect(page.getByRole('alert')).toHaveText(CampaignAnalytics.REPORT_MESSAGES.reversed);
    await expectFitsAndReadable(page, 'Campaign analytics with a bad range');
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the filters are a plain GET form, and Back returns to the range before', async ({
    page,
  }) => {
    await signIn(page);
    const from = await page.getByLabel('From', { exact: true }).inputValue();
    await page.getByLabel('From', { exact: true }).fill('2026-11-01');
    await page.getByLabel('To', { exact: true }).fill('2026-11-07');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/\?from=2026-11-01&to=2026-11-07&utm=&vus=$/);
    await expect(page.getByText(/Days are UTC days, 2026-11-01 to 2026-11-07\./)).toBeVisible();
    await expect(page.getByRole('table', { name: 'Readers per day' }).getByRole('row')).toHaveCount(
      8,
    );
    await page.goBack();
    await expect(page.getByLabel('From', { exact: true })).toHaveValue(from);
    await expect(page.getByText(new RegExp(`Days are UTC days, ${from} to `))).toBeVisible();
  });
});
