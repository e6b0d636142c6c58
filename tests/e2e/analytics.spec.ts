// Page views in real Chromium: a public document and a hydrated page report theirs with the token
// their page carries, counted once each; the headless shell itself is a known bot and is not.
import * as Analytics from '#core/analytics';
import { expect, hydrated, test } from './fixtures';
import { busyAudience } from './seed';

const today = () => new Date().toISOString().slice(0, 10);
const viewsOf = async (utm: string) =>
  (await Analytics.forDay(today())).filter((event) => event.utm === utm);

test.describe('a visitor', () => {
  // A desktop Chrome, not the headless shell's own user agent (isbot knows that one).
  test.use({
    userAgent:
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  });

  test('records a page view with utm, raud and vus', async ({ page }) => {
    const utm = `e2e${Date.now()}`;
    await page.goto(`/a/${busyAudience.slug}?utm=${utm}&vus=ip&raud=home`);
    await expect
      .poll(async () => (await viewsOf(utm))[0])
      .toMatchObject({
        name: 'page_view',
        path: `/a/${busyAudience.slug}`,
        vus: 'ip',
        raud: 'home',
      });
  });

  test('counts a page once however often its token is sent again', async ({ page }) => {
    const utm = `e2e-replay${Date.now()}`;
    await page.goto(`/?utm=${utm}`);
    await expect.poll(async () => (await viewsOf(utm)).length).toBe(1);
    const token = await page.locator('[data-page-view-token]').getAttribute('data-page-view-token');
    for (let i = 0; i < 20; i++) {
      const answer = await page.request.post('/api/events', {
        data: { name: 'page_view', token },
      });
      expect(answer.status()).toBe(204);
    }
    const forged = await page.request.post('/api/events', {
      data: { name: 'page_view', path: '/', utm },
    });
    expect(forged.status()).toBe(400);
    expect(await viewsOf(utm)).toHaveLength(1);
  });

  test('records each path a hydrated page shows, with its own token', async ({ page }) => {
    const utm = `e2e-nav${Date.now()}`;
    await page.goto(`/about?utm=${utm}`);
    await hydrated(page);
    await expect.poll(async () => (await viewsOf(utm)).length).toBe(1);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy policy' }).click();
    await expect(page).toHaveURL(/\/privacy-policy/);
    await expect
      .poll(async () => (await viewsOf(utm)).map((event) => event.path).sort())
      .toEqual(['/about', '/privacy-policy']);
  });
});

test('does not count the headless shell, a known bot', async ({ page }) => {
  const utm = `e2e-bot${Date.now()}`;
  const beacon = page.waitForResponse((answer) => answer.url().endsWith('/api/events'));
  await page.goto(`/a/${busyAudience.slug}?utm=${utm}`);
  expect((await beacon).status()).toBe(204);
  expect(await viewsOf(utm)).toEqual([]);
});
