// The get-started funnel in each variant, end to end: an invited user (created through core, with
// the link an invitation e-mail carries) opens the link, builds their clues (default: starter,
// pointer and descriptor; sp: starter and pointer on one screen; ip: an interview with the local
// curator), sets a password and is thanked; what was stored is checked through core.
import type { Page } from '@playwright/test';
import { ulid } from 'ulid';
import * as Users from '#core/users';
import { expect, test } from './fixtures';
import { clueTexts, evaluate, heading } from './funnel-steps';

async function invitedLink(variant: '' | 'sp' | 'ip') {
  const user = await Users.create({
    name: `Funnel ${variant || 'default'}`,
    email: `funnel-${ulid().toLowerCase()}@example.org`,
  });
  const landing = `${process.env.PUBLIC_URL}/get-started${variant ? `?vus=${variant}` : ''}`;
  const link = new URL(Users.invitationLink(landing, { id: user.id, invitationVersion: 0 }));
  return { user, path: `${link.pathname}${link.search}` };
}

async function welcome(page: Page, path: string) {
  await page.goto(path);
  await expect(heading(page, 'Welcome on board!')).toBeVisible();
  await page.getByRole('button', { name: 'Start' }).click();
}

async function finish(page: Page, user: Users.User, clues: string[]) {
  await expect(heading(page, 'Start your free trial!')).toBeFocused();
  await expect(page.getByText('Create a password and you are all set...')).toBeVisible();
  await expect(
    page.getByText('Minimum 8 characters, must include at least 1 number'),
  ).toBeVisible();
  const submit = page.getByRole('button', { name: 'Get Started' });
  await expect(submit).toBeDisabled();
  await page.getByLabel('Password', { exact: true }).fill('short');
  await page.getByLabel('Confirm password').focus();
  await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill('longenough');
  await page.getByLabel('Confirm password').fill('longenough');
  await page.getByLabel('Password', { exact: true }).focus();
  await expect(page.getByText('Password must contain at least 1 number')).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill('longenough1');
  await page.getByLabel('Password', { exact: true }).blur();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await expect(submit).toBeDisabled();
  await page.getByLabel('Confirm password').fill('longenough1');
  await submit.click();
  await expect(heading(page, 'Thank you :)')).toBeVisible();
  await expect(page.getByText("You'll receive an email when your newsfeed is ready")).toBeVisible();
  const stored = await Users.byId(user.id);
  expect(stored?.status).toBe('Onboarded');
  expect(stored?.descriptors?.map((descriptor) => descriptor.clue)).toEqual(clues);
}

test.describe('without a valid link', () => {
  // The refused verification is a 403 the browser reports in its console.
  test.use({ allowConsoleErrors: [/status of 403/] });
  test('a bad vus is removed by a redirect, and the link is needed to verify', async ({ page }) => {
    await page.goto('/get-started?utm=x&vus=nope');
    await expect(page).toHaveURL(/\/get-started\?utm=x$/);
    await expect(heading(page, 'You are one of the chosen ones')).toBeVisible();
    const email = page.getByLabel('Enter your email to get started...');
    await email.fill('not an email');
    await expect(page.getByText('Please enter a valid email')).toBeVisible();
    await email.fill('someone@example.org');
    await email.press('Enter');
    await expect(page.getByRole('alert')).toHaveText(Users.SIGNUP_MESSAGES.needInvitation);
  });
});

test('default variant: a broad descriptor cannot be added, specific ones can; two entries complete the profile', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const { user, path } = await invitedLink('');
  await welcome(page, path);
  await expect(heading(page, 'Tell us a few things about you')).toBeFocused();
  await expect(page.getByText('Start by selecting one of the following')).toBeVisible();

  // A skip-to-clue starter goes straight to the descriptor; 'crypto' is too broad to add.
  await page.getByRole('button', { name: 'I trade...' }).click();
  await expect(page.getByPlaceholder('Type here...')).toBeVisible();
  await evaluate(page, 'crypto');
  await expect(page.getByText(/This descriptor is too broad/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Evaluate' })).toHaveCount(0);
  await evaluate(page, 'perpetual futures on Arbitrum and Hyperliquid');
  await expect(
    page.getByText('Amazing descriptor! Sit tight any super-relevant stories are coming your way!'),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByText('You need to select one more')).toBeVisible();

  // A starter with pointers; Back from the pointer drops the draft.
  await page.getByRole('button', { name: 'I build...' }).click();
  await expect(heading(page, 'I build...')).toBeFocused();
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByRole('list', { name: 'Your clues' }).getByRole('listitem')).toHaveCount(1);
  await page.getByRole('button', { name: 'I build...' }).click();
  await page.getByRole('button', { name: 'I build protocols for' }).click();
  await expect(page.getByPlaceholder('You can always add more...')).toBeVisible();
  await evaluate(page, 'lending with isolated markets on Arbitrum');
  await expect(
    page.getByText('Great job! This description really helps us with picking stories for you'),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByText('You can add more')).toBeVisible();

  // Edit and Back restores the entry as it was.
  await page
    .getByRole('button', {
      name: 'Edit I build protocols for lending with isolated markets on Arbitrum',
    })
    .click();
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByRole('list', { name: 'Your clues' }).getByRole('listitem')).toHaveCount(2);

  await page.getByRole('button', { name: 'Complete your profile' }).click();
  await finish(page, user, [
    'I trade perpetual futures on Arbitrum and Hyperliquid',
    'I build protocols for lending with isolated markets on Arbitrum',
  ]);

  // The link is spent: opened again, it says so and offers to sign in, with no address to type.
  await page.goto(path);
  await expect(heading(page, 'Welcome back!')).toBeVisible();
  await expect(page.getByLabel('Enter your email to get started...')).toHaveCount(0);
});

