// From an admin's invitation to the reader's feed, in each funnel variant: the admin adds a user
// and invites them through User Management, the e-mail shows as sent in the Outbox and reaches the
// SMTP sink, the reader (in a browser of their own) follows its link through the funnel, is sent
// the 'newsfeed is ready' e-mail, follows its link to /login and lands on the feed; the spent link
// then says they have signed up and offers 'Sign in'.
import type { Page } from '@playwright/test';
import { ulid } from 'ulid';
import { expect, test as base } from './fixtures';
import { clueTexts, evaluate, heading, storiesAbout } from './funnel-steps';
import { messageTo, onlyMessageTo, pathOfLink } from './mail';

const ADMIN = { userName: 'admin', password: 'e2e-admin-password-0123' };
/** Chromium reports the sandboxed frames (the preview, the Outbox's copy) as blocking scripts. */
const ADMIN_CONSOLE_NOISE = [
  /^Blocked script execution in '(about:blank|.*\/admin-panel\/(outbox\/|user-management\/preview)).*sandboxed/,
  /^Failed to fetch manifest patches TypeError: Failed to fetch/,
];

/** The admin works in a browser context of their own: the reader's `page` never has their cookies. */
const test = base.extend<{ adminPage: Page }>({
  adminPage: async ({ browser, baseURL }, use) => {
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      const text = message.text();
      if (message.type() === 'error' && !ADMIN_CONSOLE_NOISE.some((noise) => noise.test(text))) {
        errors.push(text);
      }
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await use(page);
    await context.close();
    expect(errors, "console errors on the admin's page").toEqual([]);
  },
});

