// The reader's feed page as journeys use it: signing in to it, its list of stories and a story's
// card, and waiting for the rebuild a reader's change asked for.
import type { Page } from '@playwright/test';
import * as Users from '#core/users';
import { expect, hydrated, remixIdle } from './fixtures';

/** Signs the reader in through the form; the feed is where it lands. */
export async function signInToFeed(page: Page, reader: { email: string; password: string }) {
  await page.goto('/login');
  await page.getByLabel('E-mail or username').fill(reader.email);
  await page.getByLabel('Password').fill(reader.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/feed$/);
}

export const storyList = (page: Page) => page.getByRole('list', { name: 'Stories' });

/** The list's own items: a story's card holds a list of its other sources. */
export const storyCards = (page: Page) => storyList(page).locator(':scope > li');

/** The story's card (its like and dislike), by its title. */
export const storyCard = (page: Page, title: string) =>
  storyList(page)
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 2, name: title }) });

/** Waits until the reader's list shows every change they made, then reads it again. */
export async function rebuilt(page: Page, userId: string) {
  // The card leaves before the dislike is answered: wait for the answer, then for the build.
  await remixIdle(page);
  await expect
    .poll(async () => (await Users.byId(userId))?.feedRequestedAt ?? 'done', { timeout: 60_000 })
    .toBe('done');
  await remixIdle(page);
  await page.reload();
  await hydrated(page);
}

/**
 * Ticks every rating of the feed's filter that is not ticked, one at a time. Each tick navigates;
 * a tick before the last one's answer has arrived cuts that answer off, and Remix logs the cut
 * body as a console error (the newer list still shows), so each waits for the last to land.
 */
export async function showEveryRating(page: Page) {
  const ratings = page.getByRole('group', { name: 'Show stories rated' }).getByRole('checkbox');
  for (const option of await ratings.all()) {
    if (await option.isChecked()) continue;
    await option.check();
    await remixIdle(page);
  }
}
