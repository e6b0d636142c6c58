// User Management in real Chromium: an admin adds a user, edits the name, finds them by search,
// sends an invitation (preview only once body and landing page are both there) and sees the
// e-mail in the Outbox with a link that carries the signed `user` token.
import type { Page } from '@playwright/test';
import { ulid } from 'ulid';
import * as Users from '#core/users';
import { expect, test } from './fixtures';
import { onlyMessageTo } from './mail';

// Chromium reports every sandboxed frame (the preview, the Outbox's copy) as blocking scripts.
test.use({
  allowConsoleErrors: [
    /^Blocked script execution in '(about:blank|.*\/admin-panel\/(outbox\/|user-management\/preview)).*sandboxed/,
  ],
});

const ADMIN = { userName: 'admin', password: 'e2e-admin-password-0123' };

async function signIn(page: Page) {
  await page.goto('/admin-panel/user-management');
  await page.getByLabel('User name').fill(ADMIN.userName);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();
}

test('an admin adds, edits, finds and invites a user, and sees the invitation in the Outbox', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const tag = `e2e${ulid().toLowerCase().slice(-10)}`;
  const address = `${tag}@example.org`;
  await signIn(page);
  await expect(page.getByRole('link', { name: /User Management/ })).toContainText('NEW');

  // Add: messages on blur, submit disabled until both fields are filled.
  await page.getByRole('link', { name: 'Add user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add user' });
  await expect(dialog).toBeVisible();
  const submit = dialog.getByRole('button', { name: 'Add user' });
  await expect(submit).toBeDisabled();
  await dialog.getByLabel('Name').focus();
  await dialog.getByLabel('Name').blur();
  await expect(dialog.getByText('Please add a name')).toBeVisible();
  await dialog.getByLabel('Email').focus();
  await dialog.getByLabel('Email').blur();
  await expect(dialog.getByText('Please add an email')).toBeVisible();
  await dialog.getByLabel('Name').fill(`Ada ${tag}`);
  await dialog.getByLabel('Email').fill(address);
  await submit.click();
  await expect(page.getByRole('status')).toHaveText(`User Ada ${tag} added successfully`);
  await expect(dialog).toBeHidden();
  const row = page.getByRole('row', { name: new RegExp(address) });
  await expect(row).toContainText('Initial');

  // Edit: the e-mail is read-only; the new name shows.
  await row.getByRole('link', { name: `Edit Ada ${tag}` }).click();
  const editDialog = page.getByRole('dialog', { name: 'Edit user' });
  await expect(editDialog.getByLabel('Email')).toHaveAttribute('readonly', '');
  await editDialog.getByLabel('Name').fill(`Ada Lovelace ${tag}`);
  await editDialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('status')).toHaveText(
    `User Ada Lovelace ${tag} updated successfully`,
  );
  // The edit's navigation is over (the dialog gone, its ?edit= left) before the search is typed,
  // or the page it lands on would render the search box again, empty.
  await expect(editDialog).toBeHidden();
  await expect(page).not.toHaveURL(/edit=/);

  // Search by a name word prefix.
  const search = page.getByLabel('Search by name or email');
  await search.fill(tag.slice(0, 9).toUpperCase());
  await expect(search).toHaveValue(tag.slice(0, 9).toUpperCase());
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(new RegExp(`q=${tag.slice(0, 9).toUpperCase()}`, 'i'));
  await expect(page.getByRole('row')).toHaveCount(2);
  await expect(page.getByRole('row', { name: new RegExp(address) })).toContainText(
    `Ada Lovelace ${tag}`,
  );

  // Invite: preview and button only once body and landing page are both present.
  await page.getByRole('link', { name: `Invite Ada Lovelace ${tag}` }).click();
  const invite = page.getByRole('dialog', { name: `Invite Ada Lovelace ${tag}` });
  const send = invite.getByRole('button', { name: 'Send invitation' });
  await expect(send).toBeDisabled();
  await invite.getByText('Edit the message as HTML').click();
  await invite
    .getByLabel('HTML body')
    .fill('<p>Come and <strong>join</strong> us</p><script>alert(1)</script>');
  await expect(invite.getByTitle('Invitation preview')).toHaveCount(0);
  await invite.getByLabel('Landing page URL').focus();
  await invite.getByLabel('Landing page URL').blur();
  await expect(invite.getByText('Please add a landing page URL')).toBeVisible();
  await invite.getByLabel('Show pointers').check();
  await expect(invite.getByLabel('Landing page URL')).toHaveValue(/\/get-started\?vus=sp$/);
  await expect(send).toBeEnabled();
  const preview = invite.frameLocator('iframe[title="Invitation preview"]');
  await expect(preview.getByText('Come and join us')).toBeVisible();
  await send.click();
  await expect(page.getByRole('status')).toHaveText(`Invitation sent successfully to ${address}`);
  await expect(page.getByRole('row', { name: new RegExp(address) })).toContainText('Invited');

  // The e-mail reached the sink; the Outbox shows it, with the signed link.
  const message = await onlyMessageTo(address);
  const link = message.text.match(/https?:\/\/\S+/g)!.find((url) => url.includes('user='))!;
  const token = new URL(link).searchParams.get('user')!;
  const user = await Users.byEmail(address);
  expect(token).not.toContain(user!.id);
  expect((await Users.fromInvitation(token)).id).toBe(user!.id);
  await page.getByRole('link', { name: 'Outbox' }).click();
  const outboxEntry = page.locator('article', { hasText: `To ${address}` });
  await expect(
    outboxEntry.getByRole('heading', { name: 'You are invited to Cluefeed' }),
  ).toBeVisible();
  await outboxEntry.getByText('Show the e-mail').click();
  const email = outboxEntry.frameLocator('iframe');
  await expect(email.getByRole('link', { name: /user=/ })).toHaveAttribute('href', /vus=sp&user=/);
});

test.describe('without JavaScript', () => {
  // The refused form is a 409 page, which the browser reports in its console.
  test.use({ javaScriptEnabled: false, allowConsoleErrors: [/status of 409/] });

  test('a refused new user keeps what was typed, with the message', async ({ page }) => {
    const taken = await Users.create({
      name: 'Taken',
      email: `taken-${ulid().toLowerCase()}@example.org`,
    });
    await signIn(page);
    await page.getByRole('link', { name: 'Add user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add user' });
    await dialog.getByLabel('Name').fill('Grace Hopper');
    await dialog.getByLabel('Email').fill(taken.email);
    await dialog.getByRole('button', { name: 'Add user' }).click();
    const again = page.getByRole('dialog', { name: 'Add user' });
    await expect(again).toContainText('A user with this email already exists');
    await expect(again.getByLabel('Name')).toHaveValue('Grace Hopper');
    await expect(again.getByLabel('Email')).toHaveValue(taken.email);
  });
});
