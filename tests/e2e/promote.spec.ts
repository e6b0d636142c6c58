// Promoting a production scoring setup, at 1280 and 390 px and without JavaScript: a prompt saved
// to try changes nothing production reads; the operator chooses it on Content Automations, is
// asked first, promotes it, and the card shows it with when and by whom. Promoting changes what
// every scoring journey reads, so this file runs against the back office's own app, after the
// curation journeys (playwright.config.ts), one test at a time.
import type { Page } from '@playwright/test';
import { ulid } from 'ulid';
import * as Prompts from '#core/prompts';
import * as Scoring from '#core/scoring';
import { expect, test } from './fixtures';
import { sidewaysOverflow } from './page-checks';

test.describe.configure({ mode: 'serial' });

const ADMIN = { userName: 'admin', password: 'e2e-admin-password-0123' };
const PATH = '/admin-panel/content-automations';
const MODEL = 'local - cluefeed-bm25';

async function signIn(page: Page) {
  await page.goto(PATH);
  await page.getByLabel('User name').fill(ADMIN.userName);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Content Automations' })).toBeVisible();
}

/** A scoring prompt saved to try, as an editor saves one; production must not read it. */
async function savedToTry() {
  const title = `Sharper ${ulid().slice(-6)}`;
  const prompt = await Prompts.create({
    expImplementationId: 'scoring',
    title,
    prompt: `${title}: how relevant is {title} to a reader who {clues}?`,
  });
  return prompt;
}

/** The card's facts: Prompt, Model, Promoted. */
const card = (page: Page) => page.getByRole('region', { name: 'Production scoring' });

async function promote(page: Page, width: number) {
  const before = await Scoring.productionSetup();
  const saved = await savedToTry();
  await signIn(page);

  // Saved, not promoted: production still reads what it read.
  const facts = card(page).locator('.setup-facts');
  await expect(facts).toContainText(`Prompt${before.prompt.title}`);
  await expect(facts).not.toContainText(saved.title);
  expect((await Scoring.productionSetup()).prompt.id).toBe(before.prompt.id);

  const choice = card(page).getByRole('radio', {
    name: new RegExp(
      `^${saved.title} \\(saved \\d{1,2} [A-Z][a-z]{2} \\d{4}, \\d{2}:\\d{2} UTC\\)$`,
    ),
  });
  await choice.check();
  await card(page).getByLabel('Model to promote').selectOption({ label: MODEL });
  await card(page).getByRole('button', { name: 'Promote…' }).click();

  const question = page.getByRole('dialog', { name: 'Promote this scoring setup?' });
  await expect(question).toContainText(`Now"${before.prompt.title}" with ${MODEL}`);
  await expect(question).toContainText(`Promote"${saved.title}" with ${MODEL}`);
  const box = (await question.boundingBox())!;
  expect(box.x, 'dialog left edge').toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, 'dialog right edge').toBeLessThanOrEqual(width);
  // Asking changes nothing.
  expect((await Scoring.productionSetup()).prompt.id).toBe(before.prompt.id);

  await question.getByRole('button', { name: 'Promote', exact: true }).click();
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: `Production scoring now uses "${saved.title}" with ${MODEL}.` }),
  ).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${PATH}$`));
  await expect(facts).toContainText(`Prompt${saved.title}`);
  await expect(facts).toContainText(`Model${MODEL}`);
  await expect(facts).toContainText(
    /Promoted\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} UTC by admin/,
  );
  expect(await sidewaysOverflow(page), `at ${width} px`).toBeLessThanOrEqual(0);

  const production = await Scoring.productionSetup();
  expect(production.prompt.id).toBe(saved.id);
  expect(production.revision).toBe(before.revision + 1);
}

for (const width of [1280, 390]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('a prompt saved to try changes nothing until it is promoted, after a question', async ({
      page,
    }) => {
      await promote(page, width);
    });
  });
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('choosing asks first, and the answer promotes', async ({ page }) => {
    await promote(page, 1280);
  });
});
