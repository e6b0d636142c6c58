import { ulid } from 'ulid';
import * as Subscribers from '#core/subscribers';
import { expect, hydrated, remixIdle, test } from './fixtures';
import { onlyMessageTo, pathOfLink } from './mail';
import { busyAudience } from './seed';

// Refused input answers 4xx, which the browser logs.
test.use({ allowConsoleErrors: [/status of 40[09]/] });

const address = () => `e2e-sub-${ulid().toLowerCase()}@example.org`;

async function subscribe(page: import('@playwright/test').Page, email: string) {
  await page.goto(`/a/${busyAudience.slug}?utm=spring`);
  const hero = page.locator('.audience__hero');
  await hero.getByPlaceholder('Enter your email').fill(email);
  await hero.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByRole('heading', { name: 'Assemble your newsletter' })).toBeVisible();
}

test('subscribe -> confirmation e-mail -> confirmed -> upcoming niches -> thank you', async ({
  page,
}) => {
  const email = address();
  await subscribe(page, email);
  await expect(page.getByText(email)).toBeVisible();
  // The audience page's form posts as a document: the toggles need the hydrated page.
  await hydrated(page);
  const current = page.getByRole('button', { name: busyAudience.title, exact: true });
  await expect(current).toHaveAttribute('aria-pressed', 'true');

  const another = page.locator('.cloud__toggle[aria-pressed="false"]').first();
  const anotherTitle = (await another.textContent())!;
  await another.click();
  await expect(page.getByRole('button', { name: anotherTitle, exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(page.getByRole('status').filter({ hasText: /Daily|Weekly/ })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /Daily|Weekly/ })).toBeHidden({
    timeout: 3_000,
  });
  await expect.poll(async () => (await Subscribers.byEmail(email))?.audienceIds?.length).toBe(2);

  const message = await onlyMessageTo(email);
  expect(message.subject).toBe('Confirm your Cluefeed subscription');
  expect(message.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
  const confirmPath = pathOfLink(message, '/confirm-subscription');

  const scanner = await page.request.get(confirmPath);
  expect(scanner.status()).toBe(200);
  expect((await Subscribers.byEmail(email))?.status).toBe('pending');

  await page.goto(confirmPath);
  await expect(page.getByRole('heading', { name: 'Awesome!' })).toBeVisible();
  await expect(page.getByText(`Your newsletter includes stories for those who`)).toContainText(
    busyAudience.title,
  );
  expect((await Subscribers.byEmail(email))?.status).toBe('subscribed');

  await page.getByRole('link', { name: 'View Upcoming Niches' }).click();
  await expect(page.getByRole('heading', { name: 'I am one of those who...' })).toBeVisible();
  const submit = page.getByRole('button', { name: 'Submit' });
  await expect(submit).toBeDisabled();
  await expect(page.getByRole('link', { name: 'Skip', exact: true })).toBeVisible();
  // Toggling a niche subscribes it at once, before any Submit.
  const niches = page.getByRole('list', { name: 'Upcoming niches' }).getByRole('button');
  // One toggle at a time: Remix aborts the revalidation of a toggle that a second one overtakes,
  // and reports the abort as a page error (a known gap, see the closing note of issue 7).
  await niches.nth(0).click();
  await expect
    .poll(async () => (await Subscribers.byEmail(email))?.shadowAudienceIds?.length)
    .toBe(1);
  await remixIdle(page);
  await niches.nth(1).click();
  await expect(niches.nth(0)).toHaveAttribute('aria-pressed', 'true');
  await expect(submit).toBeEnabled();
  await expect(page.getByRole('link', { name: 'Skip', exact: true })).toHaveCount(0);
  await expect
    .poll(async () => (await Subscribers.byEmail(email))?.shadowAudienceIds?.length)
    .toBe(2);
  await remixIdle(page);
  await niches.nth(1).click();
  await expect(niches.nth(1)).toHaveAttribute('aria-pressed', 'false');
  await expect
    .poll(async () => (await Subscribers.byEmail(email))?.shadowAudienceIds?.length ?? 0)
    .toBe(1);
  await remixIdle(page);
  await page.reload();
  await expect(niches.nth(0)).toHaveAttribute('aria-pressed', 'true');
  await submit.click();
  await expect(page.getByRole('heading', { name: 'Thank you for voting!' })).toBeVisible();
  expect((await Subscribers.byEmail(email))?.shadowAudienceIds?.length).toBe(1);

  await page.getByRole('button', { name: 'Send my ideas' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please correct all errors to submit');
  const ideas = page.getByLabel('Audiences you would like to read about, separated by commas');
  await expect(ideas).toHaveAccessibleDescription(/Up to 10 audiences, each 3 to 120 characters\./);
  await ideas.fill(`run validators, ${'a'.repeat(130)}`);
  await expect(ideas).toHaveAttribute('aria-invalid', 'true');
  await expect(ideas).toHaveAccessibleDescription(
    /One audience is 130 characters long; the limit is 120\./,
  );
  await page
    .getByLabel('Audiences you would like to read about, separated by commas')
    .fill('run validators, audit bridges');
  await page.getByRole('button', { name: 'Send my ideas' }).click();
  await expect(page.getByRole('heading', { name: "You're the best!" })).toBeVisible();
});

test('the skip path leads to the negative suggestions page', async ({ page }) => {
  const email = address();
  await subscribe(page, email);
  const confirmPath = pathOfLink(await onlyMessageTo(email), '/confirm-subscription');
  await page.goto(confirmPath);
  await page.getByRole('link', { name: 'View Upcoming Niches' }).click();
  await page.getByRole('link', { name: 'Skip', exact: true }).click();
  await expect(
    page.getByRole('heading', { name: "We're sorry; we should have known" }),
  ).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Got ideas of your own?' })).toBeVisible();
});

test('a second subscription of a subscribed address says so', async ({ page }) => {
  const email = address();
  await subscribe(page, email);
  await page.goto(pathOfLink(await onlyMessageTo(email), '/confirm-subscription'));
  await expect(page.getByRole('heading', { name: 'Awesome!' })).toBeVisible();
  await page.goto(`/a/${busyAudience.slug}`);
  await page.locator('.audience__hero').getByPlaceholder('Enter your email').fill(email);
  await page.locator('.audience__hero').getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByRole('alert')).toHaveText('You are already a subscriber!');
});

test('the subscribe field explains an empty and an invalid address', async ({ page }) => {
  await page.goto(`/a/${busyAudience.slug}`);
  const hero = page.locator('.audience__hero');
  await hero.getByRole('button', { name: 'Subscribe' }).click();
  await expect(hero.getByRole('alert')).toHaveText('Please enter your email address');
  // The refused page comes back with the field in focus, so the error is read and fixed there.
  await expect(hero.getByPlaceholder('Enter your email')).toBeFocused();
  await hero.getByPlaceholder('Enter your email').fill('not-an-email');
  await hero.getByRole('button', { name: 'Subscribe' }).click();
  await expect(hero.getByRole('alert')).toHaveText('Please enter a valid email address');
  await expect(hero.getByPlaceholder('Enter your email')).toBeFocused();
});

test('the bottom bar subscribes too', async ({ page }) => {
  const email = address();
  await page.goto(`/a/${busyAudience.slug}`);
  await page.evaluate(() => window.scrollTo(0, 1200));
  const bar = page.getByRole('complementary', { name: 'Subscribe' });
  await bar.getByPlaceholder('Enter your email').fill(email);
  await bar.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByRole('heading', { name: 'Assemble your newsletter' })).toBeVisible();
  await onlyMessageTo(email);
});

test('on a phone, a refusal in the bottom bar comes back with its field in focus, wide enough to fix, and the error under it', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/a/${busyAudience.slug}`);
  await page.evaluate(() => window.scrollTo(0, 1200));
  const bar = page.getByRole('complementary', { name: 'Subscribe' });
  await bar.getByPlaceholder('Enter your email').fill('not-an-email');
  await bar.getByRole('button', { name: 'Subscribe' }).click();
  await expect(bar.getByRole('alert')).toHaveText('Please enter a valid email address');
  const field = bar.getByPlaceholder('Enter your email');
  await expect(field).toBeFocused();
  const box = async (element: import('@playwright/test').Locator) => (await element.boundingBox())!;
  const input = await box(field);
  const button = await box(bar.getByRole('button', { name: 'Subscribe' }));
  const error = await box(bar.getByRole('alert'));
  // The field and its button share the row; the error takes the row below, not the field's room.
  expect(input.width).toBeGreaterThan(180);
  expect(button.y).toBeLessThan(input.y + input.height);
  expect(error.y).toBeGreaterThanOrEqual(input.y + input.height);
  expect(error.y + error.height).toBeLessThanOrEqual(844);
});

test('preferences: change the e-mail address, toggle audiences, refuse an address in use', async ({
  page,
}) => {
  const [email, other, changed] = [address(), address(), address()];
  await subscribe(page, other);
  await subscribe(page, email);
  await page.goto(pathOfLink(await onlyMessageTo(email), '/subscription'));
  await expect(page.getByRole('heading', { name: 'Your preferences' })).toBeVisible();
  const field = page.getByLabel('Your e-mail address');
  await expect(field).toHaveValue(email);
  await expect(field).not.toBeEditable();
  await page.getByRole('link', { name: 'Edit' }).click();
  await field.fill(other);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'This email address is already used by another subscription',
  );
  await field.fill(changed);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('link', { name: 'Edit' })).toBeVisible();
  await expect(field).toHaveValue(changed);
  expect((await Subscribers.byEmail(changed))?.email).toBe(changed);
  expect(await Subscribers.byEmail(email)).toBeUndefined();
  await expect(page.getByText(`We sent a confirmation link to ${changed}`)).toBeVisible();
  expect((await onlyMessageTo(changed)).subject).toBe('Confirm your Cluefeed subscription');

  const toggle = page.getByRole('button', { name: busyAudience.title, exact: true });
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await expect
    .poll(async () => (await Subscribers.byEmail(changed))?.audienceIds?.length ?? 0)
    .toBe(0);

  await page.getByRole('button', { name: 'Unsubscribe from everything' }).click();
  await expect(page.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible();
  expect((await Subscribers.byEmail(changed))?.status).toBe('unsubscribed');
});

test('one-click unsubscribe (RFC 8058) and the unsubscribe page', async ({ page }) => {
  const email = address();
  await subscribe(page, email);
  const message = await onlyMessageTo(email);
  const oneClick = /<(https?:\/\/[^>]+\/api\/unsubscribe\?[^>]+)>/.exec(
    message.headers['list-unsubscribe']!,
  )![1]!;
  const { pathname, search } = new URL(oneClick);
  const response = await page.request.post(`${pathname}${search}`, {
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    data: 'List-Unsubscribe=One-Click',
  });
  expect(response.status()).toBe(200);
  expect((await Subscribers.byEmail(email))?.status).toBe('unsubscribed');
  await page.goto(pathOfLink(message, '/unsubscribe'));
  await expect(page.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible();
});

test('the unsubscribe page asks before it acts', async ({ page }) => {
  const email = address();
  await subscribe(page, email);
  await page.goto(pathOfLink(await onlyMessageTo(email), '/unsubscribe'));
  await expect(page.getByRole('heading', { name: 'Unsubscribe?' })).toBeVisible();
  expect((await Subscribers.byEmail(email))?.status).toBe('pending');
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible();
  expect((await Subscribers.byEmail(email))?.status).toBe('unsubscribed');
});

test.describe('broken links', () => {
  for (const path of [
    '/confirm-subscription?subscriberHash=forged.token',
    '/subscription?subscriberHash=nope',
    '/upcoming-niches',
    '/we-should-have-known?subscriberHash=x.y',
    '/thank-you-for-voting?subscriberHash=',
    '/assemble-your-newsletter?subscriberHash=bad',
    '/unsubscribe?subscriberHash=bad',
  ]) {
    test(`${path.split('?')[0]} shows Error! for a broken link`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: 'Error!' })).toBeVisible();
      await expect(
        page.getByText('Could not verify subscription. Invalid or broken link'),
      ).toBeVisible();
    });
  }

  test('an expired confirmation link shows the error', async ({ page }) => {
    const Tokens = await import('#core/tokens');
    const expired = Tokens.sign(
      'confirm',
      60,
      '01HZZZZZZZZZZZZZZZZZZZZZZZ',
      Date.now() - 3_600_000,
    );
    await page.goto(`/confirm-subscription?subscriberHash=${expired}`);
    await expect(page.getByRole('heading', { name: 'Error!' })).toBeVisible();
  });
});

test('an address change retires the old links: the old confirmation link does not confirm the new address', async ({
  page,
}) => {
  const [a, b] = [address(), address()];
  await subscribe(page, a);
  const first = await onlyMessageTo(a);
  await page.goto(pathOfLink(first, '/subscription'));
  await page.getByRole('link', { name: 'Edit' }).click();
  await page.getByLabel('Your e-mail address').fill(b);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(`We sent a confirmation link to ${b}`)).toBeVisible();

  await page.goto(pathOfLink(first, '/confirm-subscription'));
  await expect(page.getByRole('heading', { name: 'Error!' })).toBeVisible();
  expect(await Subscribers.byEmail(b)).toMatchObject({ email: b, status: 'pending' });
  for (const path of ['/subscription', '/unsubscribe']) {
    await page.goto(pathOfLink(first, path));
    await expect(page.getByRole('heading', { name: 'Error!' })).toBeVisible();
  }
  const oneClick = new URL(/<(https?:[^>]+)>/.exec(first.headers['list-unsubscribe']!)![1]!);
  const response = await page.request.post(`${oneClick.pathname}${oneClick.search}`, {
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    data: 'List-Unsubscribe=One-Click',
  });
  expect(response.status()).toBe(400);
  expect((await Subscribers.byEmail(b))?.status).toBe('pending');
});

test("a pending address's manage link does not claim the subscription is confirmed", async ({
  page,
}) => {
  const email = address();
  await subscribe(page, email);
  const subscriber = (await Subscribers.byEmail(email))!;
  await page.goto(
    `/subscription-confirmed?subscriberHash=${encodeURIComponent(Subscribers.manageToken(subscriber))}`,
  );
  await expect(page.getByRole('heading', { name: 'Your preferences' })).toBeVisible();
  await expect(page.getByText(`We sent a confirmation link to ${email}`)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Awesome!' })).toHaveCount(0);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test("the preferences page's Edit link keeps the link's token", async ({ page }) => {
    const [email, changed] = [address(), address()];
    await subscribe(page, email);
    await page.goto(pathOfLink(await onlyMessageTo(email), '/subscription'));
    await page.getByRole('link', { name: 'Edit' }).click();
    await expect(page.getByRole('heading', { name: 'Your preferences' })).toBeVisible();
    const field = page.getByLabel('Your e-mail address');
    await expect(field).toBeEditable();
    await field.fill(changed);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText(`We sent a confirmation link to ${changed}`)).toBeVisible();
    expect((await Subscribers.byEmail(changed))?.email).toBe(changed);
  });

  test('toggling an upcoming niche saves it', async ({ page }) => {
    const email = address();
    await subscribe(page, email);
    const subscriber = (await Subscribers.byEmail(email))!;
    await page.goto(
      `/upcoming-niches?subscriberHash=${encodeURIComponent(Subscribers.manageToken(subscriber))}`,
    );
    const niche = page.getByRole('list', { name: 'Upcoming niches' }).getByRole('button').first();
    await niche.click();
    await expect(
      page.getByRole('list', { name: 'Upcoming niches' }).getByRole('button').first(),
    ).toHaveAttribute('aria-pressed', 'true');
    expect((await Subscribers.byEmail(email))?.shadowAudienceIds?.length).toBe(1);
    await page.getByRole('button', { name: 'Submit' }).click();
    await expect(page.getByRole('heading', { name: 'Thank you for voting!' })).toBeVisible();
  });
});
