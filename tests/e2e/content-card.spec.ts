import { expect, test } from './fixtures';
import { busyAudience } from './seed';

test('a content card opens from its audience page and shows its stories', async ({ page }) => {
  await page.goto(`/a/${busyAudience.slug}`);
  const firstCard = page.locator('article.card').first();
  const descriptor = (await firstCard.locator('.card__title').textContent())!.trim();
  const primaryTitle = (await firstCard.locator('.story__title').first().textContent())!.trim();
  await firstCard.locator('.card__title a').click();
  await expect(page).toHaveURL(/\/cc\/[a-z0-9-]+-[0-9A-Z]+/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(descriptor);
  await expect(page).toHaveTitle(`${descriptor} · Cluefeed`);
  await expect(page.getByRole('link', { name: primaryTitle })).toBeVisible();
});

test('a card URL with an outdated slug part answers 301 to the card', async ({ page, request }) => {
  await page.goto(`/a/${busyAudience.slug}`);
  const href = (await page.locator('article.card .card__title a').first().getAttribute('href'))!;
  const { pathname } = new URL(href, 'http://localhost');
  const id = pathname.split('-').at(-1)!;
  const response = await request.get(`/cc/some-old-words-${id}`, { maxRedirects: 0 });
  expect(response.status()).toBe(301);
  expect(response.headers()['location']).toBe(pathname);
});