/** Adds the user through the modal and sends them the invitation for `landing` (a choice's label). */
async function addAndInvite(admin: Page, name: string, email: string, landing: string) {
  await admin.goto('/admin-panel/user-management');
  await admin.getByLabel('User name').fill(ADMIN.userName);
  await admin.getByLabel('Password').fill(ADMIN.password);
  await admin.getByRole('button', { name: 'Sign in' }).click();
  await expect(admin.getByRole('heading', { name: 'User Management' })).toBeVisible();

  await admin.getByRole('link', { name: 'Add user' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Add user' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByRole('button', { name: 'Add user' }).click();
  await expect(admin.getByRole('status')).toHaveText(`User ${name} added successfully`);
  await expect(dialog).toBeHidden();
  await expect(admin.getByRole('row', { name: new RegExp(email) })).toContainText('Initial');

  await admin.getByRole('link', { name: `Invite ${name}` }).click();
  const invite = admin.getByRole('dialog', { name: `Invite ${name}` });
  const send = invite.getByRole('button', { name: 'Send invitation' });
  await expect(send).toBeDisabled();
  await invite.getByText('Edit the message as HTML').click();
  await invite.getByLabel('HTML body').fill(`<p>Welcome, <strong>${name}</strong>.</p>`);
  await expect(send).toBeDisabled();
  await invite.getByLabel(landing, { exact: true }).check();
  await expect(send).toBeEnabled();
  const preview = invite.frameLocator('iframe[title="Invitation preview"]');
  await expect(preview.getByText(`Welcome, ${name}.`)).toBeVisible();
  const landingUrl = await invite.getByLabel('Landing page URL').inputValue();
  await send.click();
  await expect(admin.getByRole('status')).toHaveText(`Invitation sent successfully to ${email}`);
  await expect(admin.getByRole('row', { name: new RegExp(email) })).toContainText('Invited');
  return new URL(landingUrl);
}

/** The Outbox lists the invitation as sent, with the sink's copy carrying `link`. */
async function seeInOutbox(admin: Page, email: string, link: string) {
  await admin.getByRole('link', { name: 'Outbox' }).click();
  await expect(admin.getByRole('heading', { name: 'Outbox', level: 1 })).toBeVisible();
  const entry = admin.locator('article', { hasText: `To ${email}` });
  await expect(entry).toHaveCount(1);
  // The sink's copy is a lazily loaded frame: it loads once in view.
  await entry.scrollIntoViewIfNeeded();
  await expect(entry.getByRole('heading', { name: 'You are invited to Cluefeed' })).toBeVisible();
  // Queued or sending until the outbox delivers; the page follows on its own.
  await expect(entry).toHaveAttribute('data-status', 'sent');
  await expect(entry.locator('.outbox-message__state')).toHaveText(
    /^Sent \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} UTC · 1 attempt$/,
  );
  await entry.getByText('Show the e-mail').click();
  const copy = entry.frameLocator('iframe[title="E-mail: You are invited to Cluefeed"]');
  await expect(copy.getByRole('link', { name: /user=/ })).toHaveAttribute('href', link);
}

/** Default variant: 'crypto' is too broad to add, specific descriptors are added. */
async function defaultClues(page: Page) {
  await page.getByRole('button', { name: 'I trade...' }).click();
  await evaluate(page, 'crypto');
  await expect(page.getByText(/This descriptor is too broad/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add' })).toHaveCount(0);
  await evaluate(page, 'perpetual futures on Arbitrum and Hyperliquid');
  await expect(
    page.getByText('Amazing descriptor! Sit tight any super-relevant stories are coming your way!'),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByText('You need to select one more')).toBeVisible();
  await page.getByRole('button', { name: 'I build...' }).click();
  await page.getByRole('button', { name: 'I build protocols for' }).click();
  await evaluate(page, 'lending with isolated markets on Arbitrum');
  await page.getByRole('button', { name: 'Add' }).click();
  await page.getByRole('button', { name: 'Complete your profile' }).click();
  return [
    'I trade perpetual futures on Arbitrum and Hyperliquid',
    'I build protocols for lending with isolated markets on Arbitrum',
  ];
}

/** sp variant: starter and pointer picked on one screen. */
async function spClues(page: Page) {
  await page.getByRole('button', { name: 'I build protocols for' }).click();
  await evaluate(page, 'lending with isolated markets on Arbitrum');
  await page.getByRole('button', { name: 'Add' }).click();
  await page.getByRole('button', { name: 'I trade Add your own' }).click();
  await evaluate(page, 'options on Deribit with delta-neutral strategies');
  await page.getByRole('button', { name: 'Add' }).click();
  await page.getByRole('button', { name: 'Complete your profile' }).click();
  return [
    'I build protocols for lending with isolated markets on Arbitrum',
    'I trade options on Deribit with delta-neutral strategies',
  ];
}

/** ip variant: an interview with the curator, whose clues are confirmed. */
async function ipClues(page: Page) {
  await expect(heading(page, 'Hello, this is your Content Curator')).toBeVisible();
  const log = page.getByRole('log', { name: 'Conversation' });
  // The curator's greeting means the thread exists: until then a message is not sent.
  await expect(log).toContainText("I'll ask a few questions", { timeout: 10_000 });
  const message = page.getByLabel('Your message');
  await message.fill('I build lending protocols');
  await message.press('Enter');
  await expect(log.getByRole('listitem')).toHaveCount(3, { timeout: 15_000 });
  await page.getByRole('button', { name: 'Complete Interview' }).click();
  await expect(heading(page, 'So those are your clues')).toBeVisible();
  const clues = page.getByRole('list', { name: 'Your clues' }).getByRole('listitem');
  await expect(clues.first()).toBeVisible();
  const found = await clueTexts(page);
  expect(found.join(' ')).toMatch(/lending protocols/);
  await page.getByRole('button', { name: 'Complete Profile' }).click();
  return found;
}

const VARIANTS = [
  { name: 'default', vus: null, landing: 'Default', clues: defaultClues },
  { name: 'sp', vus: 'sp', landing: 'Show pointers', clues: spClues },
  { name: 'ip', vus: 'ip', landing: 'Interactive prompt', clues: ipClues },
] as const;

for (const variant of VARIANTS) {
  test(`${variant.name} variant: an invited user follows the e-mailed link through the funnel, signs in to the feed from the 'newsfeed is ready' e-mail, and the spent link offers 'Sign in'`, async ({
    page,
    adminPage,
  }) => {
    test.setTimeout(90_000);
    const tag = `inv${ulid().toLowerCase().slice(-10)}`;
    const name = `Reader ${tag}`;
    const email = `${tag}@example.org`;

    // 1. The admin adds and invites the user; 2. the e-mail reaches the sink and the Outbox.
    const landing = await addAndInvite(adminPage, name, email, variant.landing);
    expect(landing.pathname).toBe('/get-started');
    expect(landing.searchParams.get('vus')).toBe(variant.vus);
    const message = await onlyMessageTo(email);
    expect(message.subject).toBe('You are invited to Cluefeed');
    const path = pathOfLink(message, '/get-started');
    const link = new URL(path, landing);
    expect(link.searchParams.get('vus')).toBe(variant.vus);
    expect(link.searchParams.get('user')).toBeTruthy();
    const sentLink = message.text.match(/https?:\/\/\S+/g)!.find((url) => url.includes('user='))!;
    await seeInOutbox(adminPage, email, sentLink);

    // 3. The reader, without the admin's cookies, opens the link and completes the funnel.
    expect(await page.context().cookies()).toEqual([]);
    await page.goto(path);
    await expect(heading(page, 'Welcome on board!')).toBeVisible();
    await expect(page.getByText(name, { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Start' }).click();
    const clues = await variant.clues(page);
    await storiesAbout(clues);
    await expect(heading(page, 'Start your free trial!')).toBeVisible();
    const password = `reader pass ${tag.slice(-4)} 1`;
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm password').fill(password);
    await page.getByRole('button', { name: 'Get Started' }).click();
    await expect(heading(page, 'Thank you :)')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');

    // 4. The first stories scored, the promised e-mail comes with the sign-in link; they sign in
    // with their e-mail and land on the feed with their clues.
    const ready = await messageTo(email, 'Your Cluefeed newsfeed is ready');
    await page.goto(pathOfLink(ready, '/login'));
    await page.getByLabel('E-mail or username').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/feed$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Stories for you');
    await expect(page.getByRole('navigation', { name: 'User menu' })).toContainText(name);
    // The run that scored their clues built their list: stories, never an empty default.
    await expect(
      page.getByRole('list', { name: 'Stories' }).getByRole('listitem').first(),
    ).toContainText('Why it is here:');
    await expect(
      page
        .getByRole('complementary', { name: "Here are the clues you've given us" })
        .getByRole('listitem'),
    ).toHaveText(clues);

    // 5. The spent link says they have signed up and offers 'Sign in', with no address to type.
    await page.goto(path);
    await expect(heading(page, 'Welcome back!')).toBeVisible();
    await expect(
      page.getByText('You have already completed your profile. Please sign in.'),
    ).toBeVisible();
    await expect(page.getByLabel('Enter your email to get started...')).toHaveCount(0);
    await page.getByRole('link', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/(login|feed)$/);
  });
}
