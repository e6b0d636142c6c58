// What an operator meets, on a desktop (1280 px) and a phone (390 px): times in one readable
// format, a stream paused, resumed and removed (after a question) on its own, a campaign's skips
// with their reasons, a reader's clues and scored articles in their edit, and an invitation that
// starts from the house template.
import type { Page } from '@playwright/test';
import { ulid } from 'ulid';
import * as Newsletter from '#core/newsletter';
import * as Scoring from '#core/scoring';
import * as Streams from '#core/streams';
import * as Users from '#core/users';
import { createArticle } from '#tests/integration/factories';
import { expect, test } from './fixtures';
import { onlyMessageTo } from './mail';
import { busyAudience } from './seed';

const ADMIN = { userName: 'admin', password: 'e2e-admin-password-0123' };
const FEEDS = `http://127.0.0.1:${process.env.FIXTURE_FEEDS_PORT}`;
/** The one admin format: '3 Jan 2026, 14:05 UTC'. */
const ADMIN_TIME = /\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} UTC/;
/** A raw ISO time, which no admin page shows. */
const ISO_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

async function signIn(page: Page, path: string) {
  await page.goto(path);
  await page.getByLabel('User name').fill(ADMIN.userName);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('navigation', { name: 'Admin' })).toBeVisible();
}

// Chromium reports every sandboxed frame (the invitation preview, the Outbox's copies) as blocking
// scripts.
test.use({
  allowConsoleErrors: [
    /^Blocked script execution in '(about:blank|.*\/admin-panel\/(outbox\/|user-management\/preview)).*sandboxed/,
  ],
});

/** The dialog fits the screen: nothing of it is cut off at the sides. */
async function expectWithinViewport(page: Page, dialog: ReturnType<Page['getByRole']>) {
  const box = (await dialog.boundingBox())!;
  const width = page.viewportSize()!.width;
  expect(box.x, 'dialog left edge').toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, 'dialog right edge').toBeLessThanOrEqual(width);
}

