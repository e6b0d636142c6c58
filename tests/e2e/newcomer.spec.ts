// What a newcomer meets, at 1280 and 390 px: a new visitor leaves About without a crash, finds a
// way to subscribe on a post, a content card and About, is told why an address is invalid, sees
// the footer past the bottom bar and a modal's heading at its top; a new reader can read Logout
// and their clue rows; a new operator finds every control inside its card and, on a phone, the
// admin menu folded away.
import type { Page } from '@playwright/test';
import { ulid } from 'ulid';
import * as Audiences from '#core/audiences';
import * as Subscribers from '#core/subscribers';
import * as Users from '#core/users';
import { readerWithPassword } from '#tests/integration/readers';
import { expect, test } from './fixtures';
import { evaluate, heading } from './funnel-steps';
import { contrastProblems, sidewaysOverflow, spillingOutOfCards, WIDTHS } from './page-checks';
import { audienceOf, busyAudience, featuredAudiences, originalPost } from './seed';

const ADMIN = { userName: 'admin', password: 'e2e-admin-password-0123' };

async function atWidth(page: Page, width: number) {
  await page.setViewportSize({ width, height: 844 });
}

async function signInAdmin(page: Page, path: string) {
  await page.goto(`/admin-panel/authorize?returnUrl=${encodeURIComponent(path)}`);
  await page.getByLabel('User name').fill(ADMIN.userName);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(path);
}

