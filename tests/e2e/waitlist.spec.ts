import { ulid } from 'ulid';
import * as Waitlist from '#core/waitlist';
import { expect, test } from './fixtures';
import * as ContentCards from '#core/content-cards';

const field = (page: import('@playwright/test').Page) => page.getByPlaceholder('Enter your email');
const submit = (page: import('@playwright/test').Page) =>
  page.getByRole('button', { name: 'Join our waiting list' });

test('explains an empty and an invalid address, and marks a valid one', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByText(`© ${new Date().getFullYear()} Cluefeed`)).toBeVisible();
  await submit(page).click();
  await expect(page.getByRole('alert')).toHaveText('Please enter your email address');
  await field(page).fill('not-an-email');
  await field(page).blur();
  await expect(field(page)).toHaveAttribute('aria-invalid', 'true');
  // Typing on with the same mistake keeps the same alert, so it is not announced at every key.
  const alert = page.locator('form.waitlist .field__error');
  await expect(alert).toHaveText('Please enter a valid email address');
  await alert.evaluate((element) => element.setAttribute('data-seen', 'yes'));
  await field(page).pressSequentially('-still', { delay: 20 });
  await expect(alert).toHaveAttribute('data-seen', 'yes');
  // A submit with the same mistake says it again: the alert is put back.
  await submit(page).click();
  await expect(page.getByRole('alert')).toHaveText('Please enter a valid email address');
  await expect(alert).not.toHaveAttribute('data-seen', 'yes');
  await field(page).fill('reader@example.org');
  await expect(page.getByRole('img', { name: 'Valid email' })).toBeVisible();
  await expect(field(page)).toHaveAttribute('aria-invalid', 'false');
});

test('joins the waiting list: Submitting..., a success banner for 8 seconds, one stored entry', async ({
  page,
}) => {
  const email = `e2e-${ulid().toLowerCase()}@example.org`;
  await page.clock.install();
  await page.goto('/?utm=spring');
  // The real server answers within milliseconds: record every state the form passes through
  // instead of holding the request, so the journey runs against the server's own answers.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { seen: string[] }).seen = seen;
    new MutationObserver(() => {
      const button = document.querySelector('form.waitlist button[type="submit"]');
      const spinner = document.querySelector('form.waitlist [role="status"][aria-label="Sending"]');
      seen.push(
        `${button?.textContent}|${(button as HTMLButtonElement | null)?.disabled}|${Boolean(spinner)}`,
      );
    }).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
  });
  await page.clock.pauseAt(new Date(Date.now() + 5_000));
  await field(page).fill(email);
  await submit(page).click();
  const banner = page.getByRole('status').filter({ hasText: "You're on the list!" });
  await expect(banner).toBeVisible();
  await expect(field(page)).toHaveValue('');
  const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
  expect(seen, 'button disabled with a spinner while sending').toContain('Submitting...|true|true');
  await expect(submit(page)).toBeEnabled();
  expect(await Waitlist.byEmail(email)).toMatchObject({ email, utm: 'spring' });
  // The clock stood still since before the submit: the banner goes exactly 8 seconds after it came.
  await page.clock.runFor(7_999);
  await expect(banner).toBeVisible();
  await page.clock.runFor(1);
  await expect(banner).toBeHidden();
});

test('shows a typed space as invalid instead of removing it, and stores nothing', async ({
  page,
}) => {
  const email = `e2e-space-${ulid().toLowerCase()}@example.org`;
  await page.goto('/');
  await field(page).pressSequentially(`e2e-space-${email.slice(10, 20)} ${email.slice(20)}`);
  await field(page).blur();
  await expect(field(page)).toHaveValue(/ /);
  await expect(field(page)).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('img', { name: 'Valid email' })).toHaveCount(0);
  await submit(page).click();
  await expect(page.getByRole('alert')).toHaveText('Please enter a valid email address');
  expect(await Waitlist.byEmail(email)).toBeUndefined();
});

// The one journey that needs a failing server: the real one refuses only input this form never
// sends, and an outage cannot be caused on demand without failing the journeys that share it. So
// this test, alone, answers the submit with a 500.
test.describe('when the server fails', () => {
  test.use({ allowConsoleErrors: [/status of 500/] });

  test('shows the error banner until it is closed', async ({ page }) => {
    await page.clock.install();
    await page.route('/api/submit-email', (route) => route.fulfill({ status: 500, body: '{}' }));
    await page.goto('/');
    await field(page).fill('reader@example.org');
    await submit(page).click();
    const banner = page.getByRole('alert');
    await expect(banner).toHaveText(
      /An error occurred\. Please try again or send us an email at hello@cluefeed\.xyz/,
    );
    await page.clock.fastForward(20_000);
    await expect(banner).toBeVisible();
    await banner.getByRole('button', { name: 'Close' }).click();
    await expect(banner).toBeHidden();
    await expect(submit(page)).toBeEnabled();
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the form still joins the list', async ({ page }) => {
    const email = `nojs-${ulid().toLowerCase()}@example.org`;
    await page.goto('/');
    await field(page).fill(email);
    await submit(page).click();
    await expect(page.getByText("You're on the list!")).toBeVisible();
    expect(await Waitlist.byEmail(email)).toMatchObject({ email });
  });

  test('the audience page, menu and View more work', async ({ page }) => {
    const { busyAudience, busyAudienceCards } = await import('./seed');
    await page.goto(`/a/${busyAudience.slug}`);
    await page.getByRole('link', { name: 'View more' }).click();
    // Without JavaScript, View more opens the next page of cards.
    await expect(page.locator('article.card')).toHaveCount(
      busyAudienceCards - ContentCards.CARDS_BEFORE_VIEW_MORE,
    );
    await page.getByText('Menu', { exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Browse our audiences' })).toBeVisible();
  });
});
