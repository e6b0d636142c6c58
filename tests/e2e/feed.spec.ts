// The reader's feed, end to end on the running product (worker, schedules, local AI provider): a
// reader signs in and sees stories with why each is there, filters by rating, hides images and
// finds them hidden after a reload, loads more, dislikes a story, chats with the assistant in the
// side panel, applies the clue change it proposes, and sees the feed re-ranked: the story that
// matches the new clue rises, the disliked story is out of the chosen ratings.
import { ulid } from 'ulid';
import type { Locator, Page } from '@playwright/test';
import * as Feed from '#core/feed';
import * as Scoring from '#core/scoring';
import * as Users from '#core/users';
import { createArticle } from '#tests/integration/factories';
import { readerWithPassword, retireReader } from '#tests/integration/readers';
import { expect, hydrated, offlineImages, remixIdle, test } from './fixtures';
import { showEveryRating, signInToFeed, storyCards as cards } from './feed-page';
import { expectFitsAndReadable } from './page-checks';

/**
 * Publication times from a moment 5 minutes ahead: the clue change rescores the reader's newest
 * 100 articles, and the journeys running beside this one add articles dated up to now. Dated
 * ahead, the stories this journey checks stay in that window whatever the others add meanwhile.
 */
const AHEAD = Date.now() + 5 * 60_000;
const minutesAgo = (minutes: number) => new Date(AHEAD - minutes * 60_000).toISOString();

/** Lending stories from two sources, a zero-knowledge story and padding enough for two pages. */
async function stories(tag: string) {
  const lending = (n: number, source: string) =>
    createArticle({
      title: `DeFi lending protocol ${tag} ${n}: liquidation math for lending markets`,
      summary:
        'Builders of DeFi lending protocols rework liquidation thresholds, oracle checks and ' +
        'interest rate curves for their lending markets. '.repeat(6),
      source,
      image: '/covers/grid.svg',
      publishedAt: minutesAgo(n),
    });
  const disliked = await lending(1, `Rumour Mill ${tag}`);
  const others = [];
  for (let n = 2; n <= 26; n++) others.push(await lending(n, `Lending Ledger ${tag}`));
  const rollups = await createArticle({
    title: `Zero-knowledge rollups ${tag}: provers get cheaper`,
    summary:
      'Zero-knowledge rollups cut proving costs again as zero-knowledge provers move to new ' +
      'hardware; rollups teams ship faster zk proofs.',
    source: `Rollup Report ${tag}`,
    image: 'https://images.rollup-report.example/provers.jpg',
    publishedAt: minutesAgo(0),
  });
  return { disliked, rollups, others, all: [disliked, ...others, rollups] };
}

const titles = (page: Page) =>
  page.getByRole('list', { name: 'Stories' }).getByRole('heading', { level: 2 }).allTextContents();

/** Every story the filter shows: 'Load more' until it is gone. */
async function everyTitle(page: Page) {
  const more = page.getByRole('link', { name: 'Load more' });
  while ((await more.count()) > 0) {
    const shown = await cards(page).count();
    await more.click();
    await expect.poll(() => cards(page).count()).toBeGreaterThan(shown);
  }
  return titles(page);
}

/** Waits until the reader's list shows every change they made (the notice goes), reloading. */
async function feedUpdated(page: Page, userId: string) {
  // The card leaves before the feedback is answered: wait for the answer, then for the build.
  await remixIdle(page);
  await expect
    .poll(async () => (await Users.byId(userId))?.feedRequestedAt ?? 'done', { timeout: 60_000 })
    .toBe('done');
  await expect(page.getByText(/We are updating your feed/)).toHaveCount(0, { timeout: 10_000 });
}

