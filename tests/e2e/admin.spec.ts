import { ulid } from 'ulid';
import * as Streams from '#core/streams';
import { expect, test } from './fixtures';

// Jobs share one queue and the actions refuse to start while one runs: these run in order.
test.describe.configure({ mode: 'default' });

const ADMIN = { userName: 'admin', password: 'e2e-admin-password-0123' };
const FEEDS = `http://127.0.0.1:${process.env.FIXTURE_FEEDS_PORT}`;

async function signIn(page: import('@playwright/test').Page, password = ADMIN.password) {
  await page.getByLabel('User name').fill(ADMIN.userName);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test.describe('guard and sign-in', () => {
  test.use({ allowConsoleErrors: [/status of 401/] });

  test('an admin page without a session goes to sign-in with returnUrl, and back after it', async ({
    page,
  }) => {
    await page.goto('/admin-panel/logs?date=2026-01-01');
    await expect(page).toHaveURL(
      /\/admin-panel\/authorize\?returnUrl=%2Fadmin-panel%2Flogs%3Fdate%3D2026-01-01$/,
    );
    await signIn(page);
    await expect(page).toHaveURL(/\/admin-panel\/logs\?date=2026-01-01$/);
    await expect(page.getByRole('heading', { name: 'Monitor Logs' })).toBeVisible();
  });

  test('a failed sign-in shows the message and clears the password', async ({ page }) => {
    await page.goto('/admin-panel/authorize');
    await signIn(page, 'not-the-password');
    await expect(page.getByRole('alert')).toHaveText('Access denied: Invalid credentials');
    await expect(page.getByLabel('Password')).toHaveValue('');
    await expect(page.getByLabel('User name')).toHaveValue(ADMIN.userName);
  });

  test('sign-in returns to the last admin route; logout goes to sign-in with returnUrl', async ({
    page,
  }) => {
    await page.goto('/admin-panel/authorize');
    await signIn(page);
    await expect(page).toHaveURL(/\/admin-panel\/content-automations$/);
    await expect(page.getByText(ADMIN.userName, { exact: true })).toBeVisible();
    await page.getByRole('link', { name: 'Monitor Logs' }).click();
    await expect(page.getByRole('heading', { name: 'Monitor Logs' })).toBeVisible();
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/admin-panel\/authorize\?returnUrl=%2Fadmin-panel%2Flogs$/);
    await page.goto('/admin-panel/content-automations');
    await expect(page).toHaveURL(/\/admin-panel\/authorize/);
    await page.goto('/admin-panel/authorize');
    await signIn(page);
    await expect(page).toHaveURL(/\/admin-panel\/logs$/);
  });

  test('actions and data refuse a request without a session', async ({ request }) => {
    for (const path of ['/admin-panel/status', '/admin-panel/logs/lines', '/admin-panel/outbox']) {
      const response = await request.get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBe(302);
      expect(response.headers()['location']).toMatch(/^\/admin-panel\/authorize/);
    }
    const post = await request.post('/admin-panel/content-automations', {
      form: { intent: 'import' },
      headers: { Origin: new URL(process.env.PUBLIC_URL!).origin },
      maxRedirects: 0,
    });
    expect(post.status()).toBe(302);
  });

  test('admin POSTs from another site, or without an Origin, are refused', async ({ request }) => {
    for (const headers of [{}, { Origin: 'https://evil.example' }] as Record<string, string>[]) {
      const post = await request.post('/admin-panel/content-automations', {
        form: { intent: 'import' },
        headers,
        maxRedirects: 0,
      });
      expect(post.status(), JSON.stringify(headers)).toBe(403);
      const signIn = await request.post('/admin-panel/authorize', {
        form: ADMIN,
        headers,
        maxRedirects: 0,
      });
      expect(signIn.status(), JSON.stringify(headers)).toBe(403);
      expect(signIn.headers()['set-cookie']).toBeUndefined();
    }
  });
});

