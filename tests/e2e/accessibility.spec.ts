// Every page the route sweep knows (the public site, the reader's pages, every admin page) and each
// step of the get-started funnel, as each page's own user sees it at 390 and 1280 px: it answers,
// fits the window without scrolling sideways, every visible control meets WCAG AA contrast, and
// axe-core (through @axe-core/playwright) finds nothing it rates serious or critical, printed one
// line per element. One page load per page, at phone width first, then widened: each page its own
// test, so the pages run in parallel.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { request as requests } from '@playwright/test';
import { ulid } from 'ulid';
import * as Users from '#core/users';
import { expect, test } from './fixtures';
import { heading } from './funnel-steps';
import { contrastProblems, sidewaysOverflow, WIDTHS } from './page-checks';
import {
  openSwept,
  sessionCookies,
  sweptPages,
  sweptPatterns,
  type SweptPage,
} from './swept-pages';

/** Violations that fail the pass: the ones axe rates as blocking or seriously hindering. */
const FAILING = new Set(['serious', 'critical']);

/** The WCAG 2.x A and AA rules (and axe's best practices, which only fail when serious). */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/**
 * Every serious or critical violation on the page, one readable line per element. Framed
 * documents are left out (`iframes: false`): the only ones are the admin's e-mail previews, which
 * are e-mails, not pages of the site (their frame's title is still checked). Legacy mode runs axe
 * in the page itself; the default opens a second page per check to merge frames' results.
 */
async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(TAGS)
    .options({ iframes: false })
    .setLegacyMode()
    .analyze();
  return violations
    .filter((violation) => FAILING.has(violation.impact ?? ''))
    .flatMap((violation) =>
      violation.nodes.map(
        (node) =>
          `[${violation.impact}] ${violation.id}: ${violation.help} | ${node.target.join(' ')} | ${node.failureSummary?.replace(/\s+/g, ' ').trim()}`,
      ),
    );
}

async function expectAccessible(page: Page, label: string) {
  expect(await seriousViolations(page), `${label}: serious or critical axe violations`).toEqual([]);
}

test.describe('every page', () => {
  let pages: Map<string, SweptPage>;
  let cookies: Record<SweptPage['access'], Awaited<ReturnType<typeof sessionCookies>>>;

  test.beforeAll(async () => {
    // Seeding the sweep's samples and signing in take a while on a busy machine.
    test.setTimeout(120_000);
    const contexts = await Promise.all(
      [0, 1, 2].map(() => requests.newContext({ baseURL: process.env.PUBLIC_URL })),
    );
    const [visitor, reader, admin] = contexts as [
      (typeof contexts)[0],
      (typeof contexts)[0],
      (typeof contexts)[0],
    ];
    const [swept, readerCookies, adminCookies] = await Promise.all([
      sweptPages(visitor),
      sessionCookies(reader, 'user'),
      sessionCookies(admin, 'admin'),
    ]);
    pages = new Map(swept.map((page) => [page.pattern, page]));
    cookies = { public: [], user: readerCookies, admin: adminCookies };
    await Promise.all(contexts.map((context) => context.dispose()));
  });

  for (const { pattern, status } of sweptPatterns) {
    test.describe(pattern, () => {
      // One pattern (Playwright reads a second array item as fixture options): a 404 page's own
      // status, and the outbox's e-mails, framed sandboxed so that their scripts may not run.
      test.use({
        allowConsoleErrors: [
          new RegExp(
            [
              ...(status === 404 ? ['status of 404'] : []),
              "^Blocked script execution in '.*/admin-panel/outbox/.*sandboxed",
            ].join('|'),
          ),
        ],
      });

      test('fits both widths, meets AA contrast and has no serious or critical violations', async ({
        page,
      }) => {
        test.setTimeout(60_000);
        const swept = pages.get(pattern)!;
        const [phone, desktop] = [...WIDTHS].sort((a, b) => a - b) as [number, number];
        await page.setViewportSize({ width: phone, height: 844 });
        await page.context().addCookies(cookies[swept.access]);
        await openSwept(page, swept);
        for (const width of [phone, desktop]) {
          await page.setViewportSize({ width, height: 844 });
          const label = `${swept.url} at ${width} px`;
          expect
            .soft(await sidewaysOverflow(page), `${label} scrolls sideways by`)
            .toBeLessThanOrEqual(0);
          expect.soft(await contrastProblems(page), `${label}: low-contrast controls`).toEqual([]);
          expect
            .soft(await seriousViolations(page), `${label}: serious or critical axe violations`)
            .toEqual([]);
        }
      });
    });
  }
});

