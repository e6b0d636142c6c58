// The newsletter journey: an admin sets up a campaign, previews it as a subscriber who joined
// through the public site, sends a test, sends it now and watches its figures; the e-mail shows
// in the Outbox with its stories and reasons, and its one-click unsubscribe counts against the
// issue. It sends newsletters, which one job slot allows at a time, so it runs after the curation
// journeys, against the back office's own app (playwright.config.ts).
import type { Page } from '@playwright/test';
import { ulid } from 'ulid';
import * as Audiences from '#core/audiences';
import * as Automations from '#core/automations';
import * as Curation from '#core/curation';
import * as Jobs from '#core/jobs';
import * as Newsletter from '#core/newsletter';
import * as Subscribers from '#core/subscribers';
import { expect, test } from './fixtures';
import { messageTo, onlyMessageTo, pathOfLink } from './mail';
import { expectFitsAndReadable, WIDTHS } from './page-checks';
import { noProcessRuns, ranToEnd } from './processes';

const ADMIN = { userName: 'admin', password: 'e2e-admin-password-0123' };
const address = (name: string) => `e2e-${name}-${ulid().toLowerCase()}@example.org`;

async function signIn(page: Page) {
  await page.goto('/admin-panel/authorize');
  await page.getByLabel('User name').fill(ADMIN.userName);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('navigation', { name: 'Admin' })).toBeVisible();
}

/** Waits until no process runs, then shows Content Automations afresh. */
async function whenIdle(page: Page) {
  await noProcessRuns();
  await page.goto('/admin-panel/content-automations');
}

/** Runs an automation from Content Automations and waits for it to end. */
async function runAutomation(page: Page, button: string, message: string, job: string) {
  await whenIdle(page);
  const before = (await Jobs.lastRun(job))?.id;
  await page.getByRole('button', { name: button, exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: message })).toBeVisible();
  await ranToEnd(job, before);
}

/** An active daily audience with picks from the last day. */
async function pickedAudience() {
  const to = new Date(Date.now() + 60_000).toISOString();
  const from = new Date(Date.now() - 86_400_000).toISOString();
  for (const audience of await Audiences.list()) {
    if (audience.state !== 'active' || audience.frequency !== 'daily') continue;
    if ((await Curation.picksForAudience(audience.id, { from, to, limit: 1 })).length > 0)
      return audience;
  }
  return undefined;
}

