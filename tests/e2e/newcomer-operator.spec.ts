// What a newcomer operator meets, round 2 (issue 33, items 7-13), at 1280 and 390 px: an Outbox
// that pages and shows an e-mail only when asked, promote choices that can all work (the rest
// named with why), no prompt text cut, and Experiments that explain themselves without typing.
import type { Page } from '@playwright/test';
import { ulid } from 'ulid';
import * as Users from '#core/users';
import { PARTIAL_NOTE } from '#web/components/analytics/charts';
import { expect, test } from './fixtures';
import { contrastProblems, sidewaysOverflow, spillingOutOfCards, WIDTHS } from './page-checks';
import { busyAudience } from './seed';

const ADMIN = { userName: 'admin', password: 'e2e-admin-password-0123' };

// Chromium reports every sandboxed frame (the Outbox's copies) as blocking scripts.
test.use({
  allowConsoleErrors: [
    /^Blocked script execution in '(about:blank|.*\/admin-panel\/(outbox\/|user-management\/preview)).*sandboxed/,
  ],
});

async function signIn(page: Page, path: string) {
  await page.goto(path);
  await page.getByLabel('User name').fill(ADMIN.userName);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('navigation', { name: 'Admin' })).toBeVisible();
}

/** The page fits its width and its controls can be read; its after state is kept as a picture. */
async function checkAndKeep(page: Page, name: string) {
  const width = page.viewportSize()!.width;
  expect(
    await sidewaysOverflow(page),
    `${name} at ${width} px scrolls sideways by`,
  ).toBeLessThanOrEqual(0);
  expect(await contrastProblems(page), `${name} at ${width} px`).toEqual([]);
  await page.screenshot({ path: `test-results/after/${name}-${width}.png`, fullPage: true });
}

