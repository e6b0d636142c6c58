// The reader's side understands them, end to end on the running product (worker, local AI
// provider, every demo story): a reader with a DeFi-lending and a security-research clue finds the
// security stories that share no word with their clues in their first 10, each with a reason that
// names something of its own story; asks the assistant to stop showing Solana stories and, once
// rebuilt, sees none above Moderately Relevant; dislikes a story and sees it leave at once.
import { readFileSync } from 'node:fs';
import { ulid } from 'ulid';
import type { Page } from '@playwright/test';
import * as Feed from '#core/feed';
import * as Scoring from '#core/scoring';
import * as Users from '#core/users';
import { createArticle } from '#tests/integration/factories';
import { readerWithPassword, retireReader } from '#tests/integration/readers';
import { expect, hydrated, offlineImages, remixIdle, test } from './fixtures';
import { showEveryRating, signInToFeed, storyCards as cards } from './feed-page';
import { expectFitsAndReadable, WIDTHS } from './page-checks';

test.beforeEach(async ({ page }) => offlineImages(page));

const CLUES = [
  'I build DeFi lending on Ethereum, with a focus on smart-contract security',
  'I research smart contract security: audits, exploits and formal verification',
];
const SECURITY_STORIES = [
  'Storage collisions in upgradeable proxies: a field guide',
  'Signature replay across chains: the permit edge cases',
];

/** Every demo story (the posts and the fixture feeds' articles), as the shipped eval set has them. */
function demoStories(): { title: string; summary: string }[] {
  const [line] = readFileSync(
    new URL('../../scripts/eval/web3-readers.jsonl', import.meta.url),
    'utf8',
  ).split('\n');
  return (JSON.parse(line!) as { candidates: { title: string; summary: string }[] }).candidates;
}

const titles = (page: Page) =>
  page.getByRole('list', { name: 'Stories' }).getByRole('heading', { level: 2 }).allTextContents();

/** Waits until the reader's list shows every change they made, then reloads it. */
async function rebuilt(page: Page, userId: string) {
  // The card leaves before the dislike is answered: wait for the answer, then for the build.
  await remixIdle(page);
  await expect
    .poll(async () => (await Users.byId(userId))?.feedRequestedAt ?? 'done', { timeout: 60_000 })
    .toBe('done');
  await page.goto('/feed');
  await hydrated(page);
}

/** Every story with every rating shown: its title, rating and excerpt. */
async function everyStory(page: Page) {
  await showEveryRating(page);
  const more = page.getByRole('link', { name: 'Load more' });
  while ((await more.count()) > 0) {
    const shown = await cards(page).count();
    await more.click();
    await expect.poll(() => cards(page).count()).toBeGreaterThan(shown);
  }
  return Promise.all(
    (await cards(page).all()).map(async (card) => ({
      title: await card.getByRole('heading', { level: 2 }).innerText(),
      rating: await card.locator('.story-card__rating').innerText(),
      text: await card.innerText(),
    })),
  );
}

const words = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\d][\p{L}\d-]{2,}/gu));

for (const width of WIDTHS) {
  test(`a web3 reader's feed fits them, at ${width} px: stories, reasons, "stop showing", dislike`, async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width, height: 900 });
    const tag = ulid().slice(-6).toLowerCase();
    const reader = await readerWithPassword({ name: 'Security Reader' });
    await Users.UserEntity.patch({ id: reader.user.id })
      .set({ descriptors: CLUES.map((clue) => ({ id: ulid(), clue })) })
      .go();
    const user = (await Users.byId(reader.user.id))!;
    // Every demo story, scored for the reader by production's setup (the local ranker), and
    // their list built, as their first scoring run does.
    const setup = await Scoring.defaultSetup(ulid());
    for (const [i, story] of demoStories().entries()) {
      const article = await createArticle({
        ...story,
        source: `Demo ${tag}`,
        publishedAt: new Date(Date.now() - i * 60_000).toISOString(),
      });
      await Scoring.scoreArticle(article, [Scoring.userTarget(user)], setup);
    }
    await Feed.buildFeed(user.id);

    await signInToFeed(page, reader);
    await hydrated(page);

    // 1. The security stories that share no word with the clues are in the first 10.
    const firstTen = (await titles(page)).slice(0, 10);
    for (const title of SECURITY_STORIES) expect(firstTen).toContain(title);

    // 2. Every reason on the first page names something of its own story, and no clue whole.
    for (const card of await cards(page).all()) {
      const text = await card.innerText();
      const why = /Why it is here:\s*(.+)/.exec(text)?.[1] ?? '';
      const named =
        /^(?:It covers|A loose match: it touches on|Outside your clues: it is about) (.+?)(?:, (?:for|near) your clue on .+)?\.$/.exec(
          why.trim(),
        )?.[1];
      expect(named, why).toBeTruthy();
      const story = words(text.replace(why, ''));
      expect(
        [...words(named!)].some((word) => story.has(word)),
        `${why} | ${text}`,
      ).toBe(true);
      for (const clue of CLUES) expect(why).not.toContain(clue);
    }
    await expectFitsAndReadable(page, 'the reader’s feed');
    await page.setViewportSize({ width, height: 900 });

    // 3. "Stop showing me Solana stories": understood, applied, and after the rebuild no Solana
    // story is above Moderately Relevant.
    await page.getByRole('button', { name: 'I want to change some of my clues' }).click();
    const panel = page.getByRole('dialog', { name: 'Change your clues' });
    await panel.getByLabel('Your message').fill('stop showing me Solana stories');
    await panel.getByRole('button', { name: 'Send' }).click();
    await expect(panel.getByRole('log')).toContainText('Stop showing: Solana');
    await panel.getByRole('button', { name: 'Review my clues' }).click();
    await panel.getByRole('button', { name: 'Apply these changes' }).click();
    await expect(page.getByText('Thank you for your feedback!')).toBeVisible();
    await rebuilt(page, user.id);
    await expect(page.getByRole('region', { name: "What you don't want to see" })).toContainText(
      'Solana',
    );
    const solana = (await everyStory(page)).filter((story) => /solana/i.test(story.text));
    expect(solana.length).toBeGreaterThan(0);
    for (const story of solana)
      expect(['Slightly Relevant', 'Not Relevant'], story.title).toContain(story.rating);

    // 4. A dislike: the story leaves the chosen ratings within 5 s, and stays out once rebuilt.
    await page.goto('/feed');
    await hydrated(page);
    const [disliked] = await titles(page);
    const card = cards(page).filter({ hasText: disliked! });
    await card.getByRole('button', { name: /^Dislike/ }).click();
    await expect(
      page.getByRole('list', { name: 'Stories' }).getByRole('heading', { name: disliked }),
    ).toHaveCount(0, { timeout: 5_000 });
    await rebuilt(page, user.id);
    expect(await titles(page)).not.toContain(disliked);

    await retireReader(user.id);
  });
}
