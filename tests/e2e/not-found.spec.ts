import { expect, test } from './fixtures';

test.use({ allowConsoleErrors: [/status of 404/] });

for (const path of [
  '/not-found',
  '/no/such/page',
  '/a/no-such-audience',
  '/p/no-such-post',
  '/cc/no-such-card-01ABCDEF',
]) {
  test(`${path} answers 404 with the not-found page`, async ({ page }) => {
    const response = await page.goto(path);
    expect(response?.status()).toBe(404);
    await expect(page).toHaveTitle('Page not found · Cluefeed');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await page.getByRole('link', { name: 'Back to Home' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(
      page.getByRole('heading', { name: "Discover the news you're missing." }),
    ).toBeVisible();
  });
}