test.describe('a new visitor', () => {
  test('leaves About by the logo, a menu audience or the footer and sees that page', async ({
    page,
  }) => {
    const audience = featuredAudiences[0]!;
    for (const width of WIDTHS) {
      await atWidth(page, width);
      await page.goto('/about');
      await page.getByRole('link', { name: 'Cluefeed home' }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(
        "Discover the news you're missing.",
      );

      await page.goto('/about');
      await page.getByText('Menu', { exact: true }).click();
      await page.locator('.menu__panel').getByRole('link', { name: audience.title }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(
        `For those who ${audience.title}`,
      );

      await page.goto('/about');
      await page.locator('.site-footer').getByRole('link', { name: 'Privacy policy' }).click();
      await expect(page.getByRole('heading', { name: 'What we collect' })).toBeVisible();
    }
  });

  test('About leads to the featured audiences, whose pages subscribe', async ({ page }) => {
    const audience = featuredAudiences[0]!;
    for (const width of WIDTHS) {
      await atWidth(page, width);
      await page.goto('/about');
      const start = page.getByRole('region', { name: 'Get your newsletter' });
      await expect(start.getByRole('link')).toHaveCount(featuredAudiences.length);
      await start.getByRole('link', { name: audience.title }).click();
      await expect(page).toHaveURL(new RegExp(`/a/${audience.slug}$`));
      await expect(
        page.locator('.audience__hero').getByRole('button', { name: 'Subscribe' }),
      ).toBeVisible();
    }
  });

  test.describe('refused addresses', () => {
    // The refused subscription answers 400, which the browser logs.
    test.use({ allowConsoleErrors: [/status of 400/] });

    test('a post and a content card subscribe to their audience, and say why an address is refused', async ({
      page,
    }) => {
      const postAudience = await Audiences.bySlug(audienceOf(originalPost).slug);
      const busy = await Audiences.bySlug(busyAudience.slug);
      if (postAudience.kind !== 'found' || busy.kind !== 'found') throw new Error('seed missing');
      await page.goto(`/a/${busyAudience.slug}`);
      const cardPath = (await page
        .locator('article.card .card__title a')
        .first()
        .getAttribute('href'))!;
      const pages = [
        { path: `/p/${originalPost.slug}`, audience: postAudience.audience, width: WIDTHS[1] },
        { path: cardPath, audience: busy.audience, width: WIDTHS[0] },
      ];
      for (const { path, audience, width } of pages) {
        await atWidth(page, width);
        await page.goto(path);
        const offer = page.getByRole('complementary', {
          name: `Get the newsletter for those who ${audience.title}`,
        });
        await expect(offer).toBeVisible();
        expect(await sidewaysOverflow(page), `${path} at ${width} px`).toBeLessThanOrEqual(0);

        await offer.getByPlaceholder('Enter your email').fill('not-an-address');
        await offer.getByRole('button', { name: 'Subscribe' }).click();
        await expect(offer.getByRole('alert')).toHaveText('Please enter a valid email address');
        await expect(page).toHaveURL(path);

        const email = `e2e-offer-${ulid().toLowerCase()}@example.org`;
        await offer.getByPlaceholder('Enter your email').fill(email);
        await offer.getByRole('button', { name: 'Subscribe' }).click();
        await expect(page.getByRole('heading', { name: 'Assemble your newsletter' })).toBeVisible();
        const stored = await Subscribers.byEmail(email);
        expect(stored?.status).toBe('pending');
        expect([...(stored?.audienceIds ?? [])]).toContain(audience.id);
      }
    });
  });

  test('an invalid waiting-list address says why once the visitor leaves the field', async ({
    page,
  }) => {
    for (const width of WIDTHS) {
      await atWidth(page, width);
      await page.goto('/');
      const field = page.getByPlaceholder('Enter your email');
      await field.fill('not-an-email');
      await field.blur();
      await expect(field).toHaveAttribute('aria-invalid', 'true');
      await expect(page.getByRole('alert')).toHaveText('Please enter a valid email address');
      await expect(field).toHaveAccessibleDescription('Please enter a valid email address');
      await field.fill('reader@example.org');
      await expect(page.getByRole('alert')).toHaveCount(0);
    }
  });

  test('at the end of an audience page the bottom bar leaves the footer links uncovered', async ({
    page,
  }) => {
    for (const width of WIDTHS) {
      await atWidth(page, width);
      await page.goto(`/a/${busyAudience.slug}`);
      const bar = page.getByRole('complementary', { name: 'Subscribe' });
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await expect(bar).toBeVisible();
      // The bar takes its place at the end of the page: scroll to the new end.
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      for (const name of ['About', 'Privacy policy']) {
        const link = page.locator('.site-footer').getByRole('link', { name });
        await expect(link).toBeInViewport();
        const onTop = await link.evaluate((element) => {
          const box = element.getBoundingClientRect();
          const top = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
          return element.contains(top);
        });
        expect(onTop, `'${name}' is not covered at ${width} px`).toBe(true);
      }
    }
  });

  test("a modal's heading sits at its top, with no empty band above it", async ({ page }) => {
    for (const width of WIDTHS) {
      await atWidth(page, width);
      await page.goto(`/a/${busyAudience.slug}`);
      await page.locator('.audience__hero').getByRole('link', { name: 'What to expect' }).click();
      const dialog = page.getByRole('dialog', { name: 'What to expect' });
      await expect(dialog).toBeVisible();
      expect(await bandAboveHeading(page), `at ${width} px`).toBeLessThanOrEqual(0.5);
    }
  });
});

/** How far the open dialog's first heading sits below the dialog's padding, in pixels. */
function bandAboveHeading(page: Page): Promise<number> {
  return page.locator('dialog[open]').evaluate((dialog) => {
    const heading = dialog.querySelector('h1, h2, h3')!;
    const padding = parseFloat(getComputedStyle(dialog).paddingTop);
    const border = parseFloat(getComputedStyle(dialog).borderTopWidth);
    return (
      heading.getBoundingClientRect().top - dialog.getBoundingClientRect().top - padding - border
    );
  });
}

test.describe('a new reader', () => {
  test('reads Logout on the feed', async ({ page }) => {
    const reader = await readerWithPassword({ clues: ['I build DeFi protocols'] });
    await page.goto('/login');
    await page.getByLabel('E-mail or username').fill(reader.email);
    await page.getByLabel('Password').fill(reader.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/feed$/);
    for (const width of WIDTHS) {
      await atWidth(page, width);
      await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
      expect(await contrastProblems(page), `at ${width} px`).toEqual([]);
    }
  });

  test("reads Edit and Delete on the funnel's clue rows", async ({ page }) => {
    const user = await Users.create({
      name: 'Clue rows',
      email: `clue-rows-${ulid().toLowerCase()}@example.org`,
    });
    const link = new URL(
      Users.invitationLink(`${process.env.PUBLIC_URL}/get-started`, {
        id: user.id,
        invitationVersion: 0,
      }),
    );
    await page.goto(`${link.pathname}${link.search}`);
    await page.getByRole('button', { name: 'Start' }).click();
    await expect(heading(page, 'Tell us a few things about you')).toBeVisible();
    await page.getByRole('button', { name: 'I trade...' }).click();
    await evaluate(page, 'perpetual futures on Arbitrum and Hyperliquid');
    await page.getByRole('button', { name: 'Add' }).click();
    const row = page.getByRole('list', { name: 'Your clues' }).getByRole('listitem');
    await expect(row).toHaveCount(1);
    for (const width of WIDTHS) {
      await atWidth(page, width);
      await expect(row.getByRole('button', { name: /^Edit / })).toBeVisible();
      await expect(row.getByRole('button', { name: /^Delete / })).toBeVisible();
      expect(await contrastProblems(page), `at ${width} px`).toEqual([]);
    }
  });
});

test.describe('a new operator', () => {
  test('finds every Content Automations control inside its card', async ({ page }) => {
    await signInAdmin(page, '/admin-panel/content-automations');
    for (const width of WIDTHS) {
      await atWidth(page, width);
      expect(await spillingOutOfCards(page), `at ${width} px`).toEqual([]);
      expect(await sidewaysOverflow(page), `at ${width} px`).toBeLessThanOrEqual(0);
    }
  });

  test("an admin modal's heading sits at its top", async ({ page }) => {
    await signInAdmin(page, '/admin-panel/user-management');
    for (const width of WIDTHS) {
      await atWidth(page, width);
      await page.goto('/admin-panel/user-management?modal=add');
      await expect(page.getByRole('dialog')).toBeVisible();
      expect(await bandAboveHeading(page), `at ${width} px`).toBeLessThanOrEqual(0.5);
    }
  });

  test('on a phone the admin menu folds behind Menu; beside the page it stays open', async ({
    page,
  }) => {
    await signInAdmin(page, '/admin-panel/content-automations');
    const nav = page.getByRole('navigation', { name: 'Admin' });
    const logs = nav.getByRole('link', { name: 'Monitor Logs' });
    const toggler = nav.getByText('Menu', { exact: true });

    await atWidth(page, WIDTHS[0]);
    await expect(logs).toBeVisible();
    await expect(toggler).toBeHidden();

    await atWidth(page, WIDTHS[1]);
    await expect(logs).toBeHidden();
    await expect(nav.getByRole('button', { name: 'Logout' })).toBeHidden();
    const title = page.getByRole('heading', { name: 'Content Automations', level: 1 });
    expect((await title.boundingBox())!.y, 'the page starts in the first quarter').toBeLessThan(
      844 / 4,
    );
    await toggler.click();
    await expect(logs).toBeVisible();
    await logs.click();
    await expect(page).toHaveURL(/\/admin-panel\/logs$/);
    await expect(page.getByRole('heading', { name: 'Monitor Logs', level: 1 })).toBeVisible();
    await expect(logs).toBeHidden();
  });
});
