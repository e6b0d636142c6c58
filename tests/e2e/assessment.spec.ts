// Audience name assessment: an admin tries a narrow, a middling and a broad audience name on the
// Content Automations page and reads the spec's score, rank, reasoning, suggestions and raw
// answer; the funnel's public call answers the same assessment (from the cache the admin filled).
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { noProcessRuns } from './processes';

const ADMIN = { userName: 'admin', password: 'e2e-admin-password-0123' };
const PREFIX = 'I am one of those who';
const NARROW = 'I build DeFi lending protocols on Ethereum';
const MIDDLING = 'build DeFi protocols';
const BROAD = 'like crypto';

async function signIn(page: Page) {
  await page.goto('/admin-panel/authorize?returnUrl=%2Fadmin-panel%2Fcontent-automations');
  await page.getByLabel('User name').fill(ADMIN.userName);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Content Automations' })).toBeVisible();
}

/**
 * The page's actions are disabled while any process runs (the spec), and journeys beside this one
 * run imports, scorings and sends on the same server: wait until none runs, then load the page's
 * fresh status (its next poll is 10 s away, time enough to ask).
 */
async function whenIdle(page: Page) {
  await noProcessRuns();
  await page.reload();
}

async function assess(page: Page, audienceName: string) {
  await whenIdle(page);
  const form = page.getByRole('form', { name: 'Audience name assessment' });
  await expect(form.getByLabel('Prefix')).toHaveValue(PREFIX);
  await form.getByLabel('Audience name').fill(audienceName);
  await form.getByRole('button', { name: 'Assess audience name' }).click();
  return form.getByRole('status');
}

test('an admin assesses a narrow, a middling and a broad audience name and sees score, rank, reasoning, suggestions and raw', async ({
  page,
  request,
}) => {
  // Each assessment may wait for other journeys' processes to end.
  test.setTimeout(300_000);
  await signIn(page);

  const narrow = await assess(page, NARROW);
  await expect(narrow).toContainText('Score: very insightful (rank HIGH)');
  await expect(narrow).toContainText('Reasoning: It names 4 specific topic word(s)');
  // Nothing reads as a more specific version of it, so nothing is suggested.
  await expect(narrow.getByText('None', { exact: true })).toBeVisible();
  const raw = JSON.parse((await narrow.getByLabel('Raw:').textContent()) ?? '') as unknown;
  expect(raw).toMatchObject({ score: 'very insightful', suggestions: [] });

  const middling = await assess(page, MIDDLING);
  await expect(middling).toContainText('Score: moderately insightful (rank OK)');
  // The reader's own words, made more specific where English puts a modifier.
  const suggestions = middling.getByRole('list', { name: 'Suggestions:' }).getByRole('listitem');
  await expect(suggestions).toHaveText(['build DeFi lending protocols']);
  const middlingReasoning = (await middling.getByText(/^Reasoning: /).textContent()) ?? '';

  const broad = await assess(page, BROAD);
  await expect(broad).toContainText('Score: not insightful (rank VERY_LOW)');
  await expect(broad).toContainText('Reasoning: "crypto" is broad');
  await expect(broad).not.toContainText(MIDDLING);

  // The funnel's public call gives the same assessment (from the cache), without the raw text.
  const answer = await request.post('/api/audience-name-assessment', {
    data: { prefix: PREFIX, clue: MIDDLING },
  });
  expect(answer.status()).toBe(200);
  expect(await answer.json()).toEqual({
    score: 'moderately insightful',
    rank: 'OK',
    reasoning: middlingReasoning.replace(/^Reasoning: /, ''),
    suggestions: ['build DeFi lending protocols'],
  });
});

test.describe('refused input', () => {
  // The refused request answers 400, which the browser logs.
  test.use({ allowConsoleErrors: [/status of 400 /] });

  test('a clue that is too long is explained in an error box', async ({ page }) => {
    test.setTimeout(120_000);
    await signIn(page);
    await whenIdle(page);
    const form = page.getByRole('form', { name: 'Audience name assessment' });
    // The field's maxLength stops typing; a script (or an old browser) may still send more.
    await form
      .getByLabel('Audience name')
      .evaluate((input: HTMLInputElement) => input.removeAttribute('maxlength'));
    await form.getByLabel('Audience name').fill('a'.repeat(301));
    await form.getByRole('button', { name: 'Assess audience name' }).click();
    await expect(form.getByRole('alert')).toHaveText('A clue has at most 300 characters');
    await expect(form.getByRole('status')).toBeEmpty();
  });
});

test('the funnel’s call rates gibberish and vague clues low, and asks for more only with examples', async ({
  request,
}) => {
  const assess = async (clue: string, prefix = PREFIX, pointer?: string) => {
    const answer = await request.post('/api/audience-name-assessment', {
      data: { prefix, pointer, clue },
    });
    expect(answer.status()).toBe(200);
    return (await answer.json()) as { rank: string; suggestions: string[] };
  };
  for (const clue of ['asdf qwer', 'zxcv bnm', 'things on the internet', 'stuff']) {
    expect(await assess(clue), clue).toMatchObject({ rank: 'VERY_LOW', suggestions: [] });
  }
  expect(['VERY_LOW', 'LOW']).toContain((await assess('news about crypto and web3')).rank);
  // 'Good start! Can you make it more specific? For example:' comes with examples to pick.
  for (const [clue, prefix, pointer] of [
    ['news about crypto and web3', PREFIX],
    ['lending on Ethereum', PREFIX],
    ['lending on Ethereum', 'I build', 'protocols for'],
    ['vote in a DAO', PREFIX],
    [MIDDLING, PREFIX],
  ] as const) {
    const { rank, suggestions } = await assess(clue, prefix, pointer);
    if (rank === 'LOW' || rank === 'OK') expect(suggestions.length, clue).toBeGreaterThan(0);
  }
  expect(
    await assess(
      'I build DeFi lending on Ethereum, with a focus on smart-contract security',
      'I am',
    ),
  ).toMatchObject({ rank: 'VERY_HIGH' });
});
