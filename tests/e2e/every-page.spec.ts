// Every page the route sweep knows, as its user sees it at 1280 and 390 px: it answers, fits the
// window without scrolling sideways, and every visible control meets WCAG AA contrast.
import { request as requests } from '@playwright/test';
import { test } from './fixtures';
import { expectFitsAndReadable } from './page-checks';
import {
  openSwept,
  sessionCookies,
  sweptPages,
  sweptPatterns,
  type SweptPage,
} from './swept-pages';

let pages: Map<string, SweptPage>;
let cookies: Record<SweptPage['access'], Awaited<ReturnType<typeof sessionCookies>>>;

test.beforeAll(async () => {
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

    test('fits both widths and its controls meet WCAG AA contrast', async ({ page }) => {
      const swept = pages.get(pattern)!;
      await page.context().addCookies(cookies[swept.access]);
      await openSwept(page, swept);
      await expectFitsAndReadable(page, swept.url);
    });
  });
}
