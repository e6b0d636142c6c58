// Public pages stay light on a phone: each loads at most 60 KB of JavaScript (gzip), everything
// included (ADR 35). The app's pages (funnel, admin) load React and Remix; a public page must not.
import { javaScriptOf, PUBLIC_PAGE_JS_BUDGET } from '#tests/page-javascript';
import { expect, test } from './fixtures';
import { busyAudience, busyAudienceCardsOnOnePage, originalPost } from './seed';

const publicPages = [
  { name: 'home', path: '/' },
  { name: 'audience', path: `/a/${busyAudience.slug}` },
  { name: 'post', path: `/p/${originalPost.slug}` },
];

for (const { name, path } of publicPages) {
  test(`the ${name} page loads at most 60 KB of JavaScript`, async ({ page }) => {
    const javaScript = await javaScriptOf(page, path);
    const listed = javaScript.scripts.map((script) => `${script.source}: ${script.gzip} B`);
    expect(javaScript.gzip, listed.join('\n')).toBeLessThanOrEqual(PUBLIC_PAGE_JS_BUDGET);
    // The page still runs its script: the menu closes on Escape.
    await page.getByText('Menu', { exact: true }).click();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('heading', { name: 'Browse our audiences' })).toBeHidden();
  });
}

test('a content card page loads no more JavaScript than the budget either', async ({ page }) => {
  await page.goto(`/a/${busyAudience.slug}`);
  const cardPath = await page.locator('article.card .card__title a').first().getAttribute('href');
  const javaScript = await javaScriptOf(page, cardPath!);
  expect(javaScript.gzip).toBeLessThanOrEqual(PUBLIC_PAGE_JS_BUDGET);
});

test('a public page reached by a link of the app loads as a document and runs its script', async ({
  page,
}) => {
  await page.goto('/about');
  await page.getByText('Menu', { exact: true }).click();
  await page.locator('.menu__panel .cloud a').filter({ hasText: busyAudience.title }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    `For those who ${busyAudience.title}`,
  );
  // The app's router never renders a public page: it is a document with the public-page script.
  expect(await page.evaluate(() => '__remixContext' in window)).toBe(false);
  // Its script handles View more in place: the page stays, the link goes once all is shown.
  await page.getByRole('link', { name: 'View more' }).click();
  await expect(page.getByRole('link', { name: 'View more' })).toHaveCount(0);
  await expect(page.locator('article.card')).toHaveCount(busyAudienceCardsOnOnePage);
  await expect(page).toHaveURL(new RegExp(`/a/${busyAudience.slug}$`));
});

test('every page links one stylesheet, cached for a year, and inlines no CSS; a public page only the public rules', async ({
  page,
  request,
}) => {
  const linked = new Map<string, string>();
  for (const path of ['/', '/about', `/a/${busyAudience.slug}`, '/login']) {
    const html = await (await request.get(path)).text();
    const inline = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map(
      ([, css]) => css!.length,
    );
    expect(
      inline.reduce((sum, length) => sum + length, 0),
      path,
    ).toBeLessThanOrEqual(5_000);
    const sheets = [...html.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map(
      ([, href]) => href!,
    );
    expect(sheets, path).toHaveLength(1);
    // A public document takes the public pages' rules alone; the app's pages, all of them.
    const publicDocument = path === '/' || path.startsWith('/a/');
    expect(sheets[0], path).toMatch(
      publicDocument ? /^\/assets\/public-[\w-]+\.css$/ : /^\/assets\/app-[\w-]+\.css$/,
    );
    linked.set(path, sheets[0]!);
  }
  const bytes = async (path: string) =>
    (await (await request.get(linked.get(path)!)).body()).length;
  expect(await bytes('/')).toBeLessThan((await bytes('/login')) * 0.7);
  const sheet = await request.get(
    /<link rel="stylesheet" href="([^"]+)"/.exec(await (await request.get('/')).text())![1]!,
  );
  expect(sheet.headers()['cache-control']).toContain('immutable');
  expect(sheet.headers()['content-type']).toContain('text/css');
  // A post's badge looks as it did when every page had the app's rules too (ADR 0069).
  await page.goto(`/p/${originalPost.slug}`);
  const badge = page.locator('.badge').first();
  await expect(badge).toHaveCSS('border-top-width', '1px');
  await expect(badge).toHaveCSS('font-size', '12.8px');
  // And the page is styled by it: the skip link is moved off screen until focused.
  await page.goto('/');
  const box = await page.getByRole('link', { name: 'Skip to content' }).boundingBox();
  expect(box === null || box.y < 0 || box.x < 0 || box.width <= 1).toBe(true);
});
