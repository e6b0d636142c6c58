// The public site, round 2 (issue 33, items 14, 15 and 17), at 1280 and 390 px: one footer and
// one story on home and About, a story in at most one card of an audience page, audience chips
// that keep their place when clicked, and an Upcoming niches Submit that says why it waits.
import type { Page } from '@playwright/test';
import { ulid } from 'ulid';
import * as Subscribers from '#core/subscribers';
import { expect, hydrated, test } from './fixtures';
import { expectFitsAndReadable, WIDTHS } from './page-checks';
import { busyAudience, featuredAudiences } from './seed';

const year = String(new Date().getFullYear());
/** The featured audiences as the clouds list them: by title. */
const featuredTitles = featuredAudiences.map((audience) => audience.title).sort();

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `test-results/after/${name}.png`, fullPage: true });

async function expectOneFooter(page: Page) {
  const footer = page.locator('.site-footer');
  await expect(footer).toHaveCount(1);
  await expect(footer).toContainText(`© ${year} Cluefeed`);
  await expect(footer.getByRole('link', { name: 'About' })).toBeVisible();
  await expect(footer.getByRole('link', { name: 'Privacy policy' })).toBeVisible();
}

/** Subscribes `email` through the busy audience's page, which leads to Assemble your newsletter. */
async function subscribed(page: Page, email: string) {
  await page.goto(`/a/${busyAudience.slug}`);
  const hero = page.locator('.audience__hero');
  await hero.getByPlaceholder('Enter your email').fill(email);
  await hero.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByRole('heading', { name: 'Assemble your newsletter' })).toBeVisible();
  return (await Subscribers.byEmail(email))!;
}

for (const width of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 844 } });

    test('home and About share one footer and one story, and home links to the audiences', async ({
      page,
    }) => {
      const offer = 'Join our waiting list for a feed of your own';
      await page.goto('/');
      await expectOneFooter(page);
      await expect(page.getByText('© 2025')).toHaveCount(0);
      await expect(page.getByText(offer)).toBeVisible();
      // The audiences, outside the closed menu.
      const start = page.getByRole('region', { name: 'Get your newsletter' });
      await expect(start.getByRole('link')).toHaveText(featuredTitles);
      await expect(page.locator('.menu')).not.toHaveAttribute('open');
      await expectFitsAndReadable(page, `/ at ${width}`);
      await page.setViewportSize({ width, height: 844 });
      await shot(page, `home-${width}`);

      await start.getByRole('link', { name: featuredAudiences[0]!.title }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(
        `For those who ${featuredAudiences[0]!.title}`,
      );

      await page.goto('/about');
      await expectOneFooter(page);
      await expect(page.getByText(offer)).toBeVisible();
      await expect(
        page.getByRole('region', { name: 'Get your newsletter' }).getByRole('link'),
      ).toHaveText(featuredTitles);
      await expectFitsAndReadable(page, `/about at ${width}`);
      await page.setViewportSize({ width, height: 844 });
      await shot(page, `about-${width}`);
      await page.getByRole('link', { name: 'Join on the home page' }).click();
      await expect(page.getByRole('button', { name: 'Join our waiting list' })).toBeVisible();
    });

    test('an audience page shows each story in one card only', async ({ page }) => {
      await page.goto(`/a/${busyAudience.slug}`);
      const cards = page.locator('article.card');
      await expect(cards).toHaveCount(5);
      const titles = await cards.locator('.story__title').allTextContents();
      expect(titles.length).toBeGreaterThan(5);
      expect(titles.filter((title, i) => titles.indexOf(title) !== i)).toEqual([]);
      await shot(page, `audience-cards-${width}`);
    });

    test('audience chips keep their place when one is selected, and its hint shows below', async ({
      page,
    }) => {
      await subscribed(page, `e2e-chips-${ulid().toLowerCase()}@example.org`);
      await hydrated(page);
      const chips = page.locator('.cloud__toggle');
      const places = () =>
        chips.evaluateAll((buttons) =>
          buttons.map((button) => {
            const { x, y } = button.getBoundingClientRect();
            return `${Math.round(x)},${Math.round(y)}`;
          }),
        );
      const before = await places();
      const another = page.locator('.cloud__toggle[aria-pressed="false"]').first();
      const title = (await another.textContent())!;
      await another.click();
      const hint = page.getByRole('status').filter({ hasText: title });
      await expect(hint).toContainText(/Daily, readable in 5 minutes|Weekly/);
      expect(await places()).toEqual(before);
      await shot(page, `assemble-hint-${width}`);
      await expect(hint).toBeHidden({ timeout: 3_000 });
      expect(await places()).toEqual(before);
    });

    test('Upcoming niches: Submit waits for a niche in full ink and says why', async ({ page }) => {
      const subscriber = await subscribed(page, `e2e-niches-${ulid().toLowerCase()}@example.org`);
      await page.goto(
        `/upcoming-niches?subscriberHash=${encodeURIComponent(Subscribers.manageToken(subscriber))}`,
      );
      await expect(
        page.getByText('Each one you select is saved at once; Submit when'),
      ).toBeVisible();
      const submit = page.getByRole('button', { name: 'Submit' });
      await expect(submit).toBeDisabled();
      await expect(submit).toHaveAccessibleDescription('Select a niche to submit.');
      expect(await submit.evaluate((button) => getComputedStyle(button).opacity)).toBe('1');
      await shot(page, `upcoming-niches-${width}`);
      await hydrated(page);
      await page.getByRole('list', { name: 'Upcoming niches' }).getByRole('button').first().click();
      await expect(submit).toBeEnabled();
      await expect(page.getByText('Select a niche to submit.')).toHaveCount(0);
    });
  });
}
