// The feedback banner a like opens: its chips read as a reader's requests ("More on ..."), and it
// never covers a story's text, at 1280 and at 390 px. Each story card's text boxes (meta line,
// title, excerpt, why it is here) are compared with the banner's box.
import { ulid } from 'ulid';
import type { Locator, Page } from '@playwright/test';
import * as Feed from '#core/feed';
import * as Scoring from '#core/scoring';
import * as Users from '#core/users';
import { createArticle } from '#tests/integration/factories';
import { readerWithPassword, retireReader } from '#tests/integration/readers';
import { expect, hydrated, offlineImages, test } from './fixtures';
import { signInToFeed, storyCards as cards } from './feed-page';

const TEXT = '.story-card__meta, .story-card__title, .story-card__excerpt, .story-card__why';

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Every story text box that overlaps the banner's, as "title: class" (none expected). */
async function coveredText(page: Page, banner: Locator): Promise<string[]> {
  const own = (await banner.boundingBox())!;
  const covered: string[] = [];
  for (const card of await page.locator('.story-card').all()) {
    const title = await card.getByRole('heading', { level: 2 }).textContent();
    for (const text of await card.locator(TEXT).all()) {
      const box = await text.boundingBox();
      if (box && overlaps(own, box)) {
        covered.push(`${title}: ${await text.getAttribute('class')}`);
      }
    }
  }
  return covered;
}

test('the feedback banner offers "More on ..." chips and never covers story text, at 1280 and 390 px', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await offlineImages(page);
  const tag = ulid().slice(-6).toLowerCase();
  const now = Date.now() + 5 * 60_000;
  const articles = [
    await createArticle({
      title: 'Lumen Labs raises $24 million to build a zero-knowledge co-processor',
      summary:
        'The zero-knowledge co-processor lets Ethereum contracts prove facts about past state ' +
        'without trusting an oracle. '.repeat(3),
      source: `ZK Wire ${tag}`,
      publishedAt: new Date(now).toISOString(),
    }),
  ];
  for (let n = 1; n <= 6; n++) {
    articles.push(
      await createArticle({
        title: `Zero-knowledge proof systems ${tag} ${n}: provers get cheaper`,
        summary:
          'Zero-knowledge researchers cut proving costs with folding schemes and lookup ' +
          'arguments; zk proof systems ship faster provers. '.repeat(4),
        source: `Proof Post ${tag}`,
        publishedAt: new Date(now - n * 60_000).toISOString(),
      }),
    );
  }
  const reader = await readerWithPassword({ name: 'Toast Reader' });
  await Users.UserEntity.patch({ id: reader.user.id })
    .set({ descriptors: [{ id: ulid(), clue: 'I research zero-knowledge proof systems' }] })
    .go();
  const user = (await Users.byId(reader.user.id))!;
  const setup = await Scoring.defaultSetup(ulid());
  for (const article of articles)
    await Scoring.scoreArticle(article, [Scoring.userTarget(user)], setup);
  await Feed.buildFeed(user.id);

  await signInToFeed(page, reader);

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 844 });
    await page.goto('/feed');
    await hydrated(page);
    const card = cards(page).filter({ hasText: 'Lumen Labs raises' });
    const like = card.getByRole('button', { name: /^Like/ });
    // Liked at 1280 already: pressing again answers with the banner all the same.
    await like.click();
    const chips = page.getByRole('list', { name: 'What would you like to do?' });
    await expect(chips).toBeVisible();
    const texts = await chips.getByRole('listitem').allTextContents();
    expect(texts[0]).toBe('Let me chat with the assistant');
    expect(texts.slice(1).length).toBeGreaterThan(0);
    for (const chip of texts.slice(1)) expect(chip).toMatch(/^More on /);
    expect(texts).toContain('More on zero-knowledge co-processors');

    const banner = page.locator('.feed-banner--feedback');
    await expect(banner).toBeInViewport();
    expect(await coveredText(page, banner), `at ${width} px`).toEqual([]);
    // Scrolled so the banner sits at the foot of the window: still nothing under it.
    await banner.evaluate((element) => element.scrollIntoView({ block: 'end' }));
    expect(await coveredText(page, banner), `at ${width} px, scrolled`).toEqual([]);
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth).toBeLessThanOrEqual(width);
  }

  // A chip adds its text as a clue and thanks the reader, in the same place.
  await page
    .getByRole('list', { name: 'What would you like to do?' })
    .getByRole('button', { name: 'More on zero-knowledge co-processors' })
    .click();
  const thanks = page.getByText('Thank you for your feedback, it means a lot!');
  await expect(thanks).toBeVisible();
  expect(await coveredText(page, page.locator('.feed-banner--feedback'))).toEqual([]);
  await expect
    .poll(async () => (await Users.byId(reader.user.id))?.descriptors?.map((d) => d.clue))
    .toContain('More on zero-knowledge co-processors');
  await retireReader(reader.user.id);
});