/** Types a descriptor and waits for its evaluation (the local model, slower on a busy machine). */
async function evaluate(page: Page, text: string) {
  const field = page.locator('textarea[name="descriptor"]');
  await field.fill(text);
  await field.press('Enter');
  await expect(page.getByRole('status')).toContainText('Score:', { timeout: 20_000 });
}

/** An invitation link to the funnel for a new invited reader. */
function invitedPath(variant: '' | 'sp' | 'ip') {
  return Users.create({
    name: `Axe ${variant || 'default'}`,
    email: `e2e-axe-${ulid().toLowerCase()}@example.org`,
  }).then((user) => {
    const landing = `${process.env.PUBLIC_URL}/get-started${variant ? `?vus=${variant}` : ''}`;
    const link = new URL(Users.invitationLink(landing, { id: user.id, invitationVersion: 0 }));
    return `${link.pathname}${link.search}`;
  });
}

test.describe('the get-started steps', () => {
  for (const width of WIDTHS) {
    test(`welcome, starters, pointer, descriptor and password at ${width} px`, async ({ page }) => {
      test.setTimeout(60_000);
      await page.setViewportSize({ width, height: 844 });
      await page.goto(await invitedPath(''));
      await expect(heading(page, 'Welcome on board!')).toBeVisible();
      await expectAccessible(page, `welcome at ${width} px`);
      await page.getByRole('button', { name: 'Start' }).click();
      await expect(heading(page, 'Tell us a few things about you')).toBeVisible();
      await expectAccessible(page, `starters at ${width} px`);
      await page.getByRole('button', { name: 'I build...' }).click();
      await expect(heading(page, 'I build...')).toBeVisible();
      await expectAccessible(page, `pointer at ${width} px`);
      await page.getByRole('button', { name: 'I build protocols for' }).click();
      await evaluate(page, 'lending with isolated markets on Arbitrum');
      await expectAccessible(page, `descriptor, evaluated, at ${width} px`);
      await page.getByRole('button', { name: 'Add' }).click();
      await page.getByRole('button', { name: 'I trade...' }).click();
      await evaluate(page, 'perpetual futures on Arbitrum and Hyperliquid');
      await page.getByRole('button', { name: 'Add' }).click();
      await expect(page.getByText('You can add more')).toBeVisible();
      await expectAccessible(page, `starters with two clues at ${width} px`);
      await page.getByRole('button', { name: 'Complete your profile' }).click();
      await expect(heading(page, 'Start your free trial!')).toBeVisible();
      await expectAccessible(page, `password at ${width} px`);
    });

    test(`the sp screen at ${width} px`, async ({ page }) => {
      test.setTimeout(60_000);
      await page.setViewportSize({ width, height: 844 });
      await page.goto(await invitedPath('sp'));
      await page.getByRole('button', { name: 'Start' }).click();
      await expect(page.getByRole('button', { name: 'I build protocols for' })).toBeVisible();
      await expectAccessible(page, `sp starters and pointers at ${width} px`);
    });

    test(`the ip interview at ${width} px`, async ({ page }) => {
      test.setTimeout(60_000);
      await page.setViewportSize({ width, height: 844 });
      await page.goto(await invitedPath('ip'));
      await page.getByRole('button', { name: 'Start' }).click();
      await expect(heading(page, 'Hello, this is your Content Curator')).toBeVisible();
      await expect(page.getByRole('log', { name: 'Conversation' })).toContainText('Curator:');
      await expectAccessible(page, `ip interview at ${width} px`);
    });
  }
});