for (const width of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 844 } });

    test('the Outbox shows ten e-mails a page, and an e-mail only when it is opened', async ({
      page,
    }) => {
      // Eleven subscriptions through the audience page's form: the app queues their e-mails.
      for (let n = 0; n < 11; n += 1) {
        const answer = await page.request.post(`/a/${busyAudience.slug}`, {
          form: {
            placement: 'hero',
            email: `outbox-${width}-${n}-${ulid().toLowerCase()}@example.org`,
          },
          headers: { Origin: new URL(test.info().project.use.baseURL!).origin },
          maxRedirects: 0,
        });
        expect(answer.status(), await answer.text()).toBeLessThan(400);
      }
      await signIn(page, '/admin-panel/outbox');
      const messages = page.locator('.outbox-message');
      await expect(messages).toHaveCount(10);
      await expect(page.getByText(/^Page 1 of \d+$/)).toBeVisible();
      // No copy is loaded until asked for: the page is a list, not a column of e-mails.
      await expect(page.locator('.outbox-message iframe:visible')).toHaveCount(0);
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      expect(height, 'the first page is a short list').toBeLessThan(width === 390 ? 6_000 : 3_000);

      // The page follows the e-mails on their way until they are sent, each with its copy (rows
      // of journeys running beside it may be mailing-list messages, which have none).
      const own = messages.filter({ hasText: `outbox-${width}-` });
      await expect
        .poll(
          async () => {
            const rows = await own.count();
            return rows > 0 && (await own.getByText('Show the e-mail').count()) === rows;
          },
          { timeout: 30_000 },
        )
        .toBe(true);
      // One of this journey's own e-mails: a journey running beside it may have sent a newer one.
      await messages
        .filter({ hasText: `outbox-${width}-` })
        .first()
        .getByText('Show the e-mail')
        .click();
      const frame = page.locator('.outbox-message iframe:visible');
      await expect(frame).toHaveCount(1);
      await expect(
        page
          .frameLocator('.outbox-message iframe:visible')
          .getByRole('link', { name: 'Confirm my subscription' })
          .first(),
      ).toBeVisible();
      await checkAndKeep(page, 'outbox-paged');

      await page.getByRole('link', { name: 'Next page' }).click();
      await expect(page).toHaveURL(/\/admin-panel\/outbox\?page=2$/);
      await expect(page.getByText(/^Page 2 of \d+$/)).toBeVisible();
      await page.getByRole('link', { name: 'Previous page' }).click();
      await expect(page).toHaveURL(/\/admin-panel\/outbox$/);
      await page.goBack();
      await expect(page.getByText(/^Page 2 of \d+$/)).toBeVisible();
    });

    test('Production scoring offers only models that can run, says why not the others, and cuts no prompt', async ({
      page,
    }) => {
      await signIn(page, '/admin-panel/content-automations');
      const card = page.getByRole('region', { name: 'Production scoring' });
      const models = card.getByLabel('Model to promote');
      await expect(models.locator('option')).not.toContainText(['openai - gpt-4o-mini']);
      await expect(card).toContainText('Not offered, because they cannot run here:');
      await expect(card).toContainText(
        'openai - gpt-4o-mini: OPENAI_API_KEY is not set, so OpenAI models cannot run',
      );
      // Every prompt's title and date can be read whole: none is cut or spills out of the card.
      const prompts = card.getByRole('group', { name: 'Prompt to promote' }).getByRole('radio');
      expect(await prompts.count()).toBeGreaterThan(0);
      const cut = await card
        .locator('.prompt-choices label')
        .evaluateAll((labels) =>
          labels
            .filter((label) => label.scrollWidth > label.clientWidth + 1)
            .map((label) => label.textContent),
        );
      expect(cut).toEqual([]);
      expect(await spillingOutOfCards(page)).toEqual([]);
      await card.scrollIntoViewIfNeeded();
      await checkAndKeep(page, 'production-scoring');
    });

    test('Experiments list their processes and implementations in words, datasets once, and the threshold says what it does', async ({
      page,
    }) => {
      await signIn(page, '/admin-panel/experiments');
      const processes = page.getByRole('region', { name: 'Processes', exact: true });
      await expect(processes.getByRole('link')).toHaveText([
        'Descriptor experiments',
        'User experiments',
        'Content experiments',
      ]);
      await expect(processes).toContainText('Experiments for audiences (called descriptors here)');
      await checkAndKeep(page, 'experiments-landing');

      await processes.getByRole('link', { name: 'Descriptor experiments' }).click();
      const implementations = page.getByRole('region', {
        name: 'Implementations of Descriptor experiments',
      });
      await expect(implementations).toContainText(
        'Chaining per DescriptorRuns several steps one after another for each audience',
      );
      await implementations.getByRole('link', { name: 'Score Articles per Descriptor' }).click();
      await expect(
        page.getByText(/^Asks the model how relevant each of the articles/),
      ).toBeVisible();

      await page.getByRole('link', { name: 'Add Implementation Run' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add implementation run' });
      await expect(dialog.getByText(/It does not change the labels/)).toBeVisible();
      await expect(dialog.getByText(/Value should be between 0 and 1/)).toBeVisible();
      await expect(dialog.getByLabel('Model').locator('option')).not.toContainText([
        'openai - gpt-4o-mini',
      ]);
      await expect(dialog.getByText(/Not offered, because they cannot run here/)).toBeVisible();
      const datasets = await dialog
        .getByLabel('Dataset')
        .locator('option')
        .evaluateAll((options) => options.map((option) => option.textContent ?? ''));
      expect(datasets.some((name) => /first_layer|content_layer/.test(name))).toBe(false);
      expect(new Set(datasets).size, 'each dataset once').toBe(datasets.length);
      await checkAndKeep(page, 'experiments-run-form');

      await page.goto('/admin-panel/experiments/datasets');
      const names = await page
        .locator('.admin-table tbody tr td:first-child')
        .evaluateAll((cells) => cells.map((cell) => cell.textContent ?? ''));
      expect(new Set(names).size, 'each dataset once').toBe(names.length);
      const freeze = page.getByRole('button', { name: 'Freeze dataset' });
      await expect(freeze).toHaveClass(/\bbutton\b/);
      await checkAndKeep(page, 'experiment-datasets');
    });

    test('the invite dialog shows the message, not its HTML, explains each landing page and why Send waits; Add user explains statuses', async ({
      page,
    }) => {
      const tag = ulid().toLowerCase().slice(-8);
      const user = await Users.create({
        name: `Newcomer ${tag}`,
        email: `e2e-newcomer-${tag}@example.org`,
      });
      await signIn(page, `/admin-panel/user-management?invite=${user.id}`);
      const invite = page.getByRole('dialog', { name: `Invite ${user.name}` });
      await expect(invite.getByLabel('HTML body')).toBeHidden();
      await expect(invite.getByText('Edit the message as HTML')).toBeVisible();
      await expect(invite).not.toContainText('vus=');
      for (const [label, words] of [
        ['Default', 'sentence starters the reader completes'],
        ['Show pointers', 'lists example clues the reader can pick'],
        ['Interactive prompt', 'describes themselves to the assistant'],
      ] as const) {
        await expect(
          invite.getByRole('radio', { name: label, exact: true }),
        ).toHaveAccessibleDescription(new RegExp(words));
      }
      const send = invite.getByRole('button', { name: 'Send invitation' });
      await expect(send).toBeDisabled();
      await expect(send).toHaveAccessibleDescription(
        'Choose a landing page (or type its URL) to send the invitation.',
      );
      await invite.getByRole('radio', { name: 'Show pointers', exact: true }).check();
      await expect(send).toBeEnabled();
      await expect(invite.getByText(/to send the invitation\.$/)).toBeHidden();
      const preview = invite.frameLocator('iframe[title="Invitation preview"]');
      await expect(preview.getByText(`Hi ${user.name},`)).toBeVisible();
      await checkAndKeep(page, 'invite-dialog');

      await page.goto('/admin-panel/user-management?modal=add');
      const add = page.getByRole('dialog', { name: 'Add user' });
      await expect(add.getByLabel('Status')).toHaveAccessibleDescription(
        /Initial\W*added here; no invitation sent yet.*Onboarded\W*finished get-started/,
      );
      await checkAndKeep(page, 'add-user');
    });

    test('campaign analytics draws each series on its own scale, says today is partial and what is left out, text at least 12 px', async ({
      page,
    }) => {
      await signIn(page, '/admin-panel/campaign-analytics');
      const perDay = page.getByRole('img', {
        name: /^Visits, subscribes and confirms per day\. /,
      });
      await expect(perDay).toBeVisible();
      // One panel per series, each named where it is drawn; the range ends today, so partly.
      for (const series of ['Visits', 'Subscribes', 'Confirms']) {
        await expect(perDay.getByText(new RegExp(`^${series}: \\d+ so far today$`))).toHaveCount(1);
      }
      await expect(page.getByText(PARTIAL_NOTE).first()).toBeVisible();
      const smallest = await page
        .locator('.analytics svg.chart text')
        .evaluateAll((texts) =>
          Math.min(...texts.map((text) => (text as SVGTextElement).getBoundingClientRect().height)),
        );
      expect(smallest, `chart text at ${width} px`).toBeGreaterThanOrEqual(12);
      // A chart's table has the page's width under it, so no heading word is cut at its edge:
      // on a computer every table fits; on a phone a wide one scrolls, and no cell breaks a word.
      const tables = await page.locator('.chart-figure .table-scroll').evaluateAll((boxes) =>
        boxes.map((box) => ({
          label: box.getAttribute('aria-label'),
          cut: box.scrollWidth > box.clientWidth + 1,
          brokenWords: [...box.querySelectorAll('th, td')].some(
            (cell) => getComputedStyle(cell).overflowWrap === 'anywhere',
          ),
        })),
      );
      expect(tables.length).toBeGreaterThan(0);
      if (width >= 1280) expect(tables.filter(({ cut }) => cut)).toEqual([]);
      expect(tables.filter(({ brokenWords }) => brokenWords)).toEqual([]);
      await checkAndKeep(page, 'campaign-analytics');
    });
  });
}
