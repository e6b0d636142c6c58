import { expect, test } from './fixtures';
import { busyAudience, busyAudienceCards, busyAudienceCardsOnOnePage, movedAudience } from './seed';

test('shows 5 content cards, then all of them after View more', async ({ page }) => {
  await page.goto(`/a/${busyAudience.slug}`);
  await expect(page).toHaveTitle(`For those who ${busyAudience.title} · Cluefeed`);
  const cards = page.locator('article.card');
  await expect(cards).toHaveCount(5);
  const firstFive = await cards.locator('.card__title').allTextContents();
  const shownFirst = await page
    .locator('[data-story]')
    .evaluateAll((stories) => stories.map((story) => (story as HTMLElement).dataset.story));
  const nextPage = page.waitForRequest(/\?after=/);
  await page.getByRole('link', { name: 'View more' }).click();
  // The next cards are asked for without the stories shown already: one card per story.
  expect(new URL((await nextPage).url()).searchParams.get('shown')).toBe(shownFirst.join(','));
  await expect(cards).toHaveCount(busyAudienceCardsOnOnePage);
  const shownAll = await page
    .locator('[data-story]')
    .evaluateAll((stories) => stories.map((story) => (story as HTMLElement).dataset.story));
  expect(shownAll.length).toBe(new Set(shownAll).size);
  expect(
    (await cards.locator('.card__title').allTextContents()).slice(0, firstFive.length),
  ).toEqual(firstFive);
  await expect(page.getByRole('link', { name: 'View more' })).toHaveCount(0);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('View more opens the next page of cards', async ({ page }) => {
    await page.goto(`/a/${busyAudience.slug}`);
    const cards = page.locator('article.card');
    await expect(cards).toHaveCount(5);
    const firstFive = await cards.locator('a').first().getAttribute('href');
    await page.getByRole('link', { name: 'View more' }).click();
    await expect(page).toHaveURL(/\?after=/);
    await expect(cards).toHaveCount(Math.min(busyAudienceCards - 5, 20));
    expect(await cards.locator('a').first().getAttribute('href')).not.toBe(firstFive);
  });
});

test('What to expect opens a modal with three points that Ok, Great! closes', async ({ page }) => {
  await page.goto(`/a/${busyAudience.slug}`);
  await page.locator('.audience__hero').getByRole('link', { name: 'What to expect' }).click();
  const dialog = page.getByRole('dialog', { name: 'What to expect' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('listitem')).toHaveCount(3);
  await expect(dialog.getByRole('listitem').nth(1)).toContainText(busyAudience.title);
  await dialog.getByRole('button', { name: 'Ok, Great!' }).click();
  await expect(dialog).toBeHidden();
});

test('the bottom bar appears only after scrolling past 800 pixels', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 700 });
  await page.goto(`/a/${busyAudience.slug}`);
  const bar = page.getByRole('complementary', { name: 'Subscribe' });
  await expect(bar).toBeHidden();
  await page.evaluate(() => window.scrollTo(0, 700));
  await expect(bar).toBeHidden();
  await page.evaluate(() => window.scrollTo(0, 900));
  await expect(bar).toBeVisible();
  await bar.getByRole('button', { name: 'What to expect' }).click();
  await expect(page.getByRole('dialog', { name: 'What to expect' })).toBeVisible();
});

test('an old slug answers 301 to the current one', async ({ page, request }) => {
  const old = movedAudience.pastSlugs[0]!;
  const response = await request.get(`/a/${old}?utm=spring`, { maxRedirects: 0 });
  expect(response.status()).toBe(301);
  expect(response.headers()['location']).toBe(`/a/${movedAudience.slug}?utm=spring`);
  await page.goto(`/a/${old}`);
  await expect(page).toHaveURL(new RegExp(`/a/${movedAudience.slug}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    `For those who ${movedAudience.title}`,
  );
});

test('tracking parameters follow the visitor and the referring audience becomes raud', async ({
  page,
}) => {
  await page.goto(`/a/${busyAudience.slug}?utm=launch&vus=sp`);
  await page.locator('article.card .story__title').first().click();
  await expect(page).toHaveURL(/\/p\/[^?]+\?/);
  const params = new URL(page.url()).searchParams;
  expect(Object.fromEntries(params)).toEqual({ utm: 'launch', vus: 'sp', raud: busyAudience.slug });
});

test('public pages are cacheable by a CDN and carry security headers', async ({ request }) => {
  const response = await request.get(`/a/${busyAudience.slug}`);
  const headers = response.headers();
  expect(headers['cache-control']).toMatch(/s-maxage=\d+/);
  expect(headers['cache-control']).toMatch(/stale-while-revalidate=\d+/);
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
});
