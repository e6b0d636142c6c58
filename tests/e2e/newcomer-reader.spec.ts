// What a newcomer reader meets, round 2 (issue 33, items 1-6), at 1280 and 390 px: the funnel's
// Back and Forward keep what was typed and its lead-in; an invitation starts without JavaScript;
// a broken invitation link says it is not valid; a Like without JavaScript is a POST answered by a
// redirect; the side panel is a modal dialog for the keyboard; a story whose image fails gives its
// text the width, and the image toggle says what it will do.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { ulid } from 'ulid';
import { RELEVANCE_LABELS } from '#core/ai';
import * as Feed from '#core/feed';
import * as Scoring from '#core/scoring';
import * as Users from '#core/users';
import { createArticle } from '#tests/integration/factories';
import { readerWithPassword, retireReader } from '#tests/integration/readers';
import { expect, hydrated, remixIdle, test } from './fixtures';
import { heading } from './funnel-steps';
import { contrastProblems, sidewaysOverflow, WIDTHS } from './page-checks';

/**
 * Every rating a story the reader did not dislike can have: the journeys' stories show whatever
 * label the local model gave them, and a disliked one leaves them once the list is rebuilt.
 */
const EVERY_RATING = `/feed?${RELEVANCE_LABELS.filter((label) => label !== 'Not Relevant')
  .map((label) => `rating=${encodeURIComponent(label)}`)
  .join('&')}`;

/**
 * A signed-in reader with a built list of a few scored stories (as their first scoring run
 * leaves it), `image(n)` the picture of the nth, if any.
 */
async function readerWithStories(
  page: Page,
  image: (n: number) => string | undefined = () => undefined,
) {
  const tag = ulid().slice(-6).toLowerCase();
  const articles = [];
  for (let n = 1; n <= 3; n++) {
    articles.push(
      await createArticle({
        title: `Home staking ${tag} ${n}: running Ethereum validators at home`,
        summary: 'Home stakers run Ethereum validators and compare clients for their validators.',
        source: `Staking Times ${tag}`,
        publishedAt: new Date(Date.now() - n * 60_000).toISOString(),
        image: image(n),
      }),
    );
  }
  const reader = await readerWithPassword({ name: 'New Reader' });
  await Users.UserEntity.patch({ id: reader.user.id })
    .set({ descriptors: [{ id: ulid(), clue: 'I run Ethereum validators at home' }] })
    .go();
  const user = (await Users.byId(reader.user.id))!;
  const setup = await Scoring.defaultSetup(ulid());
  for (const article of articles) {
    await Scoring.scoreArticle(article, [Scoring.userTarget(user)], setup);
  }
  await Feed.buildFeed(user.id);
  await page.goto('/login');
  await page.getByLabel('E-mail or username').fill(reader.email);
  await page.getByLabel('Password').fill(reader.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/feed$/, { timeout: 15_000 });
  await page.goto(EVERY_RATING);
  await expect(page.locator('.story-card')).toHaveCount(3);
  return { user, articles };
}

const cardOf = (page: Page, title: string) =>
  page.locator('.story-card').filter({ hasText: title });

async function invitedLink(variant: '' | 'ip' = '') {
  const user = await Users.create({
    name: `Newcomer ${variant || 'default'}`,
    email: `newcomer-${ulid().toLowerCase()}@example.org`,
  });
  const landing = `${process.env.PUBLIC_URL}/get-started${variant ? `?vus=${variant}` : ''}`;
  const link = new URL(Users.invitationLink(landing, { id: user.id, invitationVersion: 0 }));
  return { user, path: `${link.pathname}${link.search}` };
}

/** The page fits the window, its controls can be read, and its after state is kept as a picture. */
async function checkedAfter(page: Page, name: string, width: number) {
  expect(
    await sidewaysOverflow(page),
    `${name} at ${width} px scrolls sideways`,
  ).toBeLessThanOrEqual(0);
  expect(await contrastProblems(page), `${name} at ${width} px`).toEqual([]);
  await page.screenshot({ path: `test-results/after/${name}-${width}.png` });
}

