// The Experiments screen in real Chromium: an operator chooses 'Score Articles per Descriptor',
// adds a prompt, adds two runs with different prompts on a frozen dataset, executes both and
// watches them reach Success (the screen reloads every 10 s), then compares them: a distribution
// per matching entity and Cohen's kappa. The screen and the comparison fit 1280 and 390 px.
import type { Page } from '@playwright/test';
import { ulid } from 'ulid';
import * as Experiments from '#core/experiments';
import { createArticle } from '#tests/integration/factories';
import { expect, hydrated, test } from './fixtures';
import { expectFitsAndReadable } from './page-checks';

const ADMIN = { userName: 'admin', password: 'e2e-admin-password-0123' };
const PATH = '/admin-panel/experiments';
const MODEL = 'local - cluefeed-bm25';

async function signIn(page: Page) {
  await page.goto(PATH);
  await page.getByLabel('User name').fill(ADMIN.userName);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Experiments', level: 1 })).toBeVisible();
}

/** Adds a run in the modal: the name's message on blur first, then every field. */
async function addRun(page: Page, name: string, dataset: string, prompt: string) {
  await page.getByRole('link', { name: 'Add Implementation Run' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add implementation run' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Name').focus();
  await dialog.getByLabel('Name').blur();
  await expect(dialog.getByText('Please add a name')).toBeVisible();
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Dataset').selectOption({ label: dataset });
  await dialog.getByLabel('Model').selectOption({ label: MODEL });
  await dialog.getByLabel('Prompt').selectOption({ label: prompt });
  await dialog.getByLabel('Article limit').fill('8');
  await expect(dialog.getByText('Value should be between 0 and 1')).toBeVisible();
  await dialog.getByRole('button', { name: 'Add run' }).click();
  // Saved: its preview opens.
  const preview = page.getByRole('dialog', { name });
  await expect(preview.getByText('Not executed').first()).toBeVisible();
  return preview;
}

test('an operator compares two prompts on a frozen dataset', async ({ page }) => {
  test.setTimeout(150_000);
  const tag = ulid().toLowerCase().slice(-8);
  // The demo seed has audiences but no articles: the dataset freezes these (and any newer).
  for (const [index, title] of [
    'Aave adds isolated lending markets for DeFi builders',
    'Auditors find a reentrancy bug in a lending pool',
    'Generative art collection sells out on-chain',
    'Rollup sequencers move toward decentralisation',
  ].entries()) {
    await createArticle({
      title: `${title} (${tag})`,
      canonicalUrl: `https://news.example/e2e/experiments/${tag}/${index}`,
      publishedAt: new Date(Date.now() - index * 60_000).toISOString(),
    });
  }
  const dataset = await Experiments.freezeDataset({
    name: `E2E descriptors ${tag}`,
    group: 'first_layer_descriptor',
    articles: 8,
    systemUserId: '-',
  });
  const other = await Experiments.addPrompt({
    expImplementationId: 'score-articles-per-descriptor',
    title: `Lenient ${tag}`,
    prompt: 'Is {title} at all about what a reader who {clues} follows?',
    systemUserId: '-',
  });
  await signIn(page);
  await hydrated(page);
  await expect(page.getByRole('region', { name: 'Active experiment processes' })).toBeVisible();

  // The choosers: a process, then one of its implementations; both show the two tabs.
  await page.getByRole('combobox', { name: 'Process' }).fill('Descriptor experiments');
  await expect(page).toHaveURL(`${PATH}?process=descriptor-experiments`);
  await page
    .getByRole('combobox', { name: 'Implementation' })
    .fill('Score Articles per Descriptor');
  await expect(page).toHaveURL(/implementation=score-articles-per-descriptor/);
  const tabs = page.getByRole('navigation', { name: 'Implementation' });
  await expect(tabs.getByRole('link', { name: 'Implementation Runs' })).toBeVisible();

  // A prompt of the operator's own, with placeholders clicked in from the info box.
  await tabs.getByRole('link', { name: 'Prompt management' }).click();
  await page.getByRole('link', { name: 'Add prompt' }).click();
  const adding = page.getByRole('dialog', { name: 'Add prompt' });
  await adding.getByLabel('Name').fill(`Strict ${tag}`);
  await adding.getByLabel('Prompt', { exact: true }).fill('Only count it if');
  await adding.getByRole('button', { name: '{title}' }).click();
  await adding.getByRole('button', { name: '{clues}' }).click();
  await expect(adding.getByLabel('Prompt', { exact: true })).toHaveValue(
    'Only count it if{title} {clues} ',
  );
  await adding.getByRole('button', { name: 'Add prompt' }).click();
  await expect(adding).toBeHidden();
  await expect(page.getByRole('heading', { name: `Strict ${tag}` })).toBeVisible();

  // A copy, removed again after the spec's question.
  await page.getByRole('button', { name: `Duplicate Strict ${tag}`, exact: true }).click();
  const copy = page.getByRole('heading', { name: `Strict ${tag} (copy)` });
  await expect(copy).toBeVisible();
  await page.getByRole('link', { name: `Remove Strict ${tag} (copy)`, exact: true }).click();
  const question = page.getByRole('dialog', { name: 'Delete prompt' });
  await expect(question).toContainText(
    `You are about to delete the 'Strict ${tag} (copy)' prompt. Are you sure?`,
  );
  await question.getByRole('button', { name: 'Delete' }).click();
  await expect(question).toBeHidden();
  await expect(copy).toHaveCount(0);

  // Two runs, one per prompt, each executed from its preview.
  await tabs.getByRole('link', { name: 'Implementation Runs' }).click();
  const datasetName = `${dataset.name} (${Experiments.GROUP_WORDS[dataset.group].label})`;
  for (const [name, prompt] of [
    [`Strict run ${tag}`, `Strict ${tag}`],
    [`Lenient run ${tag}`, other.title],
  ] as const) {
    const preview = await addRun(page, name, datasetName, prompt);
    await preview.getByRole('button', { name: 'Execute' }).click();
    await expect(page.getByRole('status').filter({ hasText: `Run ${name} queued` })).toBeVisible();
    await expect(preview.getByText(/^(Queued|Running|Success)$/)).toBeVisible();
    await expect(preview.getByRole('button', { name: 'Execute' })).toBeHidden();
    await preview.getByRole('link', { name: 'Cancel' }).click();
    await expect(preview).toBeHidden();
  }
  // The screen reloads itself every 10 s: both runs reach Success without a click.
  const runsTable = page.getByRole('table', { name: 'Implementation runs' });
  for (const name of [`Strict run ${tag}`, `Lenient run ${tag}`]) {
    await expect(runsTable.getByRole('row', { name: new RegExp(name) })).toContainText('Success', {
      timeout: 60_000,
    });
  }
  await expectFitsAndReadable(page, 'Experiments runs');

  // A successful run's preview shows what it produced and what it cost; it is done, so no Execute.
  await runsTable.getByRole('link', { name: `Open Strict run ${tag}` }).click();
  const done = page.getByRole('dialog', { name: `Strict run ${tag}` });
  await expect(done.getByRole('table', { name: 'Labels per matching entity' })).toBeVisible();
  await expect(done.getByText(/^\$\d+\.\d{4}$|^cost unknown$/)).toBeVisible();
  await expect(done.getByText('Only count it if{title} {clues}')).toBeVisible();
  await expect(done.getByRole('button', { name: 'Execute' })).toHaveCount(0);
  await expect(done.getByRole('link', { name: 'Edit' })).toHaveCount(0);
  await expect(
    done.getByRole('link', { name: 'Use this prompt and model in production' }),
  ).toBeVisible();
  await expectFitsAndReadable(page, 'Experiments run preview');
  await done.getByRole('link', { name: 'Cancel' }).click();

  await page.getByRole('checkbox', { name: `Compare Strict run ${tag}` }).check();
  await page.getByRole('checkbox', { name: `Compare Lenient run ${tag}` }).check();
  await page.getByRole('button', { name: 'Compare runs' }).click();
  await expect(page.getByRole('heading', { name: 'Compare runs' })).toBeVisible();
  await expect(page.getByRole('img', { name: /^Labels for .+, per run$/ }).first()).toBeVisible();
  // A legend names each run's colour (classes: the policy refuses inline styles), and the
  // chart's text is drawn at least 12 px at both widths.
  const legend = page.getByRole('list', { name: /^Runs in the chart for / }).first();
  await expect(legend.getByRole('listitem')).toHaveCount(2);
  expect((await legend.getByRole('listitem').allTextContents()).sort()).toEqual([
    `Lenient run ${tag}`,
    `Strict run ${tag}`,
  ]);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 844 });
    const smallest = await page
      .locator('svg.chart text')
      .evaluateAll((texts) =>
        Math.min(...texts.map((text) => (text as SVGTextElement).getBoundingClientRect().height)),
      );
    expect(smallest, `chart text at ${width} px`).toBeGreaterThanOrEqual(12);
    await page.screenshot({
      path: `test-results/after/compare-legend-${width}.png`,
      fullPage: true,
    });
  }
  const agreement = page.getByRole('table', { name: 'Agreement' });
  const pair = agreement.getByRole('row', { name: new RegExp(`Strict run ${tag}`) });
  await expect(pair.getByRole('cell').last()).toHaveText(/^(-?\d\.\d{3}|—)$/);
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download CSV' }).click();
  expect((await download).suggestedFilename()).toBe('experiment-comparison.csv');
  await expectFitsAndReadable(page, 'Compare runs');
});

