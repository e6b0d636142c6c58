// Playwright fixtures: any console error fails a test unless the test expects it, and each test's
// own process reads the store of the app its project runs against.
import { test as base, expect } from '@playwright/test';
import { config } from '#core/config';
import {
  BACK_OFFICE_APP,
  BACK_OFFICE_PROJECT,
  JOURNEYS_APP,
  journeyEnv,
  type AppUnderTest,
} from '../../playwright.config';

type Fixtures = { allowConsoleErrors: RegExp[] };
type WorkerFixtures = { app: AppUnderTest };

/** What a story's image from another site shows in a journey (offlineImages). */
const PLACEHOLDER_IMAGE =
  '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="9"><rect width="16" height="9" fill="#ddd"/></svg>';

/** Remix's route discovery fetch, cut short when a test navigates away with page.goto. */
const ABORTED_DISCOVERY = /^Failed to fetch manifest patches TypeError: Failed to fetch/;

export const test = base.extend<Fixtures, WorkerFixtures>({
  allowConsoleErrors: [[], { option: true }],
  // Before the worker's first hook or test, so before core first reads its configuration (once,
  // on first use): the back office's journeys then read and write their own app's table.
  app: [
    // Playwright reads a fixture's dependencies from this pattern: it needs none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, workerInfo) => {
      const app = workerInfo.project.name === BACK_OFFICE_PROJECT ? BACK_OFFICE_APP : JOURNEYS_APP;
      const env = journeyEnv(app);
      Object.assign(process.env, env);
      // Core reads its configuration once: had anything read it before this, the journeys would
      // read another app's table without a word.
      if (config().DYNAMODB_ENDPOINT !== env.DYNAMODB_ENDPOINT)
        throw new Error(`Core was configured before this worker pointed it at ${app.origin}`);
      await use(app);
    },
    { scope: 'worker', auto: true },
  ],
  page: async ({ page, allowConsoleErrors }, use) => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (
        message.type() === 'error' &&
        ![ABORTED_DISCOVERY, ...allowConsoleErrors].some((allowed) => allowed.test(message.text()))
      ) {
        const { url, lineNumber } = message.location();
        errors.push(`${message.text()} at ${page.url()} (from ${url}:${lineNumber})`);
      }
    });
    // Where and how: a rare page error is only understood from the page it happened on.
    page.on('pageerror', (error) =>
      errors.push(`${error.message} at ${page.url()}\n${error.stack}`),
    );
    await use(page);
    expect(errors, 'console errors during the test').toEqual([]);
  },
});

export { expect };

/** The SMTP sink's folder of the app this test's project runs against. */
export const mailDir = (): string => process.env.E2E_MAIL_DIR!;

/**
 * Journeys never reach the network. A journey that shows stories' images from their publishers'
 * sites (the reader's feed, which can hold other journeys' stories too) calls this first: each https image gets a placeholder, anything else
 * from another site a refusal. Not for every journey: routing turns the browser's HTTP cache off
 * and holds every request, which a journey that holds requests itself (CDP Fetch) cannot share.
 */
export async function offlineImages(page: import('@playwright/test').Page): Promise<void> {
  await page.route('https://**/*', (route) =>
    route.request().resourceType() === 'image'
      ? route.fulfill({ status: 200, contentType: 'image/svg+xml', body: PLACEHOLDER_IMAGE })
      : route.abort(),
  );
}

/**
 * Waits until React has hydrated the page. A page reached by a document load (after a public
 * document's form, ADR 35) shows its markup first; a click before hydration is a plain form post.
 */
export async function hydrated(page: import('@playwright/test').Page): Promise<void> {
  await page.waitForFunction(() => {
    const main = document.getElementById('main');
    return Boolean(main) && Object.keys(main!).some((key) => key.startsWith('__react'));
  });
}

/**
 * Waits until Remix has nothing in flight: no navigation, no revalidation, every fetcher idle.
 * `waitForLoadState('networkidle')` does not do this: it returns at once once the document has
 * been idle, even while a fetcher's request is streaming, and a reload then cuts that request off
 * (Chromium reports the cut stream as a page error, 'TypeError: network error').
 */
export async function remixIdle(page: import('@playwright/test').Page): Promise<void> {
  await page.waitForFunction(() => {
    type State = {
      navigation: { state: string };
      revalidation: string;
      fetchers: Map<string, { state: string }>;
    };
    const router = (window as unknown as { __remixRouter?: { state: State } }).__remixRouter;
    if (!router) return false;
    const { navigation, revalidation, fetchers } = router.state;
    return (
      navigation.state === 'idle' &&
      revalidation === 'idle' &&
      [...fetchers.values()].every((fetcher) => fetcher.state === 'idle')
    );
  });
}

/** The spec's interval for the admin pages' process status poll: every 10 seconds. */
export const STATUS_POLL_MS = 10_000;

/**
 * Passes once `assertion` does (give it a short timeout of its own), moving the page's clock on a
 * status poll interval after each miss instead of waiting for the next tick in real time: the
 * poll still brings each change. The page's clock must be installed before its first load.
 */
export async function afterStatusPolls(
  page: import('@playwright/test').Page,
  assertion: () => Promise<unknown>,
  timeout = 45_000,
): Promise<void> {
  await expect(async () => {
    try {
      await assertion();
    } catch (error) {
      await page.clock.fastForward(STATUS_POLL_MS);
      throw error;
    }
  }).toPass({ timeout });
}
