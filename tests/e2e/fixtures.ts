// Playwright fixtures: any console error fails a test unless the test expects it; `store` reads
// what the app wrote to the end-to-end DynamoDB Local.
import { test as base, expect } from '@playwright/test';
import { E2E_DYNAMO_PORT } from '../../playwright.config';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.DYNAMODB_ENDPOINT = `http://127.0.0.1:${E2E_DYNAMO_PORT}`;
process.env.TABLE_NAME = 'cluefeed-e2e';
process.env.APP_SECRET = 'e2e-secret-that-is-long-enough-0123456789abcdef';

type Fixtures = { allowConsoleErrors: RegExp[] };

export const test = base.extend<Fixtures>({
  allowConsoleErrors: [[], { option: true }],
  page: async ({ page, allowConsoleErrors }, use) => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (
        message.type() === 'error' &&
        !allowConsoleErrors.some((allowed) => allowed.test(message.text()))
      ) {
        errors.push(message.text());
      }
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await use(page);
    expect(errors, 'console errors during the test').toEqual([]);
  },
});

export { expect };