test('an operator builds a two-step chain in the page and runs it', async ({ page }) => {
  test.setTimeout(120_000);
  const tag = ulid().toLowerCase().slice(-8);
  await createArticle({
    title: `Lending pools add isolated markets (${tag})`,
    canonicalUrl: `https://news.example/e2e/chain/${tag}`,
    publishedAt: new Date().toISOString(),
  });
  const dataset = await Experiments.freezeDataset({
    name: `E2E chain ${tag}`,
    group: 'first_layer_descriptor',
    articles: 4,
    systemUserId: '-',
  });
  const prompt = await Experiments.addPrompt({
    expImplementationId: 'score-articles-per-descriptor',
    title: `Chain prompt ${tag}`,
    prompt: 'How relevant is {title} to a reader who {clues}?',
    systemUserId: '-',
  });
  await signIn(page);
  await page.goto(`${PATH}?process=descriptor-experiments&implementation=chaining-per-descriptor`);
  await hydrated(page);
  await page.getByRole('link', { name: 'Add Implementation Run' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add implementation run' });
  await dialog.getByLabel('Name').fill(`Chain ${tag}`);
  await dialog
    .getByLabel('Dataset')
    .selectOption({ label: `${dataset.name} (${Experiments.GROUP_WORDS[dataset.group].label})` });

  // Step buttons change the form in the page; the chosen implementation's fields show at once.
  await dialog.getByRole('button', { name: 'Add step' }).click();
  await dialog
    .getByLabel('Step implementation')
    .selectOption({ label: 'Score Articles per Descriptor' });
  await dialog.getByLabel('Model').selectOption({ label: MODEL });
  await dialog.getByLabel('Prompt').selectOption({ label: prompt.title });
  await dialog.getByLabel('Article limit').fill('4');
  await dialog.getByRole('button', { name: 'Add step' }).click();
  await expect(dialog.getByText('Step 1: Score Articles per Descriptor')).toBeVisible();
  await expect(dialog.getByLabel('Step implementation')).toHaveCount(1);
  await dialog
    .getByLabel('Step implementation')
    .selectOption({ label: 'Embeddings per Descriptor' });
  await dialog.getByLabel('Model').selectOption({ label: 'local - cluefeed-hashed-256' });
  await dialog.getByLabel('Article limit').fill('4');
  await dialog.getByRole('button', { name: 'Edit Step 1' }).click();
  await expect(dialog.getByLabel('Prompt')).toHaveValue(prompt.id);
  await expectFitsAndReadable(page, 'Experiments chaining form with script');
  await dialog.getByRole('button', { name: 'Add run' }).click();

  const preview = page.getByRole('dialog', { name: `Chain ${tag}` });
  await preview.getByRole('button', { name: 'Execute' }).click();
  await expect(preview.getByText('Success')).toBeVisible({ timeout: 60_000 });
  await expect(preview.getByRole('heading', { name: /^Step 1: / })).toBeVisible();
  await expect(preview.getByRole('heading', { name: /^Step 2: / })).toBeVisible();
});

test.describe('without JavaScript', () => {
  // A refused form answers 400 with the page, which Chromium reports as a failed load.
  test.use({
    javaScriptEnabled: false,
    allowConsoleErrors: [/^Failed to load resource: the server responded with a status of 400/],
  });

  test("the choosers, the server's messages and a chain's steps work by round trips", async ({
    page,
  }) => {
    await signIn(page);
    await page.getByRole('combobox', { name: 'Process' }).fill('Descriptor experiments');
    await page.getByRole('button', { name: 'Show' }).click();
    await expect(page).toHaveURL(`${PATH}?process=descriptor-experiments`);
    await expect(page.getByRole('button', { name: 'Add Implementation Run' })).toBeDisabled();
    await page.getByRole('combobox', { name: 'Implementation' }).fill('Chaining per Descriptor');
    await page.getByRole('button', { name: 'Show' }).click();
    await expect(page).toHaveURL(/implementation=chaining-per-descriptor/);

    await page.getByRole('link', { name: 'Add Implementation Run' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add implementation run' });
    await dialog.getByRole('button', { name: 'Add run' }).click();
    for (const message of [
      'Please add a name',
      'Please select dataset',
      'Please add at least one step',
    ]) {
      await expect(dialog.getByText(message)).toBeVisible();
    }
    await dialog.getByLabel('Name').fill('Two steps');
    await dialog.getByRole('button', { name: 'Add step' }).click();
    await dialog
      .getByLabel('Step implementation')
      .selectOption({ label: 'Score Articles per Descriptor' });
    await dialog.getByRole('button', { name: "Show this implementation's settings" }).click();
    await dialog.getByLabel('Model').selectOption({ label: MODEL });
    await dialog.getByRole('button', { name: 'Add step' }).click();
    // The first step folds with its fields kept; only the new one is open.
    await expect(dialog.getByText('Step 1: Score Articles per Descriptor')).toBeVisible();
    await expect(dialog.getByText('Step 2: No implementation yet')).toBeVisible();
    await expect(dialog.getByLabel('Step implementation')).toHaveCount(1);
    await expect(dialog.getByLabel('Name')).toHaveValue('Two steps');
    await dialog.getByRole('button', { name: 'Edit Step 1' }).click();
    await expect(dialog.getByLabel('Model')).toHaveValue('local:cluefeed-bm25');
    await dialog.getByRole('button', { name: 'Remove Step 2' }).click();
    await expect(dialog.getByText(/^Step 2/)).toHaveCount(0);
    await expectFitsAndReadable(page, 'Experiments chaining form');
  });
});
