// The reader's feed without JavaScript: sign-in, the rating filter (a GET form with its 'Show'
// button), 'Load more' (a link to the next offset, with a way back), and the side panel (a form
// that opens a conversation named in the URL, a message sent, the panel closed).
import { ulid } from 'ulid';
import * as Feed from '#core/feed';
import * as Scoring from '#core/scoring';
import * as Users from '#core/users';
import { createArticle } from '#tests/integration/factories';
import { readerWithPassword, retireReader } from '#tests/integration/readers';
import { expect, offlineImages, test } from './fixtures';
import { signInToFeed } from './feed-page';

test.beforeEach(async ({ page }) => offlineImages(page));

test.use({ javaScriptEnabled: false });

test("the feed's filter, 'Load more' and side panel work without JavaScript", async ({ page }) => {
  test.setTimeout(90_000);
  const tag = ulid().slice(-6).toLowerCase();
  const articles = [];
  for (let n = 1; n <= 25; n++) {
    articles.push(
      await createArticle({
        title: `Validator operations ${tag} ${n}: running Ethereum validators at home`,
        summary: 'Home stakers run Ethereum validators and compare clients for their validators.',
        source: `Staking Times ${tag}`,
        publishedAt: new Date(Date.now() - n * 60_000).toISOString(),
      }),
    );
  }
  const reader = await readerWithPassword({ name: 'Plain Reader' });
  await Users.UserEntity.patch({ id: reader.user.id })
    .set({ descriptors: [{ id: ulid(), clue: 'I run Ethereum validators at home' }] })
    .go();
  const user = (await Users.byId(reader.user.id))!;
  const setup = await Scoring.defaultSetup(ulid());
  for (const article of articles) {
    await Scoring.scoreArticle(article, [Scoring.userTarget(user)], setup);
  }
  await Feed.buildFeed(user.id);
  const total = Object.values(Feed.countsOf((await Users.byId(user.id))!)).reduce((a, n) => a + n);
  expect(total).toBe(25);

  await signInToFeed(page, reader);
  // The list's own items: a story's card holds a list of its other sources.
  const stories = page.getByRole('list', { name: 'Stories' }).locator(':scope > li');

  // Every rating, through the form's own button.
  const filter = page.getByRole('group', { name: 'Show stories rated' });
  for (const box of await filter.getByRole('checkbox').all()) await box.check();
  await filter.getByRole('button', { name: 'Show' }).click();
  await expect(page).toHaveURL(/rating=/);
  await expect(stories).toHaveCount(Feed.PAGE_SIZE);

  // 'Load more' is a link to the next stories, which say where they are.
  await page.getByRole('link', { name: 'Load more' }).click();
  await expect(page).toHaveURL(/offset=20/);
  await expect(page.getByText(`Stories 21–25 of 25.`)).toBeVisible();
  await expect(stories).toHaveCount(5);
  await page.getByRole('link', { name: 'Back to the first stories' }).click();
  await expect(stories).toHaveCount(Feed.PAGE_SIZE);

  // The side panel: a conversation named in the URL; a message sent; closed.
  await page.getByRole('button', { name: 'I want to change some of my clues' }).click();
  await expect(page).toHaveURL(/thread=/);
  const panel = page.getByRole('dialog', { name: 'Change your clues' });
  await panel.getByLabel('Your message').fill('I also follow restaking');
  await panel.getByRole('button', { name: 'Send' }).click();
  await expect(panel.getByRole('log')).toContainText('I also follow restaking');
  await panel.getByRole('link', { name: /^Close/ }).click();
  await expect(page).not.toHaveURL(/thread=/);
  await expect(page.getByRole('dialog', { name: 'Change your clues' })).toHaveCount(0);
  await retireReader(reader.user.id);
});
