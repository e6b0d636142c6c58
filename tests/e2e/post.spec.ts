import { expect, test } from './fixtures';
import { audienceOf, audioPost, originalPost, pickedPost, videoPost } from './seed';

test('a picked post shows its minutes to read, its author and a link to the source', async ({
  page,
}) => {
  await page.goto(`/p/${pickedPost.slug}`);
  await expect(page).toHaveTitle(`${pickedPost.title} · Cluefeed`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(pickedPost.title);
  await expect(page.locator('.post__meta')).toContainText(`${pickedPost.minutes} min read`);
  await expect(
    page.getByRole('link', { name: `Read on ${pickedPost.link!.domain}` }),
  ).toHaveAttribute('href', pickedPost.link!.url);
  await expect(page.getByRole('complementary', { name: 'About the author' })).toBeVisible();
  await expect(
    page.getByRole('link', { name: `For those who ${audienceOf(pickedPost).title}` }),
  ).toBeVisible();
});

test('audio and video posts read as listen and watch', async ({ page }) => {
  await page.goto(`/p/${audioPost.slug}`);
  await expect(page.locator('.post__meta')).toContainText(`${audioPost.minutes} min listen`);
  await page.goto(`/p/${videoPost.slug}`);
  await expect(page.locator('.post__meta')).toContainText(`${videoPost.minutes} min watch`);
});

test('an original post renders its Markdown content', async ({ page }) => {
  await page.goto(`/p/${originalPost.slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(originalPost.title);
  const prose = page.locator('.post .prose');
  await expect(prose.locator('p').first()).toBeVisible();
  expect(await prose.locator('script').count()).toBe(0);
  await expect(page.getByRole('link', { name: /^Read on / })).toHaveCount(0);
});