test.describe("the reader's feed", () => {
  test.setTimeout(150_000);

  test('stories with reasons, filter, images, load more, dislike, chat and a clue change that re-ranks', async ({
    page,
  }) => {
    await offlineImages(page);
    const tag = ulid().slice(-6).toLowerCase();
    const { disliked, rollups, others, all } = await stories(tag);
    const reader = await readerWithPassword({ name: 'Feed Reader' });
    await Users.UserEntity.patch({ id: reader.user.id })
      .set({ descriptors: [{ id: ulid(), clue: 'I build DeFi lending protocols' }] })
      .go();
    // The reader's stories scored by production's setup and their list built, as their first
    // scoring run does (here in the test's process; every later run is the product's worker's).
    const user = (await Users.byId(reader.user.id))!;
    const setup = await Scoring.defaultSetup(ulid());
    for (const article of all)
      await Scoring.scoreArticle(article, [Scoring.userTarget(user)], setup);
    await Feed.buildFeed(user.id);

    await signInToFeed(page, reader);
    await hydrated(page);
    // Stories' images come from their publishers' sites: the feed's policy allows https images,
    // a public page's does not.
    const policy = async (path: string) =>
      (await page.request.get(path)).headers()['content-security-policy'];
    expect(await policy('/feed')).toContain("img-src 'self' data: https:;");
    expect(await policy('/about')).toContain("img-src 'self' data:;");

    // 1. Stories with why each is there, the best rated first.
    const first = cards(page).first();
    await expect(first.getByRole('heading', { level: 2 })).toContainText('DeFi lending protocol');
    // The reason names what in the story matched and a phrase of the clue, not the clue whole.
    await expect(first).toContainText(
      /Why it is here: It covers .*lending.*, for your clue on DeFi lending protocols\./,
    );
    await expect(first.locator('img')).toHaveAttribute('src', '/covers/grid.svg');
    await expectFitsAndReadable(page, 'the feed with stories');
    await page.setViewportSize({ width: 1280, height: 844 });
    const defaults = page.getByRole('group', { name: 'Show stories rated' });
    await expect(defaults.getByRole('checkbox', { name: /^Very Relevant/ })).toBeChecked();
    await expect(defaults.getByRole('checkbox', { name: /^Quite Relevant/ })).toBeChecked();

    // 2. The filter: one rating shows only that rating, as many stories as its count says; every
    // rating shows every story, each once.
    const filter = page.getByRole('group', { name: 'Show stories rated' });
    const input = (label: string) => page.locator(`input[value="${label}"]`);
    const box = (label: string) => filter.locator(input(label));
    const countOf = async (label: string) =>
      Number(
        (await filter
          .locator('label', { has: input(label) })
          .locator('.rating-filter__count')
          .textContent())!.replace(/\D/g, ''),
      );
    const ratingsShown = () => cards(page).locator('.story-card__rating').allTextContents();
    const best = (await first.locator('.story-card__rating').textContent())!;
    const valuesOf = (inputs: Locator) =>
      inputs.evaluateAll((found) => found.map((input) => (input as HTMLInputElement).value));
    const ticked = await valuesOf(filter.locator('input:checked'));
    for (const label of ticked.filter((label) => label !== best)) {
      await box(label).uncheck();
      await remixIdle(page);
    }
    expect(new URL(page.url()).searchParams.getAll('rating')).toEqual([best]);
    const onlyBest = await everyTitle(page);
    expect(onlyBest).toHaveLength(await countOf(best));
    expect(new Set(await ratingsShown())).toEqual(new Set([best]));
    // The rollups story is rated below the default ratings (step 5): the filter left it out.
    expect(onlyBest).not.toContain(rollups.title);
    await showEveryRating(page);
    const everyRatingUrl = page.url();
    const labels = await valuesOf(filter.locator('input'));
    expect(new URL(everyRatingUrl).searchParams.getAll('rating').sort()).toEqual(labels.sort());
    const everyStory = await everyTitle(page);
    expect(new Set(everyStory).size).toBe(everyStory.length);
    expect(everyStory).toEqual(expect.arrayContaining(all.map(({ title }) => title)));
    let counted = 0;
    for (const label of labels) counted += await countOf(label);
    expect(everyStory).toHaveLength(counted);
    // Back to the first page of every rating, where the next steps start.
    await page.goto(everyRatingUrl);
    await hydrated(page);

    // 3. Images hidden, still hidden after a reload.
    await page.getByRole('button', { name: 'Hide images' }).click();
    await expect(page.getByRole('button', { name: 'Show images' })).toBeVisible();
    await expect(cards(page).first().locator('img')).toHaveCount(0);
    await remixIdle(page);
    await page.reload();
    await hydrated(page);
    await expect(page.getByRole('button', { name: 'Show images' })).toBeVisible();
    await expect(page.locator('.story-card__image')).toHaveCount(0);

    // 4. Load more appends the next page where the first ends.
    await expect(cards(page)).toHaveCount(Feed.PAGE_SIZE);
    const before = await titles(page);
    await page.getByRole('link', { name: 'Load more' }).click();
    await expect.poll(async () => (await cards(page).count()) > Feed.PAGE_SIZE).toBe(true);
    expect((await titles(page)).slice(0, Feed.PAGE_SIZE)).toEqual(before);

    // 5. Dislike the newest lending story (the only one from its source): it leaves the list at
    // once (Undo in its place), the banner offers the chat, and the rebuilt list leaves it out.
    await page.goto('/feed');
    await hydrated(page);
    const dislikedCard = cards(page).filter({ hasText: disliked.title });
    await expect(dislikedCard).toHaveCount(1);
    expect(await titles(page)).not.toContain(rollups.title);
    await dislikedCard.getByRole('button', { name: /^Dislike/ }).click();
    await expect
      .poll(async () => (await titles(page)).includes(disliked.title), { timeout: 5_000 })
      .toBe(false);
    await expect(page.getByRole('button', { name: /^Undo your dislike/ })).toBeVisible();
    const chat = page.getByRole('link', { name: 'Let me chat with the assistant' });
    await expect(chat).toBeVisible();
    await expectFitsAndReadable(page, 'the feed with a feedback banner');
    await page.setViewportSize({ width: 1280, height: 844 });
    await feedUpdated(page, reader.user.id);

    // 6. The side panel: chat, review the clues the assistant heard, apply them.
    await chat.click();
    const panel = page.getByRole('dialog', { name: 'Tell us what missed the mark' });
    await expect(panel).toBeVisible();
    await expectFitsAndReadable(page, 'the feed with the side panel');
    await page.setViewportSize({ width: 1280, height: 844 });
    await panel.getByLabel('Your message').fill('I also follow zero-knowledge rollups');
    await panel.getByRole('button', { name: 'Send' }).click();
    await expect(panel.getByRole('log')).toContainText('I also follow zero-knowledge rollups');
    await panel.getByRole('button', { name: 'Review my clues' }).click();
    await expect(panel.getByRole('heading', { name: 'Clues to add' })).toBeVisible();
    await expect(panel).toContainText('zero-knowledge rollups');
    await panel.getByRole('button', { name: 'Apply these changes' }).click();
    await expect(page.getByText('Thank you for your feedback!')).toBeVisible();
    await expect(page.getByRole('dialog', { name: 'Tell us what missed the mark' })).toHaveCount(0);
    await expect(
      page.getByRole('complementary', { name: "Here are the clues you've given us" }),
    ).toContainText('zero-knowledge rollups');

    // 7. Rescored and rebuilt: the rollups story rises, the disliked story is out of the chosen
    // ratings (Not Relevant), the other lending stories still in them.
    await feedUpdated(page, reader.user.id);
    await page.goto('/feed');
    await hydrated(page);
    const after = await everyTitle(page);
    expect(after).not.toContain(disliked.title);
    expect(after).toContain(others[0]!.title);
    expect(after).toContain(rollups.title);

    // Images shown again: the rollups story's, from its publisher's site, loads.
    await page.getByRole('button', { name: 'Show images' }).click();
    const image = cards(page).filter({ hasText: rollups.title }).locator('img');
    await expect(image).toHaveAttribute('src', 'https://images.rollup-report.example/provers.jpg');
    // Card images load lazily, and on a busy machine slowly: it is scrolled to and given time.
    await image.scrollIntoViewIfNeeded();
    await expect
      .poll(
        () => image.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)),
        {
          timeout: 15_000,
        },
      )
      .toBeGreaterThan(0);
    await retireReader(reader.user.id);
  });
});