test('sp variant: starter and pointer are picked on one screen', async ({ page }) => {
  const { user, path } = await invitedLink('sp');
  await welcome(page, path);
  await expect(heading(page, 'Tell us a few things about you')).toBeVisible();
  await page.getByRole('button', { name: 'I build protocols for' }).click();
  await evaluate(page, 'lending with isolated markets on Arbitrum');
  await page.getByRole('button', { name: 'Add' }).click();
  // Cancel (Back) returns to the one screen and drops the draft.
  await page.getByRole('button', { name: 'I research the security of' }).click();
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByText('You need to select one more')).toBeVisible();
  await page.getByRole('button', { name: 'I trade Add your own' }).click();
  await evaluate(page, 'options on Deribit with delta-neutral strategies');
  await page.getByRole('button', { name: 'Add' }).click();
  await page.getByRole('button', { name: 'Complete your profile' }).click();
  await finish(page, user, [
    'I build protocols for lending with isolated markets on Arbitrum',
    'I trade options on Deribit with delta-neutral strategies',
  ]);
});

test('ip variant: an interview with the curator, its clues confirmed, then the password', async ({
  page,
}) => {
  const { user, path } = await invitedLink('ip');
  await welcome(page, path);
  await expect(heading(page, 'Hello, this is your Content Curator')).toBeFocused();
  const log = page.getByRole('log', { name: 'Conversation' });
  await expect(log).toContainText("I'll ask a few questions");
  const message = page.getByLabel('Your message');
  const send = page.getByRole('button', { name: 'Send' });
  await expect(send).toBeDisabled();
  await message.fill('I build lending protocols');
  await message.press('Enter');
  await expect(log.getByRole('listitem')).toHaveCount(3, { timeout: 10_000 });
  await message.fill('Ethereum and Arbitrum');
  await send.click();
  await expect(log.getByRole('listitem').last()).toHaveText(
    /^Curator: Noted: you build lending protocols on Ethereum and Arbitrum\. /,
  );

  await page.getByRole('button', { name: 'Complete Interview' }).click();
  await expect(heading(page, 'So those are your clues')).toBeFocused();
  const clues = page.getByRole('list', { name: 'Your clues' }).getByRole('listitem');
  await expect(clues.first()).toBeVisible();
  const found = await clueTexts(page);
  expect(found.join(' ')).toMatch(/lending protocols/);
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(heading(page, 'Hello, this is your Content Curator')).toBeVisible();
  await page.getByRole('button', { name: 'Complete Interview' }).click();
  await page.getByRole('button', { name: 'Complete Profile' }).click();
  await finish(page, user, found);
  expect((await Users.byId(user.id))?.onboardingThreadId).toMatch(/^[0-9A-Z]{26}$/);
});

test('a middling descriptor gets suggestions that make the reader’s own words more specific, and one can be picked', async ({
  page,
}) => {
  const { path } = await invitedLink('');
  await welcome(page, path);
  await page.getByRole('button', { name: 'I build...' }).click();
  await page.getByRole('button', { name: 'I build protocols for' }).click();
  await evaluate(page, 'lending on Ethereum');
  await expect(
    page.getByText('Good start! Can you make it more specific? For example:'),
  ).toBeVisible();
  const suggestions = page
    .getByRole('list', { name: /Can you make it more specific/ })
    .getByRole('button');
  // The reader's words, in order, with a modifier where English puts it: no "…, especially …".
  await expect(suggestions).toHaveText(['DeFi lending on Ethereum']);

  await suggestions.first().click();
  await expect(page.locator('textarea[name="descriptor"]')).toHaveValue('DeFi lending on Ethereum');
  await page.getByRole('button', { name: 'Evaluate' }).click();
  await expect(page.getByRole('status')).toContainText('Score:');
  await page.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByRole('list', { name: 'Your clues' })).toContainText(
    'I build protocols for DeFi lending on Ethereum',
  );
});