test.describe('newsletter campaign', () => {
  test.describe.configure({ timeout: 240_000 });
  // Chromium reports every script refused in a sandboxed frame; the preview and the Outbox's
  // copies are framed with no scripts on purpose.
  test.use({
    allowConsoleErrors: [
      /^Blocked script execution in '.*\/admin-panel\/(outbox\/|setup-campaign\/preview\?).*sandboxed/,
    ],
  });

  test('set up a campaign, preview it as a subscriber, send a test, send it, see it in the Outbox, unsubscribe with one click', async ({
    page,
  }) => {
    await signIn(page);
    if (!(await pickedAudience())) {
      // Run alone, the journey imports the fixture feeds (which queues scoring) first.
      const Articles = await import('#core/articles');
      if ((await Articles.count()) === 0)
        await runAutomation(
          page,
          'Import articles',
          'Successfully triggered scheduled import',
          Automations.importArticles.name,
        );
      await runAutomation(
        page,
        'Pick best content for descriptors',
        'Successfully triggered Pick best content for descriptors',
        Automations.pickBestContent.name,
      );
    }
    const audience = (await pickedAudience())!;
    expect(audience, 'an active daily audience with picks').toBeDefined();

    // A reader subscribes and confirms through the public site.
    const email = address('reader');
    await page.goto(`/a/${audience.slug}`);
    const hero = page.locator('.audience__hero');
    await hero.getByPlaceholder('Enter your email').fill(email);
    await hero.getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.getByRole('heading', { name: 'Assemble your newsletter' })).toBeVisible();
    await page.goto(pathOfLink(await onlyMessageTo(email), '/confirm-subscription'));
    await expect(page.getByRole('heading', { name: 'Awesome!' })).toBeVisible();
    const subscriber = (await Subscribers.byEmail(email))!;
    expect(subscriber.status).toBe('subscribed');
    // Another subscribes and never confirms: the send skips them, and the page says why.
    const unconfirmed = address('unconfirmed');
    await page.goto(`/a/${audience.slug}`);
    await hero.getByPlaceholder('Enter your email').fill(unconfirmed);
    await hero.getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.getByRole('heading', { name: 'Assemble your newsletter' })).toBeVisible();

    // What the issue will hold, composed by the product itself.
    await page.goto('/admin-panel/content-automations');
    await page.getByRole('link', { name: 'Setup campaign' }).click();
    await expect(page.getByRole('heading', { name: 'Setup campaign', level: 1 })).toBeVisible();
    const from = `${await page.getByLabel('From (UTC)').inputValue()}Z`;
    const to = `${await page.getByLabel('To (UTC)').inputValue()}Z`;
    const digest = await Newsletter.composeDigest(subscriber, {
      frequency: 'daily',
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      audienceIds: [audience.id],
    });
    if (digest.empty) throw new Error(`No issue for the reader: ${digest.why}`);
    const story = digest.sections[0]!.stories[0]!;

    // Preview as the subscriber.
    await page
      .getByRole('group', { name: 'Audiences' })
      .getByRole('checkbox', { name: `Those who ${audience.title} (daily)`, exact: true })
      .check();
    await page.getByLabel("Subscriber's e-mail address").fill(email);
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    await expect(page.getByRole('heading', { name: `Preview for ${email}` })).toBeVisible();
    await expect(page.getByText(`Subject: ${digest.subject}`)).toBeVisible();
    await expect(
      page.getByText(`${digest.words} words, about ${digest.minutes} minute`),
    ).toBeVisible();
    const preview = page.frameLocator('iframe.campaign-preview__frame');
    await expect(preview.getByRole('link', { name: story.title }).first()).toBeVisible();
    await expect(preview.getByText(story.reasons[0]!).first()).toBeVisible();
    expect(story.reasons[0]).toMatch(/^Because you follow those who /);
    await page.getByText('Plain-text part').click();
    await expect(page.locator('.campaign-preview__text')).toContainText(story.title);

    // A test to another address.
    const tester = address('tester');
    await page.getByLabel('Send the test to').fill(tester);
    await page.getByRole('button', { name: 'Send test' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: `Test sent to ${tester}` }),
    ).toBeVisible();
    await messageTo(tester, `[Test] ${digest.subject}`, 30_000);

    // Send now, and watch the figures.
    await expect(page.getByLabel('Send at (UTC)')).toHaveValue('');
    await page.getByRole('button', { name: 'Schedule campaign' }).click();
    await expect(page).toHaveURL(/\/admin-panel\/setup-campaign\/[0-9A-Z]{26}$/);
    const issueUrl = page.url();
    await expect(page.getByRole('heading', { name: 'Campaign', level: 1 })).toBeVisible();
    await expect(page.getByText(`those who ${audience.title}`)).toBeVisible();
    const figure = (name: string) =>
      page.getByRole('row', { name: new RegExp(`^${name} \\d+$`) }).getByRole('cell');
    await expect
      .poll(async () => Number(await figure('Sent').textContent()), { timeout: 90_000 })
      .toBeGreaterThanOrEqual(1);
    await expect(page.getByText('Updating live every 2 seconds')).toBeHidden({ timeout: 30_000 });
    await expect(page.locator('.campaign-facts')).toContainText('Done');
    await expect(figure('Unsubscribes after the issue')).toHaveText('0');
    const issue = (await Newsletter.issueById(issueUrl.split('/').at(-1)!))!;
    expect(issue.skippedNotConfirmed).toBeGreaterThanOrEqual(1);
    // Sent now, its content window ends at the send, not after it; the page names no process id.
    expect(Date.parse(issue.to)).toBeLessThanOrEqual(Date.parse(issue.startedAt!));
    await expect(page.locator('.campaign-facts')).toContainText('Send newsletters');
    const facts = (await page.locator('.campaign-facts').textContent()) ?? '';
    expect(facts.replaceAll(issue.id, '')).not.toMatch(/[0-9A-HJKMNP-TV-Z]{26}/);
    await expectFitsAndReadable(page, 'the campaign page');
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 844 });
      await page.screenshot({ path: `test-results/after/campaign-${width}.png`, fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(page.getByRole('row', { name: /^Skipped / })).toContainText(
      `${issue.skipped} (${issue.skipped === issue.skippedNotConfirmed ? 'not confirmed' : `${issue.skippedNotConfirmed} not confirmed`}`,
    );

    // The e-mail in the Outbox, with its stories and reasons.
    await page.getByRole('link', { name: 'Outbox' }).click();
    await page.getByLabel('Recipient').fill(email);
    await page.getByRole('button', { name: 'Find' }).click();
    const sent = page
      .locator('article.outbox-message')
      .filter({ hasText: `To ${email}` })
      .filter({
        has: page.getByRole('heading', { name: digest.subject, exact: true }),
      });
    await expect(sent).toHaveCount(1);
    await expect(sent).toContainText('Sent');
    await sent.getByText('Show the e-mail').click();
    const copy = sent.frameLocator('iframe');
    await expect(copy.getByRole('link', { name: story.title }).first()).toBeVisible();
    await expect(copy.getByText(story.reasons[0]!).first()).toBeVisible();

    // One click, as a mail provider does it (RFC 8058), from the issue's own headers.
    const message = await messageTo(email, digest.subject, 30_000);
    expect(message.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    const oneClick = new URL(/<(https?:[^>]+)>/.exec(message.headers['list-unsubscribe']!)![1]!);
    const response = await page.request.post(`${oneClick.pathname}${oneClick.search}`, {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      data: 'List-Unsubscribe=One-Click',
    });
    expect(response.status()).toBe(200);
    await page.goto(pathOfLink(message, '/unsubscribe'));
    await expect(page.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible();
    expect((await Subscribers.byEmail(email))?.status).toBe('unsubscribed');

    await page.goto(issueUrl);
    await expect(figure('Unsubscribes after the issue')).toHaveText('1');
  });
});

test.describe('a content window that is not valid', () => {
  test.use({ allowConsoleErrors: [/status of 400 /] });

  test('is explained in the error box in words, without its code, and the inputs stay as typed', async ({
    page,
  }) => {
    await signIn(page);
    await page.goto('/admin-panel/setup-campaign');
    await page.getByLabel('From (UTC)').fill('2026-03-02T10:00');
    await page.getByLabel('To (UTC)').fill('2026-03-01T10:00');
    await page.getByRole('group', { name: 'Audiences' }).getByRole('checkbox').first().check();
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'The content window is not valid: "From" must be before "To".',
    );
    await expect(page.getByLabel('From (UTC)')).toHaveValue('2026-03-02T10:00');
    await expect(page.getByLabel('To (UTC)')).toHaveValue('2026-03-01T10:00');
    await expect(
      page.getByRole('group', { name: 'Audiences' }).getByRole('checkbox').first(),
    ).toBeChecked();
  });
});