for (const width of [1280, 390]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('a stream is paused, resumed, then removed after a question, each on its own', async ({
      page,
    }) => {
      const name = `Pausable ${ulid()}`;
      const stream = await Streams.create({
        name,
        url: `${FEEDS}/protocol-review.xml?e2e=${ulid()}`,
      });
      await signIn(page, '/admin-panel/content-automations');
      const row = page.getByRole('table', { name: /Streams/ }).getByRole('row', { name });
      await expect(row).toContainText('Active');

      await row.getByRole('button', { name: `Pause ${name}` }).click();
      await expect(
        page.getByRole('status').filter({ hasText: `Stream ${name} paused` }),
      ).toBeVisible();
      await expect(row).toContainText(/Paused since \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} UTC/);
      expect((await Streams.byId(stream.id))?.pausedAt).toBeDefined();

      await row.getByRole('button', { name: `Resume ${name}` }).click();
      await expect(
        page.getByRole('status').filter({ hasText: `Stream ${name} resumed` }),
      ).toBeVisible();
      await expect(row).toContainText('Active');
      expect((await Streams.byId(stream.id))?.pausedAt).toBeUndefined();

      await row.getByRole('link', { name: `Remove ${name}` }).click();
      const question = page.getByRole('dialog', { name: 'Remove this stream?' });
      await expect(question).toContainText(name);
      await expect(question).toContainText('The articles it brought stay');
      await expectWithinViewport(page, question);
      // Asking changes nothing.
      expect(await Streams.byId(stream.id)).toBeDefined();
      await question.getByRole('button', { name: 'Remove stream' }).click();
      await expect(
        page.getByRole('status').filter({ hasText: `Stream ${name} removed` }),
      ).toBeVisible();
      await expect(row).toHaveCount(0);
      expect(await Streams.byId(stream.id)).toBeUndefined();
      expect(await Streams.byUrl(stream.url)).toBeUndefined();
    });

    test('the Outbox writes its times in the admin format, never as raw ISO', async ({ page }) => {
      const email = `e2e-times-${ulid().toLowerCase()}@example.org`;
      await page.goto(`/a/${busyAudience.slug}`);
      await page.locator('.audience__hero').getByPlaceholder('Enter your email').fill(email);
      await page.locator('.audience__hero').getByRole('button', { name: 'Subscribe' }).click();
      await expect(page.getByRole('heading', { name: 'Assemble your newsletter' })).toBeVisible({
        timeout: 15_000,
      });
      await onlyMessageTo(email);
      await signIn(page, '/admin-panel/outbox');
      const entry = page.locator('.outbox-message').filter({ hasText: `To ${email}` });
      await expect(entry.getByText(`To ${email}`)).toHaveText(
        new RegExp(`^To ${email} · ${ADMIN_TIME.source}$`),
      );
      await expect(entry.locator('.outbox-message__state')).toHaveText(
        new RegExp(`^Sent ${ADMIN_TIME.source} · 1 attempt$`),
      );
      await expect(entry).not.toContainText(ISO_TIME);
    });

    test("a campaign's skipped figure says why each subscriber was skipped", async ({ page }) => {
      const id = Newsletter.newCampaignId();
      await Newsletter.NewsletterIssueEntity.create({
        id,
        origin: 'campaign',
        frequency: 'daily',
        from: '2026-03-01T09:00:00.000Z',
        to: '2026-03-02T09:00:00.000Z',
        audienceIds: [],
        status: 'done',
        recipients: 4,
        sent: 1,
        skipped: 3,
        skippedUnsubscribed: 2,
        skippedNotConfirmed: 1,
        createdAt: '2026-03-02T09:00:00.000Z',
        startedAt: '2026-03-02T09:00:00.000Z',
        doneAt: '2026-03-02T09:01:00.000Z',
      }).go();
      await signIn(page, `/admin-panel/setup-campaign/${id}`);
      await expect(page.getByRole('row', { name: /^Skipped / })).toHaveText(
        'Skipped3 (1 not confirmed, 2 unsubscribed)',
      );
      const facts = page.locator('.campaign-facts');
      await expect(facts).toContainText('1 Mar 2026, 09:00 UTC – 2 Mar 2026, 09:00 UTC');
      await expect(facts).toContainText('2 Mar 2026, 09:01 UTC');
      await expect(facts).not.toContainText(ISO_TIME);
    });

    test("a reader's edit shows their clues and scored articles, or why there are none", async ({
      page,
    }) => {
      const tag = ulid().toLowerCase().slice(-8);
      const reader = await Users.create({
        name: `Reader ${tag}`,
        email: `e2e-reader-${tag}@example.org`,
      });
      await Users.setDescriptors(reader.id, ['build DeFi protocols', 'audit lending markets']);
      const article = await createArticle({
        title: `Lending invariants to fuzz before launch ${tag}`,
        canonicalUrl: `https://news.example/e2e/${tag}`,
      });
      await Scoring.scoreArticle(
        article,
        [Scoring.userTarget((await Users.byId(reader.id))!)],
        await Scoring.defaultSetup(ulid()),
      );
      const {
        scores: [score],
      } = await Scoring.forReader((await Users.byId(reader.id))!);
      const newcomer = await Users.create({
        name: `Newcomer ${tag}`,
        email: `e2e-newcomer-${tag}@example.org`,
      });

      await signIn(page, `/admin-panel/user-management?edit=${reader.id}`);
      const dialog = page.getByRole('dialog', { name: 'Edit user' });
      const feed = dialog.getByRole('region', { name: 'What their feed is made from' });
      await expect(feed.getByRole('list', { name: /Clues/ }).getByRole('listitem')).toHaveText([
        'build DeFi protocols',
        'audit lending markets',
      ]);
      const scored = feed.getByRole('list', { name: /Scored articles/ }).getByRole('listitem');
      await expect(scored).toHaveCount(1);
      await expect(scored).toContainText(article.title);
      await expect(scored).toContainText(score!.label);
      await expect(scored).toContainText(ADMIN_TIME);
      await expect(scored.getByRole('link', { name: article.title })).toHaveAttribute(
        'href',
        `/admin-panel/articles/${article.id}`,
      );
      await expectWithinViewport(page, dialog);

      await page.goto(`/admin-panel/user-management?edit=${newcomer.id}`);
      const empty = page
        .getByRole('dialog', { name: 'Edit user' })
        .getByRole('region', { name: 'What their feed is made from' });
      await expect(empty).toContainText('No clues yet');
      await expect(empty).toContainText('No articles are scored for them: they have no clues.');
    });

    test('an invitation starts from the house template, which is sent as edited', async ({
      page,
    }) => {
      test.setTimeout(60_000);
      const tag = ulid().toLowerCase().slice(-8);
      const user = await Users.create({
        name: `Invitee ${tag}`,
        email: `e2e-invitee-${tag}@example.org`,
      });
      await signIn(page, `/admin-panel/user-management?invite=${user.id}`);
      const invite = page.getByRole('dialog', { name: `Invite ${user.name}` });
      await invite.getByText('Edit the message as HTML').click();
      const body = invite.getByLabel('HTML body');
      await expect(body).toHaveValue(new RegExp(`^<p>Hi ${user.name},</p>`));
      await expect(body).toHaveValue(/We would like you to try Cluefeed/);
      await body.press('Control+End');
      await body.pressSequentially('\n<p>PS: see you there.</p>');
      await invite.getByLabel('Default', { exact: true }).check();
      const preview = invite.frameLocator('iframe[title="Invitation preview"]');
      await expect(preview.getByText(`Hi ${user.name},`)).toBeVisible();
      await expectWithinViewport(page, invite);
      await invite.getByRole('button', { name: 'Send invitation' }).click();
      await expect(page.getByRole('status')).toHaveText(
        `Invitation sent successfully to ${user.email}`,
      );
      const message = await onlyMessageTo(user.email);
      expect(message.text).toContain(`Hi ${user.name},`);
      expect(message.text).toContain('We would like you to try Cluefeed');
      expect(message.text).toContain('PS: see you there.');
    });
  });
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('removing a stream asks first, and the answer removes it', async ({ page }) => {
    test.setTimeout(60_000);
    const name = `No script ${ulid()}`;
    const stream = await Streams.create({ name, url: `${FEEDS}/blocknotes.xml?e2e=${ulid()}` });
    await signIn(page, '/admin-panel/content-automations');
    await page.getByRole('link', { name: `Remove ${name}` }).click();
    await expect(page).toHaveURL(new RegExp(`\\?remove=${stream.id}$`));
    const question = page.getByRole('dialog', { name: 'Remove this stream?' });
    await question.getByRole('button', { name: 'Remove stream' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: `Stream ${name} removed` }),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/admin-panel\/content-automations$/);
    expect(await Streams.byId(stream.id)).toBeUndefined();
  });
});
