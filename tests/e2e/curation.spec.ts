// The curation journeys: scoring, matching, prompt testing, the experiment and picks. Picks add
// content cards to the seeded audiences' public pages, which other journeys count, so this file
// runs against the back office's own app (playwright.config.ts).
import type { Page } from '@playwright/test';
import { ulid } from 'ulid';
import * as Articles from '#core/articles';
import * as Audiences from '#core/audiences';
import * as Automations from '#core/automations';
import * as Jobs from '#core/jobs';
import * as Scoring from '#core/scoring';
import { afterStatusPolls, expect, test } from './fixtures';
import { sidewaysOverflow, spillingOutOfCards, WIDTHS } from './page-checks';
import { noProcessRuns, ranToEnd } from './processes';

// Jobs share one queue and the actions wait while one runs: these run in order.
test.describe.configure({ mode: 'default' });

const ADMIN = { userName: 'admin', password: 'e2e-admin-password-0123' };

async function signIn(page: Page) {
  await page.goto('/admin-panel/authorize');
  await page.getByLabel('User name').fill(ADMIN.userName);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test.describe('scoring, matching and picks', () => {
  test.describe.configure({ timeout: 150_000 });
  test.use({ allowConsoleErrors: [/status of 40[09] /] });

  /** Waits until no process runs (imports queue scoring by themselves), then shows fresh data. */
  async function whenIdle(page: Page) {
    await expect(page.getByRole('heading', { name: 'Content Automations' })).toBeVisible();
    await noProcessRuns();
    await page.reload();
  }

  test('Score unscored articles: the run is summed up, each article shows its label, reason and matched clues; picks reach the audience page', async ({
    page,
  }) => {
    await page.clock.install();
    await signIn(page);
    await whenIdle(page);
    if ((await Articles.count()) === 0) {
      // The back office's app starts with no articles: this journey imports the fixture feeds
      // first (the import queues scoring too).
      await page.getByRole('button', { name: 'Import articles', exact: true }).click();
      await ranToEnd(Automations.importArticles.name);
      await whenIdle(page);
    }
    // A new audience leaves every article with a pair to score.
    const key = ulid().toLowerCase();
    const audience = await Audiences.create({
      title: 'run Ethereum validators',
      slug: `validators-${key}`,
      tag: 'aud-validators-e2e',
      frequency: 'daily',
      state: 'active',
    });
    const before = (await Jobs.lastRun(Automations.scoreArticles.name))?.id;
    await page.getByRole('button', { name: 'Score unscored articles' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Successfully triggered article scoring' }),
    ).toBeVisible();
    const run = await ranToEnd(Automations.scoreArticles.name, before);
    const output = JSON.parse(run.output!) as Record<string, number>;
    expect(output.scored).toBeGreaterThan(0);
    expect(output.failed).toBe(0);
    const scoring = page.locator('form').filter({ hasText: 'Score unscored articles' });
    // A status poll sees the run end and reloads the page's data (numbers as the page writes them).
    const summary = new RegExp(
      `${output.scored!.toLocaleString('en')} article–audience/reader pairs? scored \\(.*\\) with .* in ${output.chunks} chunks?\\. It used .*, no cost\\.`,
    );
    await afterStatusPolls(
      page,
      () => expect(scoring).toContainText(summary, { timeout: 1_000 }),
      15_000,
    );

    // The article that suits the audience best, as the admin sees it.
    const { scores } = await Scoring.ranked(
      Scoring.audienceTarget(audience),
      { promptId: 'default-scoring', modelId: 'local:cluefeed-bm25' },
      { limit: 500 },
    );
    const best = scores.sort((a, b) => b.score - a.score)[0]!;
    expect(best.relevantClues).toEqual(['run Ethereum validators']);
    // Every story rated from 'Slightly Relevant' up says what matched and names a phrase of the clue.
    const rated = scores.filter((score) => score.label !== 'Not Relevant');
    expect(rated.some((score) => score.label === 'Slightly Relevant')).toBe(true);
    for (const score of rated) {
      expect(score.relevantClues).toEqual(['run Ethereum validators']);
      expect(score.reason).toMatch(
        /^(It covers .+, for|A loose match: it touches on .+, near) your clue on Ethereum validators\.$/,
      );
    }
    await page.goto(`/admin-panel/articles/${best.articleId}`);
    const row = page
      .getByRole('table', { name: /Scores/ })
      .getByRole('row', { name: /those who run Ethereum validators/ });
    await expect(row).toContainText(best.label);
    await expect(row).toContainText(best.reason);
    await expect(row).toContainText('run Ethereum validators');
    await expect(row).toContainText('local - cluefeed-bm25');

    // Picking turns the best scored stories into a card on the audience's public page.
    await page.goto('/admin-panel/content-automations');
    await whenIdle(page);
    const picked = (await Jobs.lastRun(Automations.pickBestContent.name))?.id;
    await page.getByRole('button', { name: 'Pick best content for descriptors' }).click();
    await expect(
      page
        .getByRole('status')
        .filter({ hasText: 'Successfully triggered Pick best content for descriptors' }),
    ).toBeVisible();
    await ranToEnd(Automations.pickBestContent.name, picked);
    const article = await Articles.byId(best.articleId);
    await page.goto(`/a/${audience.slug}`);
    await expect(page.getByRole('link', { name: article!.title }).first()).toBeVisible();
    // A picked story says why it is there (another pick may give the same reason in the same words).
    await expect(
      page.locator('.card .story__reason', { hasText: best.reason }).first(),
    ).toBeVisible();
  });

  test('send newsletters: each confirmed follower gets an issue queued for delivery', async ({
    page,
  }) => {
    await signIn(page);
    await whenIdle(page);
    await page.getByLabel('Frequency').selectOption('daily');
    await page.getByRole('button', { name: 'Send newsletters' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Successfully triggered send newsletters' }),
    ).toBeVisible();
    const run = await ranToEnd(Automations.sendNewsletters.name);
    const output = JSON.parse(run.output!) as Record<string, number>;
    await page.reload();
    await expect(page.locator('form').filter({ hasText: 'Send newsletters' })).toContainText(
      `${output.queued ?? 0} issue`,
    );
  });

  test('audience matching and prompt testing ask for an audience, then show their results', async ({
    page,
  }) => {
    await signIn(page);
    await whenIdle(page);
    await page.getByRole('button', { name: 'Audience matching', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'Audience matching error: Please select an audience',
    );
    await page.getByRole('button', { name: 'Prompt testing', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'Prompt testing error: Please select an audience',
    );

    const form = (name: string) =>
      page.locator('form').filter({ has: page.getByRole('heading', { name, exact: true }) });
    const matching = form('Audience matching');
    await matching.getByLabel('Audience').selectOption({ label: 'build DeFi protocols' });
    await matching.getByRole('button', { name: 'Audience matching' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Successfully triggered audience matching' }),
    ).toBeVisible();
    await ranToEnd(Automations.audienceMatching.name);
    await page.reload();
    await expect(
      page.getByRole('table', { name: 'Sources for the last matched audience' }).getByRole('row'),
    ).not.toHaveCount(0);

    await whenIdle(page);
    const testing = form('Prompt testing');
    await testing.getByLabel('Audience').selectOption({ label: 'build DeFi protocols' });
    await testing.getByRole('button', { name: 'Prompt testing' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Successfully triggered prompt testing' }),
    ).toBeVisible();
    await ranToEnd(Automations.promptTesting.name);
    await page.reload();
    await expect(
      page.getByRole('table', { name: 'Last prompt test: those who build DeFi protocols' }),
    ).toContainText('Prompt testing (default)');

    // After both runs, each card still holds its selects, buttons and 'Last run' line.
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 844 });
      await expect(form('Prompt testing')).toContainText('Last run:');
      expect(await spillingOutOfCards(page), `at ${width} px`).toEqual([]);
      expect(await sidewaysOverflow(page), `at ${width} px`).toBeLessThanOrEqual(0);
    }
  });

  test('populate source matching and the score articles experiment report what they did', async ({
    page,
  }) => {
    await signIn(page);
    await whenIdle(page);
    await page.getByRole('button', { name: 'Populate source and audience matching' }).click();
    await expect(
      page
        .getByRole('status')
        .filter({ hasText: 'Successfully triggered populate source <> audience matchings' }),
    ).toBeVisible();
    await ranToEnd(Automations.populateSourceMatching.name);

    await whenIdle(page);
    await page.getByLabel('Article limit').fill('5');
    await page.getByRole('button', { name: 'Score articles experiment' }).click();
    await expect(
      page
        .getByRole('status')
        .filter({ hasText: 'Successfully triggered score articles experiment' }),
    ).toBeVisible();
    await ranToEnd(Automations.scoreArticlesExperiment.name);
    await page.reload();
    const table = page.getByRole('table', { name: 'Last score articles experiment' });
    const defi = table.getByRole('row', { name: /build DeFi protocols/ });
    // Five articles, each under one label: the Total column says 5.
    await expect(defi.getByRole('cell').last()).toHaveText('5');
    await expect(
      page.locator('form').filter({ hasText: 'Populate source and audience matching' }),
    ).toContainText(/match(es)? for \d+ sources?/);
  });
});