for (const width of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 844 } });

    test('1. Back in the funnel, and Back then Forward, keep the typed clue and its lead-in', async ({
      page,
    }) => {
      const { path } = await invitedLink();
      await page.goto(path);
      await page.getByRole('button', { name: 'Start' }).click();
      await page.getByRole('button', { name: 'I build...' }).click();
      await page.getByRole('button', { name: 'I build protocols for' }).click();
      const descriptor = page.locator('textarea[name="descriptor"]');
      const leadIn = page.locator('.funnel__prefix');
      await descriptor.fill('lending with isolated markets');

      // The page's Back, then the same lead-in again: the words are still there.
      await page.getByRole('button', { name: 'Back' }).click();
      await expect(heading(page, 'I build...')).toBeVisible();
      await page.getByRole('button', { name: 'I build protocols for' }).click();
      await expect(leadIn).toHaveText('I build protocols for...');
      await expect(descriptor).toHaveValue('lending with isolated markets');

      // The browser's Back, then Forward: the lead-in and the words come back with the step.
      await page.goBack();
      await expect(heading(page, 'I build...')).toBeVisible();
      await page.goForward();
      await expect(leadIn).toHaveText('I build protocols for...');
      await expect(descriptor).toHaveValue('lending with isolated markets');

      // Another lead-in keeps the words (their score would be another clue's).
      await page.getByRole('button', { name: 'Back' }).click();
      await page.getByRole('button', { name: 'I build tools for' }).click();
      await expect(leadIn).toHaveText('I build tools for...');
      await expect(descriptor).toHaveValue('lending with isolated markets');
      await checkedAfter(page, 'funnel-back-forward', width);
    });

    // The page answers the broken link with a 400, which the browser reports in its console.
    test.describe('a broken link', () => {
      test.use({ allowConsoleErrors: [/status of 400/] });
      test('6. a broken invitation link says the link is not valid, with no sign-up form', async ({
        page,
      }) => {
        const { path } = await invitedLink();
        const broken = path.replace(
          /user=([^&]+)/,
          (_, token: string) => `user=${token.slice(0, -3)}xyz`,
        );
        for (const link of [broken, '/get-started?user=not-a-link']) {
          const response = await page.goto(link);
          expect(response?.status()).toBe(400);
          await expect(page.getByRole('heading', { name: 'Error!', level: 1 })).toBeVisible();
          await expect(
            page.getByText('This invitation link is not valid or has expired'),
          ).toBeVisible();
          await expect(page.getByText('You are one of the chosen ones')).toHaveCount(0);
          await expect(page.getByLabel('Enter your email to get started...')).toHaveCount(0);
        }
        await checkedAfter(page, 'invitation-broken-link', width);
        await page.getByRole('link', { name: 'Back to Home' }).click();
        await expect(page).toHaveURL(/\/$/);
      });
    });

    test('4. the side panel is a modal dialog: Tab stays inside, Escape closes it and focus returns', async ({
      page,
    }) => {
      test.setTimeout(90_000);
      const { user } = await readerWithStories(page);
      await hydrated(page);
      const opener = page.getByRole('button', { name: 'I want to change some of my clues' });
      await opener.click();
      const panel = page.getByRole('dialog', { name: 'Change your clues' });
      await expect(panel).toBeVisible();
      await expect(panel).toHaveAttribute('aria-modal', 'true');
      await expect(page).toHaveURL(/[?&]thread=/);
      const inside = () => panel.evaluate((dialog) => dialog.contains(document.activeElement));
      await expect.poll(inside).toBe(true);
      // Forward round the panel's controls and back: focus never reaches the page behind it.
      for (const key of [...Array(8).fill('Tab'), ...Array(8).fill('Shift+Tab')]) {
        await page.keyboard.press(key);
        expect(await inside(), `after ${key}`).toBe(true);
      }
      await panel.getByLabel('Your message').focus();
      await checkedAfter(page, 'feed-panel-dialog', width);
      // The open panel passes the accessibility pass too (its log wraps the list of bubbles).
      const { violations } = await new AxeBuilder({ page })
        .include('dialog')
        .withTags(['wcag2a', 'wcag2aa', 'wcag21aa', 'best-practice'])
        .setLegacyMode()
        .analyze();
      expect(
        violations
          .filter(({ impact }) => impact === 'serious' || impact === 'critical')
          .map(({ id, help }) => `${id}: ${help}`),
      ).toEqual([]);

      await page.keyboard.press('Escape');
      await expect(panel).toHaveCount(0);
      await expect(page).not.toHaveURL(/thread=/);
      await expect(opener).toBeFocused();
      await retireReader(user.id);
    });

    test.describe('images', () => {
      // The broken picture's refusal is the browser's console error.
      test.use({ allowConsoleErrors: [/net::ERR_FAILED/] });

      test('5. a story whose image fails gives its text the width; the toggle says what it will do', async ({
        page,
      }) => {
        test.setTimeout(90_000);
        // The first story's picture fails; the others' load (a placeholder for their sites).
        await page.route('https://**/*', (route) =>
          route.request().resourceType() === 'image' && !route.request().url().includes('broken')
            ? route.fulfill({
                status: 200,
                contentType: 'image/svg+xml',
                body: '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="9"><rect width="16" height="9" fill="#ddd"/></svg>',
              })
            : route.abort(),
        );
        const { user, articles } = await readerWithStories(page, (n) =>
          n === 1 ? 'https://broken.example/cover.jpg' : `https://covers.example/${n}.jpg`,
        );
        await hydrated(page);
        const broken = cardOf(page, articles[0]!.title);
        const shown = cardOf(page, articles[1]!.title);
        await expect(shown.locator('img')).toBeVisible();
        await expect(broken.locator('img')).toHaveCount(0);
        // The text starts at the card's edge and takes its whole inner width.
        const room = await broken.evaluate((card) => {
          const body = card.querySelector('.story-card__body')!.getBoundingClientRect();
          const box = card.getBoundingClientRect();
          const style = getComputedStyle(card);
          const inner =
            box.width -
            parseFloat(style.paddingLeft) -
            parseFloat(style.paddingRight) -
            parseFloat(style.borderLeftWidth) -
            parseFloat(style.borderRightWidth);
          return { indent: body.left - box.left, width: body.width, inner };
        });
        expect(room.indent).toBeLessThanOrEqual(20);
        expect(room.width).toBeGreaterThanOrEqual(room.inner - 1);

        const toggle = page.locator('.image-toggle button');
        await expect(toggle).toHaveText('Hide images');
        await checkedAfter(page, 'feed-broken-image', width);
        // The button answers at once; the choice is kept once the post is answered.
        const kept = page.waitForResponse(
          (response) => response.request().method() === 'POST' && response.ok(),
        );
        await toggle.click();
        await expect(toggle).toHaveText('Show images');
        await kept;
        await expect(page.locator('.story-card img')).toHaveCount(0);
        // The post's revalidation may still be streaming: a reload would cut it off.
        await remixIdle(page);
        await page.reload();
        await expect(page.locator('.image-toggle button')).toHaveText('Show images');
        await page.locator('.image-toggle button').click();
        await expect(page.locator('.image-toggle button')).toHaveText('Hide images');
        await expect(shown.locator('img')).toBeVisible();
        await retireReader(user.id);
      });
    });

    test.describe('without JavaScript', () => {
      test.use({ javaScriptEnabled: false });

      test('3. a Like is answered by a redirect: shown pressed at once, and a reload posts nothing', async ({
        page,
      }) => {
        test.setTimeout(90_000);
        const { user, articles } = await readerWithStories(page);
        const liked = cardOf(page, articles[0]!.title);
        const like = liked.getByRole('button', { name: /^Like/ });
        await expect(like).toHaveAttribute('aria-pressed', 'false');
        const posts: string[] = [];
        page.on('request', (request) => {
          if (request.method() === 'POST') posts.push(request.url());
        });
        await like.click();
        await expect(page).toHaveURL(/[?&]feedback=/);
        await expect(like).toHaveAttribute('aria-pressed', 'true');
        await expect(
          page.getByRole('link', { name: 'Let me chat with the assistant' }),
        ).toBeVisible();
        expect(posts).toHaveLength(1);
        await page.reload();
        await expect(like).toHaveAttribute('aria-pressed', 'true');
        expect(posts, 'a reload posts nothing again').toHaveLength(1);
        const stored = await Feed.FeedbackEntity.get({
          userId: user.id,
          articleId: articles[0]!.id,
        }).go();
        expect(stored.data?.kind).toBe('like');

        // A dislike too: the story is out of the reader's stories at once (with Undo in its
        // place, or gone from the rebuilt list if that was quicker).
        const disliked = cardOf(page, articles[1]!.title);
        await disliked.getByRole('button', { name: /^Dislike/ }).click();
        await expect(page).toHaveURL(new RegExp(`[?&]feedback=${articles[1]!.id}`));
        await expect(disliked.getByRole('button', { name: /^Dislike/ })).toHaveCount(0);
        expect(posts).toHaveLength(2);
        await checkedAfter(page, 'feed-like-without-javascript', width);
        await retireReader(user.id);
      });

      test("2. an invited reader starts with Welcome's 'Start'", async ({ page }) => {
        const { user, path } = await invitedLink();
        await page.goto(path);
        await expect(heading(page, 'Welcome on board!')).toBeVisible();
        await page.getByRole('button', { name: 'Start' }).click();
        await expect(page).toHaveURL(/[?&]step=starters/);
        await expect(heading(page, 'Tell us a few things about you')).toBeVisible();
        await expect(page.getByRole('button', { name: 'I build...' })).toBeVisible();
        expect((await Users.byId(user.id))?.status).toBe('Verified');
        // The answer was a redirect: a reload is a plain GET of the same step.
        await page.reload();
        await expect(heading(page, 'Tell us a few things about you')).toBeVisible();
        await checkedAfter(page, 'invitation-start-without-javascript', width);
      });
    });
  });
}
