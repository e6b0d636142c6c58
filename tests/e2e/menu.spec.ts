import { expect, test } from './fixtures';
import { featuredAudiences } from './seed';

test('the menu shows the featured audiences and closes when one is chosen', async ({ page }) => {
  await page.goto('/');
  const menu = page.locator('details.menu');
  await page.getByText('Menu', { exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Browse our audiences' })).toBeVisible();
  const cloud = menu.locator('.cloud a');
  await expect(cloud).toHaveCount(featuredAudiences.length);
  const first = featuredAudiences[0]!;
  await cloud.filter({ hasText: first.title }).first().click();
  await expect(page).toHaveURL(new RegExp(`/a/${first.slug}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`For those who ${first.title}`);
  await expect(page.getByRole('heading', { name: 'Browse our audiences' })).toBeHidden();
});

test('the menu toggles closed again and its About link leads to About', async ({ page }) => {
  await page.goto('/privacy-policy');
  const toggler = page.getByText('Menu', { exact: true });
  await toggler.click();
  await expect(page.getByRole('heading', { name: 'Browse our audiences' })).toBeVisible();
  await toggler.click();
  await expect(page.getByRole('heading', { name: 'Browse our audiences' })).toBeHidden();
  await toggler.click();
  await page.locator('.menu__panel').getByRole('link', { name: 'About' }).click();
  await expect(page).toHaveURL(/\/about$/);
  await expect(page.getByRole('heading', { name: 'Browse our audiences' })).toBeHidden();
});

test('Escape closes the menu', async ({ page }) => {
  await page.goto('/about');
  await page.getByText('Menu', { exact: true }).click();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('heading', { name: 'Browse our audiences' })).toBeHidden();
});