test.describe('content automations', () => {
  test.describe.configure({ timeout: 120_000 });
  // A refused action answers 400, which the browser logs.
  test.use({ allowConsoleErrors: [/status of 400/] });

  test('a slow stream: the running notice disables the actions, then goes', async ({ page }) => {
    await page.goto('/admin-panel/authorize');
    await signIn(page);
    const url = `${FEEDS}/slow?e2e=${ulid()}`;
    await page.getByLabel('Stream name').fill('Slow feed');
    await page.getByLabel('Feed URL').fill(url);
    await page.getByRole('button', { name: 'Add stream and import articles' }).click();
    await expect(
      page
        .getByRole('status')
        .filter({ hasText: 'Successfully triggered add stream and import articles' }),
    ).toBeVisible();
    const notice = page
      .getByRole('status')
      .filter({ hasText: 'Actions are disabled while these processes run' });
    await expect(notice).toBeVisible();
    await expect(notice).toContainText('add-stream-and-import-articles');
    await expect(page.getByRole('button', { name: 'Import articles', exact: true })).toBeDisabled();
    await expect(notice).toBeHidden({ timeout: 45_000 });
    await expect(page.getByRole('button', { name: 'Import articles', exact: true })).toBeEnabled();
    await page.reload();
    await expect(
      page.getByRole('table', { name: /Streams/ }).getByRole('row', { name: /Slow feed/ }),
    ).toContainText('Feed did not answer');
  });

  test('add a stream: the job runs and its articles appear', async ({ page }) => {
    await page.goto('/admin-panel/authorize');
    await signIn(page);
    const url = `${FEEDS}/validator-weekly.json?e2e=${ulid()}`;
    await page.getByLabel('Stream name').fill('Validator Weekly (e2e)');
    await page.getByLabel('Feed URL').fill(url);
    await page.getByRole('button', { name: 'Add stream and import articles' }).click();
    await expect(
      page
        .getByRole('status')
        .filter({ hasText: 'Successfully triggered add stream and import articles' }),
    ).toBeVisible();
    await expect
      .poll(async () => (await Streams.byUrl(url))?.lastImportAt, { timeout: 20_000 })
      .toBeTruthy();
    await page.reload();
    await expect(
      page
        .getByRole('table', { name: /Streams/ })
        .getByRole('row', { name: /Validator Weekly \(e2e\)/ }),
    ).toBeVisible();
    await expect(page.getByRole('heading', { name: /Latest articles/ })).not.toHaveText(
      'Latest articles (0 in all)',
    );
    await expect(
      page.getByRole('table', { name: /Latest articles/ }).getByRole('row'),
    ).not.toHaveCount(1);
  });

  test('explains bad input without queuing anything', async ({ page }) => {
    await page.goto('/admin-panel/authorize');
    await signIn(page);
    await page.getByLabel('Stream name').fill('Broken');
    await page.getByLabel('Feed URL').fill('ftp://example.org/feed');
    await page.getByRole('button', { name: 'Add stream and import articles' }).click();
    await expect(page.getByRole('alert')).toHaveText('Please add a valid feed URL');
  });
});

test('watching logs refreshes until stopped, and stops by itself on an empty day', async ({
  page,
}) => {
  await page.goto('/admin-panel/logs');
  await signIn(page);
  await expect(page.getByLabel('Number of lines')).toHaveValue('1000');
  await page.getByRole('button', { name: 'Watch logs' }).click();
  await expect(page.getByRole('button', { name: 'Stop watching logs' })).toBeVisible();
  await expect(page.locator('.log-line').first()).toBeVisible();
  await expect(page.locator('.log-line__level').first()).toHaveText(/^(debug|info|error)$/);
  await page.getByLabel('Number of lines').press('Enter');
  await expect(page).toHaveURL(/\/admin-panel\/logs$/);
  await page.getByRole('button', { name: 'Stop watching logs' }).click();
  await expect(page.getByRole('button', { name: 'Watch logs' })).toBeVisible();

  await page.getByLabel('Date').fill('2020-01-01');
  await page.getByRole('button', { name: 'Watch logs' }).click();
  await expect(page.getByText('No logs for the selected date')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Watch logs' })).toBeVisible();
});

test.describe('outbox', () => {
  // Playwright's tracing reaches into every frame; the e-mail frames are sandboxed without scripts.
  test.use({
    allowConsoleErrors: [/^Blocked script execution in '.*\/admin-panel\/outbox\/.*sandboxed/],
  });

  test('the outbox shows the e-mails the product sent', async ({ page }) => {
    await page.goto('/a/defi-protocol-builders');
    const email = `outbox-${ulid().toLowerCase()}@example.org`;
    await page.locator('.audience__hero').getByPlaceholder('Enter your email').fill(email);
    await page.locator('.audience__hero').getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.getByRole('heading', { name: 'Assemble your newsletter' })).toBeVisible();
    await page.goto('/admin-panel/outbox');
    await signIn(page);
    const message = page.locator('.outbox-message').filter({ hasText: email });
    await expect(
      message.getByRole('heading', { name: 'Confirm your Cluefeed subscription' }),
    ).toBeVisible();
    // The e-mail is framed sandboxed (no scripts), so its HTML is checked as the frame loads it.
    const frame = message.locator('iframe');
    await expect(frame).toBeVisible();
    const html = await (await page.request.get((await frame.getAttribute('src'))!)).text();
    expect(html).toContain('Confirm my subscription');
  });
});
