// The reader's private feed for reader apps (ADR 0061), at 1280 and 390 px and without JavaScript:
// turn it on at /account, fetch the RSS address as a reader app would (200, then 304 to its ETag),
// read it back with the import's own parser, vote from an item's link, rotate it (the old address
// answers 404) and turn it off (404).
import AxeBuilder from '@axe-core/playwright';
import { ulid } from 'ulid';
import * as Feed from '#core/feed';
import * as Feeds from '#core/feeds';
import { readerWithFeed, retireReader } from '#tests/integration/readers';
import { expect, test } from './fixtures';
import { expectFitsAndReadable, WIDTHS } from './page-checks';

type Page = import('@playwright/test').Page;

/** Serious or critical WCAG 2.x A/AA violations on the page, one line per element. */
async function expectAccessible(page: Page, label: string, scripts: boolean) {
  if (!scripts) return;
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .setLegacyMode()
    .analyze();
  const serious = violations
    .filter((violation) => ['serious', 'critical'].includes(violation.impact ?? ''))
    .flatMap((violation) =>
      violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')}`),
    );
  expect.soft(serious, `${label}: accessibility`).toEqual([]);
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('E-mail or username').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/feed$/);
}

/** The RSS address the page shows, once, after turning on or rotating. */
async function shownAddress(page: Page): Promise<string> {
  const address = page.getByTestId('reader-feed-rss');
  await expect(address).toBeVisible();
  return (await address.textContent())!.trim();
}

/** `scripts: false` is a browser without JavaScript, where axe (a script in the page) cannot run. */
async function journey(page: Page, width: number, { scripts = true } = {}) {
  test.setTimeout(90_000);
  const name = `App Reader ${ulid().slice(-6)}`;
  const reader = await readerWithFeed(['Very Relevant', 'Quite Relevant'], name);
  try {
    await page.setViewportSize({ width, height: 844 });
    await signIn(page, reader.email, reader.password);
    await page
      .getByRole('navigation', { name: 'User menu' })
      .getByRole('link', { name: 'Your account' })
      .click();
    await expect(page).toHaveURL(/\/account$/);
    const section = page.getByRole('region', { name: 'Your stories in a reader app' });
    await expect(section.getByText('Your private feed is off.')).toBeVisible();
    await section.getByRole('button', { name: 'Turn on private feed' }).click();
    await expect(section.getByRole('heading', { name: 'Your private feed address' })).toBeVisible();
    const rss = await shownAddress(page);
    expect(rss).toMatch(/\/reader-feed\/cff_[\w-]+\/feed\.xml$/);
    await expectFitsAndReadable(page, `/account with the address, ${width} px`);
    await expectAccessible(page, '/account with the address', scripts);
    await page.setViewportSize({ width, height: 844 });

    // A reader app polls it: 200 with validators, then 304 to the same ETag.
    const first = await page.request.get(rss);
    expect(first.status()).toBe(200);
    expect(first.headers()['content-type']).toBe('application/rss+xml; charset=utf-8');
    const etag = first.headers()['etag']!;
    const parsed = Feeds.parseFeed(await first.text());
    expect(parsed.items.map((item) => item.title)).toEqual([`${name} story 1`, `${name} story 2`]);
    const again = await page.request.get(rss, { headers: { 'If-None-Match': etag } });
    expect(again.status()).toBe(304);

    // An item's like link opens a page; only its button records the like.
    const like = /href="([^"]+kind=like[^"]*)"/.exec(
      parsed.items[0]!.summary ?? parsed.items[0]!.contentHtml ?? '',
    )![1]!;
    await page.goto(like.replace(/&amp;/g, '&'));
    await expect(page.getByRole('heading', { name: 'Like this story?' })).toBeVisible();
    await expectFitsAndReadable(page, `the vote page, ${width} px`);
    await page.setViewportSize({ width, height: 844 });
    await expectAccessible(page, 'the vote page', scripts);
    const story = reader.articles[0]!;
    expect(
      (await Feed.FeedbackEntity.get({ userId: reader.user.id, articleId: story.id }).go()).data,
    ).toBeNull();
    await page.getByRole('button', { name: 'Record my like' }).click();
    await expect(page.getByRole('heading', { name: 'Your like is recorded' })).toBeVisible();
    expect(
      (await Feed.FeedbackEntity.get({ userId: reader.user.id, articleId: story.id }).go()).data
        ?.kind,
    ).toBe('like');

    // Rotating gives a new address; the old one stops working.
    await page.goto('/account');
    await expect(section.getByTestId('reader-feed-rss')).toHaveCount(0);
    await section.getByRole('button', { name: 'Rotate address' }).click();
    await expect(
      section.getByRole('heading', { name: 'Your new private feed address' }),
    ).toBeVisible();
    const rotated = await shownAddress(page);
    expect(rotated).not.toBe(rss);
    expect((await page.request.get(rss)).status()).toBe(404);
    expect((await page.request.get(rotated)).status()).toBe(200);

    // Turning it off stops the new one too.
    await section.getByRole('button', { name: 'Turn off private feed' }).click();
    await expect(
      section.getByText('Your private feed is off. Its address no longer works.'),
    ).toBeVisible();
    expect((await page.request.get(rotated)).status()).toBe(404);
    await expectFitsAndReadable(page, `/account, off, ${width} px`);
    await expectAccessible(page, '/account, off', scripts);
  } finally {
    await retireReader(reader.user.id);
  }
}

for (const width of WIDTHS) {
  test(`a reader follows their stories in a reader app, rotates and turns it off (${width} px)`, async ({
    page,
  }) => {
    await journey(page, width);
  });
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });
  test('the private feed is turned on, rotated and turned off with plain forms (390 px)', async ({
    page,
  }) => {
    await journey(page, 390, { scripts: false });
  });
});
