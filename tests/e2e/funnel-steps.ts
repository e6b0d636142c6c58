// Steps of the get-started funnel that several journeys take.
import type { Page } from '@playwright/test';
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
