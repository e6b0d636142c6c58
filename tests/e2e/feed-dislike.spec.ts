// What the reader does not want, end to end on the running product (worker, local AI provider):
// a reader dislikes a story and sees it leave their chosen ratings at once, with Undo; Undo brings
// it back; disliked again and rebuilt, it is 'Not Relevant' in the page and the API, its retelling
// from another source is lowered, and its chip brings it back. A reader who said "stop showing me
// Solana" sees no Solana story above Moderately Relevant, and the chip's × shows them again.
// Without JavaScript, the page after the dislike's post shows the story taken out, with Undo.
import { ulid } from 'ulid';
import type { Page } from '@playwright/test';
import type { RelevanceLabel } from '#core/ai';
import * as Feed from '#core/feed';
import * as Scoring from '#core/scoring';
import * as Users from '#core/users';
import { createArticle } from '#tests/integration/factories';
import { readerWithPassword, retireReader } from '#tests/integration/readers';
import { expect, hydrated, offlineImages, test } from './fixtures';
import { rebuilt, signInToFeed, storyCard as card, storyList as list } from './feed-page';
import { expectFitsAndReadable } from './page-checks';

test.beforeEach(async ({ page }) => offlineImages(page));

const AHEAD = Date.now() + 5 * 60_000;
const minutesAgo = (minutes: number) => new Date(AHEAD - minutes * 60_000).toISOString();

/** The reader's stories, each scored for them by production's setup with the label given. */
async function readerWithStories(tag: string) {
  const reader = await readerWithPassword({ name: 'Mute Reader' });
  await Users.UserEntity.patch({ id: reader.user.id })
    .set({ descriptors: [{ id: ulid(), clue: 'I build DeFi lending on Ethereum' }] })
    .go();
  const user = (await Users.byId(reader.user.id))!;
  const keys = await Scoring.productionKeys();
  const story = async (
    n: number,
    label: RelevanceLabel,
    title: string,
    summary: string,
    source: string,
  ) => {
    const article = await createArticle({
      title: `${title} (${tag})`,
      summary,
      source,
      publishedAt: minutesAgo(n),
    });
    await Scoring.storeScore(article.id, Scoring.userTarget(user), keys, {
      label,
      score: 0.8,
      reason: 'It matches',
      relevantClues: ['I build DeFi lending on Ethereum'],
      publishedAt: article.publishedAt,
      processId: ulid(),
      inputTokens: 0,
      outputTokens: 0,
    });
    return article;
  };
  const fusaka = await story(
    1,
    'Very Relevant',
    'Ethereum core developers set the Fusaka mainnet date',
    'After two clean testnet forks, client teams agreed on an activation epoch for Fusaka.',
    'Chainwire Daily',
  );
  const retold = await story(
    2,
    'Very Relevant',
    'Core devs lock in Fusaka date',
    'Ethereum client teams agreed the Fusaka activation epoch after clean testnet forks.',
    'Blocknotes',
  );
  const oracle = await story(
    3,
    'Very Relevant',
    'Oracle latency is a design parameter, not an afterthought',
    'Lending markets that budget for price staleness liquidate more fairly.',
    'Protocol Review',
  );
  const clients = await story(
    4,
    'Very Relevant',
    'Client diversity on Solana: conversations with validator client teams',
    'Engineers from independent validator client efforts discuss why implementations matter.',
    'The Validator Podcast',
  );
  const inflation = await story(
    5,
    'Quite Relevant',
    'Solana validators approve a 20% cut in inflation',
    'The proposal passed with 71% of staked SOL voting in favour.',
    'Chainwire Daily',
  );
  await Feed.buildFeed(user.id);
  return { reader, fusaka, retold, oracle, solana: [clients, inflation] };
}

const heading = (page: Page, title: string) =>
  list(page).getByRole('heading', { level: 2, name: title });

/** The reader's stories as the API answers them: title to rating. */
async function apiRatings(page: Page) {
  const answer = await page.request.get('/api/users/me/articles');
  expect(answer.status()).toBe(200);
  const { rows } = (await answer.json()) as {
    rows: { Article: { title: string; rating: string } }[];
  };
  return new Map(rows.map(({ Article }) => [Article.title, Article.rating]));
}

