import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { ulid } from 'ulid';
import * as Articles from '#core/articles';
import * as Automations from '#core/automations';
import * as Jobs from '#core/jobs';
import * as Logs from '#core/logs';
import * as Streams from '#core/streams';
import { FIXTURE_FEEDS_DIR } from '#tests/fakes/feed-server';
import { formatTime } from '#web/lib/format';
import { afterStatusPolls, expect, STATUS_POLL_MS, test } from './fixtures';

// Jobs share one queue and the actions refuse to start while one runs: these run in order.
test.describe.configure({ mode: 'default' });

const ADMIN = { userName: 'admin', password: 'e2e-admin-password-0123' };
const FEEDS = `http://127.0.0.1:${process.env.FIXTURE_FEEDS_PORT}`;
/** The stories of the Validator Weekly fixture: every one is new the first time it is imported. */
const VALIDATOR_WEEKLY_ITEMS = (
  JSON.parse(readFileSync(`${FIXTURE_FEEDS_DIR}/validator-weekly.json`, 'utf8')) as {
    items: unknown[];
  }
).items.length;

/** The total the Content Automations page shows in 'Latest articles (N in all)'. */
async function shownArticleCount(page: Page): Promise<number> {
  const heading = await page.getByRole('heading', { name: /Latest articles/ }).textContent();
  return Number(/\((\d+) in all\)/.exec(heading ?? '')?.[1]);
}

async function signIn(page: Page, password = ADMIN.password) {
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

  test('admin POSTs without an Origin are refused with a 403; from another site, refused', async ({
    request,
  }) => {
    const post = await request.post('/admin-panel/content-automations', {
      form: { intent: 'import' },
      maxRedirects: 0,
    });
    expect(post.status()).toBe(403);
    const signIn = await request.post('/admin-panel/authorize', { form: ADMIN, maxRedirects: 0 });
    expect(signIn.status()).toBe(403);
    expect(signIn.headers()['set-cookie']).toBeUndefined();
    // Remix refuses an Origin that is not the Host before any action runs (with a bare 500, its
    // own answer); the admin guard refuses the rest (see web/routes/admin/origin.test.ts).
    const forged = await request.post('/admin-panel/authorize', {
      form: ADMIN,
      headers: { Origin: 'https://evil.example' },
      maxRedirects: 0,
    });
    expect(forged.status()).toBeGreaterThanOrEqual(400);
    expect(forged.headers()['set-cookie']).toBeUndefined();
  });
});

