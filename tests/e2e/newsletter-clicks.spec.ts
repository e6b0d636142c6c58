// A reader follows a story link from a newsletter issue: the signed redirect takes them to the
// story and the issue counts the click; a link cut short gets a clear page. The privacy policy says
// how clicks are counted and that the e-mails carry no tracking pixels.
import { ulid } from 'ulid';
import * as Newsletter from '#core/newsletter';
import { E2E_PORT } from '../../playwright.config';
import { expect, test } from './fixtures';

test.describe('a story link', () => {
  // The link cut short answers 400, which the browser reports.
  test.use({ allowConsoleErrors: [/status of 400 /] });

  test('a story link from an issue takes the reader to the story and counts the click', async ({
    page,
  }) => {
    const { data: issue } = await Newsletter.NewsletterIssueEntity.create({
      id: ulid(),
      origin: 'campaign',
      frequency: 'daily',
      from: '2026-11-19T08:00:00.000Z',
      to: '2026-11-20T08:00:00.000Z',
      audienceIds: [ulid()],
      status: 'done',
      createdAt: new Date().toISOString(),
    }).go();
    const story = `http://127.0.0.1:${E2E_PORT}/about`;
    const link = Newsletter.clickUrl({
      issueId: issue.id,
      subscriberId: ulid(),
      articleId: ulid(),
      url: story,
    });

    await page.goto(link);
    await expect(page).toHaveURL(story);
    await expect(page.getByRole('heading', { name: 'Our mission' })).toBeVisible();
    await page.goto(link);
    await expect(page).toHaveURL(story);
    await expect
      .poll(async () => {
        const counted = await Newsletter.issueById(issue.id);
        return [counted?.clicks, counted?.uniqueClicks];
      })
      .toEqual([2, 1]);

    const response = await page.goto(link.slice(0, -4));
    expect(response?.status()).toBe(400);
    await expect(page.getByRole('heading', { name: 'This link is not valid' })).toBeVisible();
    await page.getByRole('link', { name: 'Cluefeed' }).click();
    await expect(page).toHaveURL(`http://127.0.0.1:${E2E_PORT}/`);
  });
});

test('the privacy policy says e-mails carry no tracking pixels and how clicks are counted', async ({
  page,
}) => {
  await page.goto('/privacy-policy');
  await expect(page.getByText('Cluefeed newsletters contain no tracking pixels.')).toBeVisible();
  await expect(page.getByText(/counts clicks per issue and story/)).toBeVisible();
  await expect(page.getByText(/through pixels in our e-mails/)).toHaveCount(0);
});
