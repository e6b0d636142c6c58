import * as Analytics from '#core/analytics';
import { expect, test } from './fixtures';
import { busyAudience } from './seed';

test('records a page view with utm, raud and vus', async ({ page }) => {
  const utm = `e2e${Date.now()}`;
  await page.goto(`/a/${busyAudience.slug}?utm=${utm}&vus=ip&raud=home`);
  const today = new Date().toISOString().slice(0, 10);
  await expect
    .poll(async () => (await Analytics.forDay(today)).find((event) => event.utm === utm))
    .toMatchObject({ name: 'page_view', path: `/a/${busyAudience.slug}`, vus: 'ip', raud: 'home' });
});
