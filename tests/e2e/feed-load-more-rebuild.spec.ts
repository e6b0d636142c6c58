// 'Load more' (with JavaScript) and the page's revalidations: a revalidation (the image toggle,
// the poll while a dislike's rebuild runs) answers the appended page again, which replaces it and
// is never appended twice; once the list is rebuilt, the page shows the rebuilt list's stories,
// each once, and the disliked one's Undo in its place.
import { ulid } from 'ulid';
import type { Page } from '@playwright/test';
import * as Feed from '#core/feed';
import * as Scoring from '#core/scoring';
import * as Users from '#core/users';
import { createArticle } from '#tests/integration/factories';
import { readerWithPassword, retireReader } from '#tests/integration/readers';
import { expect, hydrated, offlineImages, remixIdle, test } from './fixtures';
import { showEveryRating, signInToFeed, storyCards as cards } from './feed-page';

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const titles = (page: Page) =>
  page.getByRole('list', { name: 'Stories' }).getByRole('heading', { level: 2 }).allTextContents();

/** This file's readers, retired after each test. */
const journeyReaders: string[] = [];

test.describe("the reader's feed after 'Load more'", () => {
  test.afterEach(async () => {
    for (const id of journeyReaders.splice(0)) await retireReader(id);
  });
  test.setTimeout(120_000);
  // Stories' images come from their publishers' sites.
  test.beforeEach(async ({ page }) => {
    await offlineImages(page);
  });

  test('keeps every story once when images are toggled after Load more', async ({ page }) => {
    await signedInWithLoadedStories(page);
    const before = await titles(page);
    expect(new Set(before).size).toBe(before.length);
    await page.getByRole('button', { name: 'Hide images' }).click();
    await expect(page.getByRole('button', { name: 'Show images' })).toBeVisible();
    // The toggle's post revalidates the page (and the 'Load more' fetcher with it).
    await remixIdle(page);
    expect(await titles(page)).toEqual(before);
  });

  test('shows every story once after a dislike rebuilds the list', async ({ page }) => {
    const { user } = await signedInWithLoadedStories(page);
    const first = await titles(page);
    expect(first.length).toBeGreaterThan(Feed.PAGE_SIZE + 1);
    const disliked = first[0]!;
    await cards(page)
      .first()
      .getByRole('button', { name: /^Dislike/ })
      .click();
    await expect(page.getByRole('link', { name: 'Let me chat with the assistant' })).toBeVisible();
    // The build runs; the page looks again every 4 s until the notice goes.
    await remixIdle(page);
    await expect
      .poll(async () => (await Users.byId(user.id))?.feedRequestedAt ?? 'done', {
        timeout: 60_000,
      })
      .toBe('done');
    await expect(page.getByText(/We are updating your feed/)).toHaveCount(0, { timeout: 15_000 });
    await expect.poll(async () => (await titles(page))[0]).not.toBe(disliked);

    // The rebuilt list starts again from its first page. The disliked story is out of the chosen
    // ratings (now 'Not Relevant'); its Undo keeps its place.
    const more = page.getByRole('link', { name: 'Load more' });
    while ((await more.count()) > 0) {
      const count = await cards(page).count();
      await more.click();
      await expect.poll(() => cards(page).count()).toBeGreaterThan(count);
    }
    const shown = await titles(page);
    expect(new Set(shown).size, 'a story shown twice').toBe(shown.length);
    expect(shown).toHaveLength(first.length - 1);
    expect(shown).not.toContain(disliked);
    await expect(
      page.getByRole('button', { name: `Undo your dislike of “${disliked}”` }),
    ).toBeVisible();
  });
});

/** A signed-in reader with 26 stories, every rating chosen, both pages loaded with 'Load more'. */
async function signedInWithLoadedStories(page: Page) {
  const tag = ulid().slice(-6).toLowerCase();
  const all = [];
  for (let n = 1; n <= 26; n++) {
    all.push(
      await createArticle({
        title: `DeFi lending protocol ${tag} ${n}: liquidation math for lending markets`,
        summary:
          'Builders of DeFi lending protocols rework liquidation thresholds and oracle checks.',
        source: n === 1 ? `Rumour Mill ${tag}` : `Lending Ledger ${tag}`,
        publishedAt: minutesAgo(n),
      }),
    );
  }
  const reader = await readerWithPassword({ name: 'More Reader' });
  journeyReaders.push(reader.user.id);
  await Users.UserEntity.patch({ id: reader.user.id })
    .set({ descriptors: [{ id: ulid(), clue: 'I build DeFi lending protocols' }] })
    .go();
  const user = (await Users.byId(reader.user.id))!;
  const setup = await Scoring.defaultSetup(ulid());
  for (const article of all) await Scoring.scoreArticle(article, [Scoring.userTarget(user)], setup);
  await Feed.buildFeed(user.id);

  await signInToFeed(page, reader);
  await hydrated(page);
  // Every rating, so the whole list is one filter's.
  await showEveryRating(page);
  await expect(cards(page)).toHaveCount(Feed.PAGE_SIZE);
  await page.getByRole('link', { name: 'Load more' }).click();
  await expect.poll(async () => cards(page).count()).toBeGreaterThan(Feed.PAGE_SIZE);
  await expect(page.getByRole('link', { name: 'Load more' })).toHaveCount(0);
  await remixIdle(page);
  return { all, user };
}
