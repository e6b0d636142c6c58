// A reader's sign-in journey: /feed without a session goes to /login, a wrong password shows the
// message and clears the field, the right one lands on the feed with the reader's clues, and
// Logout ends the session (the feed then sends them back to /login).
import { readerWithPassword } from '#tests/integration/readers';
import { expect, offlineImages, test } from './fixtures';

test.beforeEach(async ({ page }) => offlineImages(page));

test.describe('reader sign-in', () => {
  test.use({ allowConsoleErrors: [/status of 401/] });

  test('signs in at /login, sees the feed and their clues, logs out back to /login', async ({
    page,
  }) => {
    const reader = await readerWithPassword({
      name: 'Journey Reader',
      clues: ['I build DeFi protocols', 'I trade NFTs'],
    });

    await page.goto('/feed');
    await expect(page).toHaveURL(/\/login\?returnUrl=%2Ffeed$/);
    await expect(page).toHaveTitle('Sign in · Cluefeed');

    await page.getByLabel('E-mail or username').fill(reader.email.toUpperCase());
    await page.getByLabel('Password').fill('not-the-password-1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toHaveText('Access denied: Invalid credentials');
    await expect(page.getByLabel('Password')).toHaveValue('');
    await expect(page.getByLabel('E-mail or username')).toHaveValue(reader.email.toUpperCase());

    await page.getByLabel('Password').fill(reader.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/feed$/);
    await expect(page).toHaveTitle('Stories for you · Cluefeed');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Stories for you');
    await expect(page.getByText('Picked based on the clues you shared')).toBeVisible();
    await expect(page.getByText(/^Your stories are being picked./)).toBeVisible();
    const clues = page.getByRole('complementary', { name: "Here are the clues you've given us" });
    await expect(clues.getByRole('listitem')).toHaveText([
      'I build DeFi protocols',
      'I trade NFTs',
    ]);
    await expect(page.getByRole('navigation', { name: 'User menu' })).toContainText(
      'Journey Reader',
    );

    // Signed in, /login goes straight back to the feed.
    await page.goto('/login');
    await expect(page).toHaveURL(/\/feed$/);

    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await page.goto('/feed');
    await expect(page).toHaveURL(/\/login\?returnUrl=%2Ffeed$/);
  });

  test("an admin's session does not open the feed", async ({ page }) => {
    await page.goto('/admin-panel/authorize');
    await page.getByLabel('User name').fill('admin');
    await page.getByLabel('Password').fill('e2e-admin-password-0123');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/admin-panel\/content-automations$/);
    await page.goto('/feed');
    await expect(page).toHaveURL(/\/login\?returnUrl=%2Ffeed$/);
  });
});