test.describe('what the reader does not want', () => {
  test.setTimeout(150_000);

  test('a dislike leaves the chosen ratings at once with Undo; a mute keeps Solana below Moderately Relevant', async ({
    page,
  }) => {
    const tag = ulid().slice(-6).toLowerCase();
    const { reader, fusaka, retold, oracle, solana } = await readerWithStories(tag);
    await page.setViewportSize({ width: 1280, height: 844 });
    await signInToFeed(page, reader);
    await hydrated(page);
    await expect(heading(page, fusaka.title)).toBeVisible();

    // 1. Dislike: out of the list at once, Undo in its place; Undo brings it back.
    await card(page, fusaka.title)
      .getByRole('button', { name: /^Dislike/ })
      .click();
    await expect(heading(page, fusaka.title)).toHaveCount(0, { timeout: 5_000 });
    const undo = list(page).getByRole('button', { name: `Undo your dislike of “${fusaka.title}”` });
    await expect(undo).toBeVisible();
    await expectFitsAndReadable(page, 'the feed with a story taken out');
    await page.setViewportSize({ width: 1280, height: 844 });
    await undo.click();
    await expect(heading(page, fusaka.title)).toBeVisible({ timeout: 5_000 });
    await rebuilt(page, reader.user.id);
    expect((await apiRatings(page)).get(fusaka.title)).toBe('Very Relevant');
    await expect(heading(page, fusaka.title)).toBeVisible();

    // 2. At a phone's width, disliked again: gone at once and, rebuilt, Not Relevant in the API;
    // its retelling from another source is one label lower; the sidebar names it as a chip.
    await page.setViewportSize({ width: 390, height: 844 });
    await card(page, fusaka.title)
      .getByRole('button', { name: /^Dislike/ })
      .click();
    await expect(heading(page, fusaka.title)).toHaveCount(0, { timeout: 5_000 });
    await rebuilt(page, reader.user.id);
    await expect(heading(page, fusaka.title)).toHaveCount(0);
    await expect(heading(page, oracle.title)).toBeVisible();
    const ratings = await apiRatings(page);
    expect(ratings.get(fusaka.title)).toBe('Not Relevant');
    expect(ratings.get(retold.title)).toBe('Quite Relevant');
    expect(ratings.get(oracle.title)).toBe('Very Relevant');
    const mutes = page.getByRole('list', { name: "What you don't want to see" });
    await expect(mutes).toContainText(`Less like: ${fusaka.title.slice(0, 20)}`);
    await expectFitsAndReadable(page, 'the feed with a disliked story as a chip');
    await page.setViewportSize({ width: 1280, height: 844 });
    await mutes.getByRole('button', { name: /^Remove “Less like:/ }).click();
    await expect(mutes).toHaveCount(0);
    await rebuilt(page, reader.user.id);
    await expect(heading(page, fusaka.title)).toBeVisible();

    // 3. "Stop showing me Solana stories" (the assistant's review): after the rebuild no
    // Solana story is above Moderately Relevant, and the chip's × shows them again.
    for (const story of solana) await expect(heading(page, story.title)).toBeVisible();
    // Stored as the assistant's 'Apply' stores it; the list built here, as the worker would.
    await Users.applyClueChanges(reader.user.id, {
      category: 'change_clues',
      mutesToBeAdded: [{ mute: 'Solana stories' }],
    });
    await Feed.buildFeed(reader.user.id);
    await rebuilt(page, reader.user.id);
    for (const story of solana) await expect(heading(page, story.title)).toHaveCount(0);
    const afterMute = await apiRatings(page);
    for (const [title, rating] of afterMute) {
      if (/solana/i.test(title)) {
        expect(['Not Relevant', 'Slightly Relevant', 'Moderately Relevant'], title).toContain(
          rating,
        );
      }
    }
    await expect(mutes).toContainText('Not: Solana stories');
    await expectFitsAndReadable(page, 'the feed with a mute chip');
    await page.setViewportSize({ width: 1280, height: 844 });
    await mutes.getByRole('button', { name: 'Remove “Not: Solana stories”' }).click();
    await expect(mutes).toHaveCount(0);
    await rebuilt(page, reader.user.id);
    for (const story of solana) await expect(heading(page, story.title)).toBeVisible();
    await retireReader(reader.user.id);
  });
});

test.describe('what the reader does not want, without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a dislike takes the story out after the post; Undo brings it back once rebuilt', async ({
    page,
  }) => {
    const tag = ulid().slice(-6).toLowerCase();
    const { reader, fusaka } = await readerWithStories(tag);
    await signInToFeed(page, reader);
    await card(page, fusaka.title)
      .getByRole('button', { name: /^Dislike/ })
      .click();
    await expect(heading(page, fusaka.title)).toHaveCount(0);
    await list(page)
      .getByRole('button', { name: `Undo your dislike of “${fusaka.title}”` })
      .click();
    expect((await Users.byId(reader.user.id))!.mutes).toEqual([]);
    // The page says the feed is being updated; once rebuilt, the story is back.
    await expect
      .poll(async () => (await Users.byId(reader.user.id))?.feedRequestedAt ?? 'done', {
        timeout: 60_000,
      })
      .toBe('done');
    await page.reload();
    await expect(heading(page, fusaka.title)).toBeVisible();
    await retireReader(reader.user.id);
  });
});
