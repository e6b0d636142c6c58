// The feed's side panel and the browser's Back: a reader opens the assistant from the sidebar,
// sends a message, and Back closes the panel.
import { ulid } from 'ulid';
import * as Users from '#core/users';
import { readerWithPassword, retireReader } from '#tests/integration/readers';
import { expect, hydrated, offlineImages, test } from './fixtures';
import { signInToFeed } from './feed-page';

test.beforeEach(async ({ page }) => offlineImages(page));

test.describe("the feed's side panel and the browser's Back", () => {
  test('Back after chatting closes the panel', async ({ page }) => {
    const reader = await readerWithPassword({ name: 'Back Reader' });
    await Users.UserEntity.patch({ id: reader.user.id })
      .set({ descriptors: [{ id: ulid(), clue: 'I build DeFi lending protocols' }] })
      .go();
    await signInToFeed(page, reader);
    await hydrated(page);

    await page.getByRole('button', { name: 'I want to change some of my clues' }).click();
    const panel = page.getByRole('dialog', { name: 'Change your clues' });
    await expect(panel).toBeVisible();
    await panel.getByLabel('Your message').fill('I also follow zero-knowledge rollups');
    await panel.getByRole('button', { name: 'Send' }).click();
    await expect(panel.getByRole('log')).toContainText('I also follow zero-knowledge rollups');

    await page.goBack();
    await expect(page).toHaveURL(/\/feed$/);
    await expect(panel).toHaveCount(0);
    await retireReader(reader.user.id);
  });
});
