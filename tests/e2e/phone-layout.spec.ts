// What a reader sees on a phone (390 px wide): nothing wider than the screen, a compact bottom bar.
import { ulid } from 'ulid';
import { expect, test } from './fixtures';
import { stylesLoaded } from './page-checks';
import { busyAudience } from './seed';

test.use({ viewport: { width: 390, height: 844 } });

/** A 64-character address, the kind that used to push pages wide. */
function longAddress() {
  const domain = '@example.org';
  const local = `e2e-phone-${ulid().toLowerCase()}`;
  return `${local.padEnd(64 - domain.length, 'x')}${domain}`;
}

async function expectNoHorizontalOverflow(page: import('@playwright/test').Page) {
  await stylesLoaded(page);
  const width = await page.evaluate(() => document.scrollingElement!.scrollWidth);
  expect(width, 'page width at 390 px').toBeLessThanOrEqual(390);
}

test('the audience page and its bottom bar fit a phone', async ({ page }) => {
  await page.goto(`/a/${busyAudience.slug}`);
  await expectNoHorizontalOverflow(page);
  await page.evaluate(() => window.scrollTo(0, 1200));
  const bar = page.getByRole('complementary', { name: 'Subscribe' });
  await expect(bar).toBeVisible();
  const box = (await bar.boundingBox())!;
  expect(box.height, 'bottom bar height').toBeLessThanOrEqual(160);
  const title = bar.locator('strong');
  const lines = await title.evaluate((element) => {
    const style = getComputedStyle(element);
    return element.getBoundingClientRect().height / parseFloat(style.lineHeight);
  });
  expect(Math.round(lines), 'lines of the bar title').toBeLessThanOrEqual(1);
  const expect_ = (await bar.getByRole('button', { name: 'What to expect' }).boundingBox())!;
  expect(expect_.x + expect_.width, "'What to expect' right edge").toBeLessThanOrEqual(390);
  await expectNoHorizontalOverflow(page);
});

test('a long address does not widen the assemble page', async ({ page }) => {
  const email = longAddress();
  await page.goto(`/a/${busyAudience.slug}`);
  const hero = page.locator('.audience__hero');
  await hero.getByPlaceholder('Enter your email').fill(email);
  await hero.getByRole('button', { name: 'Subscribe' }).click();
  // The first subscription of a fresh server can take a few seconds under a parallel run.
  await expect(page.getByRole('heading', { name: 'Assemble your newsletter' })).toBeVisible({
    timeout: 15_000,
  });
  await expect(page.getByText(email)).toBeVisible();
  await expectNoHorizontalOverflow(page);
});

test.describe('admin outbox', () => {
  test.use({
    allowConsoleErrors: [/^Blocked script execution in '.*\/admin-panel\/outbox\/.*sandboxed/],
  });

  test('a long address does not widen the outbox', async ({ page }) => {
    const email = longAddress();
    await page.goto(`/a/${busyAudience.slug}`);
    await page.locator('.audience__hero').getByPlaceholder('Enter your email').fill(email);
    await page.locator('.audience__hero').getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.getByRole('heading', { name: 'Assemble your newsletter' })).toBeVisible({
      timeout: 15_000,
    });
    await page.goto('/admin-panel/outbox');
    await page.getByLabel('User name').fill('admin');
    await page.getByLabel('Password').fill('e2e-admin-password-0123');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.locator('.outbox-message').filter({ hasText: email })).toBeVisible();
    await expectNoHorizontalOverflow(page);
  });
});