test.describe('content automations', () => {
  test.describe.configure({ timeout: 120_000 });
  // A refused action answers 400 or 409, which the browser logs.
  test.use({ allowConsoleErrors: [/status of 40[09] /] });

  test('a slow stream: the running notice disables the actions, then goes', async ({ page }) => {
    await page.clock.install();
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
    // The job's title, in the product's words, not its name.
    await expect(notice).toContainText('Adding a stream and importing its articles');
    await expect(notice).not.toContainText('add-stream-and-import-articles');
    await expect(page.getByRole('button', { name: 'Import articles', exact: true })).toBeDisabled();
    // The feed's 10 s deadline ends the job; a status poll then sees that it ended.
    await afterStatusPolls(page, () => expect(notice).toBeHidden({ timeout: 1_000 }));
    await expect(page.getByRole('button', { name: 'Import articles', exact: true })).toBeEnabled();
    // The stream's problem shows without a reload: the poll saw the process end.
    await expect(
      page.getByRole('table', { name: /Streams/ }).getByRole('row', { name: /Slow feed/ }),
    ).toContainText('Feed did not answer');
  });

  test("a stream at DynamoDB Local's port is refused before any connection", async ({ page }) => {
    // npm start allows the fixture feeds' origin only, not every port of 127.0.0.1.
    const dynamoPort = new URL(process.env.DYNAMODB_ENDPOINT!).port;
    const url = `http://127.0.0.1:${dynamoPort}/?e2e=${ulid()}`;
    await page.clock.install();
    await page.goto('/admin-panel/authorize');
    await signIn(page);
    await page.getByLabel('Stream name').fill('Local port');
    await page.getByLabel('Feed URL').fill(url);
    await page.getByRole('button', { name: 'Add stream and import articles' }).click();
    const refused = 'Refused: 127.0.0.1 resolves to a private address';
    const row = page
      .getByRole('table', { name: /Streams/ })
      .getByRole('row', { name: /Local port/ });
    await afterStatusPolls(page, () => expect(row).toContainText(refused, { timeout: 1_000 }));
    expect((await Streams.byUrl(url))?.lastError).toBe(refused);
    // The next journey's action waits for no job of this one.
    const notice = page.getByText('Actions are disabled while these processes run');
    await afterStatusPolls(page, () => expect(notice).toBeHidden({ timeout: 1_000 }));
  });

  test('add a stream: the job runs, and the stream, the article count and the newest articles show without a reload', async ({
    page,
  }) => {
    await page.clock.install();
    await page.goto('/admin-panel/authorize');
    await signIn(page);
    const before = await shownArticleCount(page);
    const url = `${FEEDS}/validator-weekly.json?e2e=${ulid()}`;
    await page.getByLabel('Stream name').fill('Validator Weekly (e2e)');
    await page.getByLabel('Feed URL').fill(url);
    await page.getByRole('button', { name: 'Add stream and import articles' }).click();
    await expect(
      page
        .getByRole('status')
        .filter({ hasText: 'Successfully triggered add stream and import articles' }),
    ).toBeVisible();
    const row = page
      .getByRole('table', { name: /Streams/ })
      .getByRole('row', { name: /Validator Weekly \(e2e\)/ });
    await afterStatusPolls(page, () => expect(row).toBeVisible({ timeout: 1_000 }), 25_000);
    await expect
      .poll(async () => (await Streams.byUrl(url))?.lastResult, { timeout: 20_000 })
      .toBeTruthy();
    const result = JSON.parse((await Streams.byUrl(url))!.lastResult!) as Streams.ImportResult;
    // Six stories, each stored now unless the hourly scheduled import of the seeded Validator
    // Weekly stream stored it first; either way the page shows exactly what was stored.
    expect(VALIDATOR_WEEKLY_ITEMS).toBe(6);
    expect(result).toMatchObject({ found: VALIDATOR_WEEKLY_ITEMS, notModified: false });
    expect(result.new + result.duplicates).toBe(VALIDATOR_WEEKLY_ITEMS);
    // The count and the table follow the store without a reload: every article (the stream's new
    // ones more than before, and whatever journeys running beside this one stored meanwhile), and
    // the newest 20 by publication date. The stream's stories are among those 20 unless 20 later
    // ones were stored (the feed journey dates its stories minutes ahead), so the table is held to
    // the store, not to them.
    const latest = page.getByRole('heading', { name: /Latest articles/ });
    await afterStatusPolls(
      page,
      async () => {
        const stored = await Articles.count();
        expect(stored).toBeGreaterThanOrEqual(before + result.new);
        await expect(latest).toHaveText(`Latest articles (${stored} in all)`, { timeout: 1_000 });
      },
      25_000,
    );
    const titles = page
      .getByRole('table', { name: /Latest articles/ })
      .locator('tbody tr td:nth-child(2)');
    await afterStatusPolls(
      page,
      async () =>
        expect(titles).toHaveText(
          (await Articles.latest(20)).map(({ title }) => title),
          { timeout: 1_000 },
        ),
      25_000,
    );
  });

  test('a known feed URL under a new name is refused, naming its stream', async ({ page }) => {
    const url = `${FEEDS}/protocol-review.xml?e2e=${ulid()}`;
    await Streams.create({ name: 'Protocol Review (e2e)', url });
    await page.goto('/admin-panel/authorize');
    await signIn(page);
    await page.getByLabel('Stream name').fill('Another name');
    await page.getByLabel('Feed URL').fill(url);
    await page.getByRole('button', { name: 'Add stream and import articles' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'This feed URL is already added as "Protocol Review (e2e)"',
    );
    await expect(page.getByText('Actions are disabled while these processes run')).toBeHidden();
    expect((await Streams.byUrl(url))?.name).toBe('Protocol Review (e2e)');
  });

  test('after an import the last run and the count update without a reload', async ({ page }) => {
    await page.clock.install();
    await page.goto('/admin-panel/authorize');
    await signIn(page);
    const lastRun = page.getByText(/^Last import run:/);
    await page.getByRole('button', { name: 'Import articles', exact: true }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Successfully triggered scheduled import' }),
    ).toBeVisible();
    await expect
      .poll(async () => (await Jobs.lastRun(Automations.importArticles.name))?.status, {
        timeout: 45_000,
      })
      .toMatch(/^(Success|Failed)$/);
    const run = (await Jobs.lastRun(Automations.importArticles.name))!;
    const imported = await Articles.count();
    const started = formatTime(run.startTime ?? run.createdAt);
    // A status poll sees the end and reloads the page's data.
    const ended = `Last import run: ${started}, ${run.status === 'Success' ? 'done' : 'failed'}.`;
    await afterStatusPolls(
      page,
      () => expect(lastRun).toHaveText(ended, { timeout: 1_000 }),
      15_000,
    );
    // The import queued the scoring of its new articles: actions stay disabled while that runs,
    // and the next status poll after it ends enables them.
    await expect.poll(async () => (await Jobs.active()).length, { timeout: 60_000 }).toBe(0);
    const importArticles = page.getByRole('button', { name: 'Import articles', exact: true });
    await afterStatusPolls(
      page,
      () => expect(importArticles).toBeEnabled({ timeout: 1_000 }),
      15_000,
    );
    // The page shows what the import left; a journey running beside this one may add more.
    const shown = await shownArticleCount(page);
    expect(shown).toBeGreaterThanOrEqual(imported);
    expect(shown).toBeLessThanOrEqual(await Articles.count());
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

test.describe('polling', () => {
  /** The spec's interval for watched logs: every second. */
  const WATCH_EVERY_MS = 1_000;

  /** Requests to `path` the page sends, and the Cache-Control each answer carries. */
  function watch(page: Page, path: string) {
    const sent: string[] = [];
    const cacheControl = new Set<string>();
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith(path)) sent.push(request.url());
    });
    page.on('response', (response) => {
      if (new URL(response.url()).pathname.startsWith(path))
        cacheControl.add(response.headers()['cache-control'] ?? '');
    });
    return { sent, cacheControl };
  }

  /** Lets a tick's request and its answer happen, and any second request that would follow. */
  async function settle(page: Page) {
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(300);
  }

  test('the status poll sends one request per tick, and nothing stores its answer', async ({
    page,
  }) => {
    await page.clock.install();
    await page.goto('/admin-panel/content-automations');
    await signIn(page);
    await expect(page.getByRole('heading', { name: 'Content Automations' })).toBeVisible();
    await page.clock.pauseAt(Date.now() + 1_000);
    const status = watch(page, '/admin-panel/status');
    for (let tick = 1; tick <= 3; tick++) {
      await page.clock.runFor(STATUS_POLL_MS);
      await expect.poll(() => status.sent.length).toBe(tick);
      await settle(page);
      expect(status.sent, `requests after tick ${tick}`).toHaveLength(tick);
    }
    expect([...status.cacheControl]).toEqual(['private, no-store']);
  });

  test('watched logs send one request per second', async ({ page }) => {
    Logs.logger.info('Polling journey: a line for today');
    await Logs.flush();
    await page.clock.install();
    await page.goto('/admin-panel/logs');
    await signIn(page);
    await expect(page.getByRole('heading', { name: 'Monitor Logs' })).toBeVisible();
    await page.clock.pauseAt(Date.now() + 1_000);
    const lines = watch(page, '/admin-panel/logs/lines');
    await page.getByRole('button', { name: 'Watch logs' }).click();
    await expect.poll(() => lines.sent.length).toBe(1);
    await settle(page);
    for (let tick = 2; tick <= 4; tick++) {
      await page.clock.runFor(WATCH_EVERY_MS);
      await expect.poll(() => lines.sent.length).toBe(tick);
      await settle(page);
      expect(lines.sent, `requests after tick ${tick}`).toHaveLength(tick);
    }
    await expect(page.getByRole('button', { name: 'Stop watching logs' })).toBeVisible();
    expect([...lines.cacheControl]).toEqual(['private, no-store']);
  });
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
    // The e-mail is framed sandboxed (no scripts); its links open new tabs outside the sandbox.
    await message.getByText('Show the e-mail').click();
    const frame = message.frameLocator('iframe');
    const link = frame.getByRole('link', { name: 'Confirm my subscription' });
    await expect(link).toBeVisible();
    const opened = page.waitForEvent('popup');
    await link.click();
    const confirmation = await opened;
    await expect(confirmation).toHaveURL(/\/subscription-confirmed\?/);
    await expect(confirmation.getByRole('heading', { name: 'Awesome!' })).toBeVisible();
  });
});
