// From every public page the route sweep knows, every in-app link that leads to another page is
// followed as a visitor's click does it (a client-side navigation where the link is a Remix Link
// in a hydrated page, a document load for a public document, ADR 35) and then left with Back:
// the page it opens must not be 'Something went wrong', and nothing may
// reach the console (the fixture fails the test on any error). Leaving a page unmounts it, so
// this also catches a page that crashes on the way out, as About once did. The site header's and
// footer's links are one component on every page: the home page follows them all, and every other
// page follows its own links plus one of them that leads to a hydrated page (a client-side
// navigation, so the page is unmounted; public pages load whole, ADR 35), a different one on each
// page, so each of them is also followed client-side from some hydrated page.
import type { Page } from '@playwright/test';
import { request as requests } from '@playwright/test';
import { expect, test } from './fixtures';
import { isPublicDocument } from '../../web/lib/public-document';
import { WIDTHS } from './page-checks';
import { openSwept, sweptPages, sweptPatterns, type SweptPage } from './swept-pages';

let pages: Map<string, SweptPage>;

test.beforeAll(async () => {
  const visitor = await requests.newContext({ baseURL: process.env.PUBLIC_URL });
  pages = new Map((await sweptPages(visitor)).map((page) => [page.pattern, page]));
  await visitor.dispose();
});

type LinkAway = { href: string; shown: boolean; inLayout: boolean };

/**
 * The page's links to other pages of the site, once each: whether each shows at this width, and
 * whether it is only in the site header or footer. A link to the page it is on (a hash, or a
 * query the page handles itself, like 'What to expect') keeps the page mounted and is left out.
 */
function linksAway(page: Page): Promise<LinkAway[]> {
  return page.evaluate(() => {
    const here = new URL(window.location.href);
    const links = new Map<string, { shown: boolean; inLayout: boolean }>();
    for (const link of document.querySelectorAll<HTMLAnchorElement>('a[href]')) {
      const url = new URL(link.href);
      if (link.target || link.hasAttribute('download') || url.origin !== here.origin) continue;
      if (url.pathname === here.pathname) continue;
      const seen = links.get(url.href);
      const inLayout = link.closest('.site-header, .site-footer') !== null;
      links.set(url.href, {
        shown: Boolean(seen?.shown) || link.checkVisibility(),
        inLayout: (seen?.inLayout ?? true) && inLayout,
      });
    }
    return [...links].map(([href, link]) => ({ href, ...link }));
  });
}

type RouterState = {
  navigation: { state: string };
  revalidation: string;
  location: { pathname: string; search: string };
};

/**
 * Waits until the page shows an address other than `from` and stays there: a public document
 * (no Remix in the page, ADR 35) has loaded whole; any other page is hydrated, Remix's router
 * (which Remix exposes as window.__remixRouter) has loaded that address and has nothing in
 * flight, and two frames later (React has committed, its effects have run) all of that still
 * holds. The address alone says too little: Back changes it before the page it names is shown,
 * and a page may go on by itself (confirming a subscription does).
 */
async function settledAwayFrom(page: Page, from: string) {
  for (;;) {
    const at = await page
      .waitForFunction((previous) => {
        const router = (window as unknown as { __remixRouter?: { state: RouterState } })
          .__remixRouter;
        const { pathname, search, href } = window.location;
        if (!('__remixContext' in window)) {
          return href !== previous && document.readyState === 'complete' && href;
        }
        const main = document.getElementById('main');
        const hydrated = main && Object.keys(main).some((key) => key.startsWith('__react'));
        return (
          href !== previous &&
          hydrated &&
          router?.state.navigation.state === 'idle' &&
          router.state.revalidation === 'idle' &&
          router.state.location.pathname === pathname &&
          router.state.location.search === search &&
          href
        );
      }, from)
      .then((handle) => handle.jsonValue());
    const still = await page.evaluate(
      () =>
        new Promise<string>((done) =>
          requestAnimationFrame(() =>
            requestAnimationFrame(() => {
              const router = (window as unknown as { __remixRouter?: { state: RouterState } })
                .__remixRouter;
              const idle = !router || router.state.navigation.state === 'idle';
              done(idle ? window.location.href : '');
            }),
          ),
        ),
    );
    if (still === at) return;
  }
}

/** Clicks the first link to `href` (hidden ones too: the menu's links are in a closed menu). */
async function follow(page: Page, href: string) {
  const from = page.url();
  await page.evaluate((target) => {
    const link = [...document.querySelectorAll<HTMLAnchorElement>('a[href]')].find(
      (candidate) => candidate.href === target,
    );
    if (!link) throw new Error(`no link to ${target} on ${window.location.href}`);
    link.click();
  }, href);
  await settledAwayFrom(page, from);
}

async function back(page: Page) {
  const from = page.url();
  await page.goBack({ waitUntil: 'commit' });
  await settledAwayFrom(page, from);
}

// A page with many links (an audience's cards) takes a while on a busy machine.
test.describe.configure({ timeout: 120_000 });

for (const { pattern, access, status } of sweptPatterns) {
  if (access !== 'public') continue;
  test.describe(pattern, () => {
    test.use({ allowConsoleErrors: status === 404 ? [/status of 404/] : [] });

    test('every in-app link opens its page without an error', async ({ page }) => {
      const swept = pages.get(pattern)!;
      // The links are one DOM at every width: each is followed at the first width that shows
      // it, so a link only a phone shows is followed on the phone.
      const followed = new Set<string>();
      const followsLayout = pattern === '/';
      const layoutLinks: string[] = [];
      const followAndReturn = async (href: string, origin: string, width: number) => {
        followed.add(href);
        await follow(page, href);
        await expect(
          page.getByRole('heading', { name: 'Something went wrong' }),
          `${swept.url} -> ${href} at ${width} px`,
        ).toHaveCount(0);
        await back(page);
        expect(page.url(), 'Back returns to the page').toBe(origin);
      };
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 844 });
        if (width === WIDTHS[0]) {
          await openSwept(page, swept);
          await settledAwayFrom(page, '');
        }
        const origin = page.url();
        const links = await linksAway(page);
        const last = width === WIDTHS.at(-1);
        for (const { href, shown, inLayout } of links) {
          if (followed.has(href) || (!shown && !last)) continue;
          if (inLayout && !followsLayout) {
            if (!layoutLinks.includes(href)) layoutLinks.push(href);
            continue;
          }
          await followAndReturn(href, origin, width);
        }
      }
      // One layout link to a hydrated page, a different one per page (or, when it has none, any).
      const hydrated = layoutLinks.filter((href) => !isPublicDocument(new URL(href).pathname));
      const choices = hydrated.length > 0 ? hydrated : layoutLinks;
      const turn = sweptPatterns.findIndex((swept) => swept.pattern === pattern);
      const chosen = choices[turn % Math.max(choices.length, 1)];
      if (chosen && !followed.has(chosen)) {
        await followAndReturn(chosen, page.url(), WIDTHS.at(-1)!);
      }
    });
  });
}
