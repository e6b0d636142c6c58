// Steps of the get-started funnel that several journeys take.
import type { Page } from '@playwright/test';
import { createArticle } from '#tests/integration/factories';
import { expect } from './fixtures';

export const heading = (page: Page, name: string) =>
  page.getByRole('heading', { name, exact: true });

/** Types a descriptor and evaluates it with Enter. */
export async function evaluate(page: Page, text: string) {
  const field = page.locator('textarea[name="descriptor"]');
  await field.fill(text);
  await field.press('Enter');
  await expect(page.getByRole('status')).toContainText('Score:');
}

/** The clues listed under 'Your clues', without their actions' labels. */
export function clueTexts(page: Page): Promise<string[]> {
  return page
    .getByRole('list', { name: 'Your clues' })
    .getByRole('listitem')
    .locator('span')
    .allTextContents();
}

/**
 * A story about each clue, published now, for the reader's first scoring to find: the 'newsfeed
 * is ready' e-mail waits for a scored story, and `npm start --ephemeral` stores none of its own.
 * Without these a journey would count on articles an earlier journey happened to store.
 */
export async function storiesAbout(clues: string[]): Promise<void> {
  for (const clue of clues) {
    await createArticle({
      title: `For readers who say "${clue}": this week's story`,
      summary: `${clue}. What changed this week, and why it matters to them.`,
      source: 'Journey Desk',
      publishedAt: new Date().toISOString(),
    });
  }
}
