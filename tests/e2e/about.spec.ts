import { expect, test } from './fixtures';

test('About shows the mission, three numbered cards and the contact block', async ({ page }) => {
  await page.goto('/about');
  await expect(page).toHaveTitle('About · Cluefeed');
  await expect(page.getByRole('heading', { name: 'Our mission' })).toBeVisible();
  await expect(page.locator('.about__card')).toHaveCount(3);
  await expect(page.locator('.about__number')).toHaveText(['1', '2', '3']);
  await expect(page.locator('address')).toContainText('Athens');
  await expect(page.locator('.site-footer')).toContainText(
    `© ${new Date().getFullYear()} Cluefeed`,
  );
});

test('About opens at the top even when reached from a scrolled page', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 600 });
  await page.goto('/privacy-policy');
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await page.locator('.site-footer').getByRole('link', { name: 'About' }).click();
  await expect(page).toHaveURL(/\/about$/);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
});

test('the privacy policy covers data, collection, sharing, unsubscribing and contact', async ({
  page,
}) => {
  await page.goto('/privacy-policy');
  for (const heading of [
    'What we collect',
    'How we collect it',
    'Sharing',
    'Unsubscribing',
    'Contact',
  ]) {
    await expect(page.getByRole('heading', { name: heading })).toBeVisible();
  }
  await expect(page.getByRole('link', { name: 'hello@cluefeed.xyz' })).toBeVisible();
  // What the code does: no tracking cookies, the session cookies by name, no IP kept with events.
  await expect(page.getByText('we set no tracking cookies')).toBeVisible();
  await expect(page.getByText('cluefeed_user', { exact: true })).toBeVisible();
  await expect(page.getByText(/Your IP address is never stored/)).toBeVisible();
  await expect(page.getByText(/Mailchimp/).first()).toBeVisible();
});
