// The Experiments screen through its loader and action, against DynamoDB Local and the job
// runtime: the guard, the address's choices, every run-form and prompt message with its 4xx, the
// chaining form's round trip, and a run added, executed, compared and promoted.
import { ulid } from 'ulid';
import { beforeAll, describe, expect, it } from 'vitest';
import * as Worker from '#core/worker';
import { config } from '#core/config';
import * as Experiments from '#core/experiments';
import * as Scoring from '#core/scoring';
import { seedAi } from '#scripts/seed/ai';
import { createArticle, createAudience } from '#tests/integration/factories';
import { runToEnd } from '#tests/integration/job-queue';
import { useOwnTable } from '#tests/integration/own-table';
import { call, type Answer } from '#tests/integration/route-call';
import { adminPost, signedInAdmin } from '#web/lib/admin.server.test-helpers';
import type { ActionResult, ExperimentsPage } from './experiments.server';
import { action, loader } from './experiments';
import { loader as compareLoader } from './experiments.compare';
import { loader as csvLoader } from './experiments.compare-csv';

const PATH = '/admin-panel/experiments';
const SCORE = '?process=descriptor-experiments&implementation=score-articles-per-descriptor';
const GPT = 'local:cluefeed-bm25';
const origin = () => new URL(config().PUBLIC_URL).origin;

// Promoting changes production's setup, and a dataset freezes the newest articles: a table of its own.
useOwnTable('experiments-screen');

let cookie: string;
let dataset: Experiments.Dataset;
let prompt: string;

beforeAll(async () => {
  await seedAi();
  ({ cookie } = await signedInAdmin());
  const tag = ulid().toLowerCase();
  await createAudience({ title: `build DeFi protocols ${tag}`, tag: `aud-${tag}` });
  await createArticle({ title: 'Aave adds isolated lending markets for DeFi builders' });
  dataset = await Experiments.freezeDataset({
    name: `Descriptors ${tag}`,
    group: 'first_layer_descriptor',
    articles: 5,
    systemUserId: 'admin',
  });
  prompt = (
    await Experiments.addPrompt({
      expImplementationId: 'score-articles-per-descriptor',
      title: `Plain ${tag}`,
      prompt: 'How relevant is {title} to a reader who {clues}?',
      systemUserId: 'admin',
    })
  ).id;
});

const get = (query: string, headers: Record<string, string> = { Cookie: cookie }) =>
  call(loader, new Request(new URL(`${PATH}${query}`, origin()), { headers }));
const page = async (query: string) => (await get(query)).data as ExperimentsPage;
const post = (query: string, form: Record<string, string> | [string, string][]) => {
  const request = adminPost(`${PATH}${query}`, {}, cookie);
  return call(
    action,
    new Request(request.url, {
      method: 'POST',
      headers: request.headers,
      body: new URLSearchParams(form).toString(),
    }),
  );
};
const result = (answer: Answer) => answer.data as ActionResult;

/** A score run's form, filled in. */
const scoreRun = (name: string, extra: Record<string, string> = {}) => ({
  intent: 'save',
  name,
  dataset: dataset.id,
  expGptModelId: GPT,
  expPromptId: prompt,
  articleLimit: '5',
  ...extra,
});

describe('experiments guard', () => {
  it('sends a visitor without a session to sign-in and refuses a POST from another site', async () => {
    const visitor = await get(SCORE, {});
    expect(visitor.status).toBe(302);
    expect(visitor.location).toBe(
      `/admin-panel/authorize?returnUrl=${encodeURIComponent(`${PATH}${SCORE}`)}`,
    );
    const compare = await call(
      compareLoader,
      new Request(new URL(`${PATH}/compare?runs=a&runs=b`, origin())),
    );
    expect(compare.status).toBe(302);

    const request = adminPost(`${PATH}${SCORE}`, scoreRun('Elsewhere'), cookie);
    request.headers.set('Origin', 'https://evil.example');
    expect((await call(action, request)).status).toBe(403);
  });
});

describe('the address chooses what the screen shows', () => {
  it('lists the processes first, then the chosen process implementations', async () => {
    const start = await page('');
    expect(start.processes.map((process) => process.name)).toEqual([
      'Descriptor experiments',
      'User experiments',
      'Content experiments',
    ]);
    expect(start.implementation).toBeUndefined();
    const chosen = await page('?process=descriptor-experiments');
    expect(chosen.implementations.map((choice) => choice.name)).toEqual([
      'Chaining per Descriptor',
      'Score Articles per Descriptor',
      'Pick Best Content per Descriptor',
      'Embeddings per Descriptor',
    ]);
  });

  it('explains each process and implementation in words, and what a threshold does for each kind', async () => {
    const start = await page('');
    expect(start.processes.find(({ id }) => id === 'descriptor-experiments')?.words).toMatch(
      /^Experiments for audiences \(called descriptors here\)/,
    );
    expect(start.processes.every((process) => Boolean(process.words))).toBe(true);
    const chosen = await page('?process=descriptor-experiments');
    expect(
      chosen.implementations.find(({ name }) => name === 'Chaining per Descriptor')?.words,
    ).toBe(
      'Runs several steps one after another for each audience, each step reading what the one before passed on.',
    );
    expect(chosen.implementations.every((choice) => Boolean(choice.words))).toBe(true);
    expect((await page(SCORE)).implementation?.words).toMatch(/^Asks the model how relevant/);
    const embedding = await page(
      '?process=descriptor-experiments&implementation=embeddings-per-descriptor&modal=add',
    );
    expect(embedding.options?.thresholdWords).toBe(
      "An item is 'Above threshold' when its similarity to the clues is at least this. Left empty: 0.5.",
    );
  });

  it('takes names from the filter boxes and keeps ids in the address; a new process clears the implementation', async () => {
    const byName = await get(
      '?shownProcess=descriptor-experiments&process=Descriptor+experiments&implementation=Score+Articles+per+Descriptor',
    );
    expect(byName).toMatchObject({ status: 302, location: `${PATH}${SCORE}` });
    const changed = await get(
      '?shownProcess=descriptor-experiments&process=User+experiments&implementation=score-articles-per-descriptor',
    );
    expect(changed).toMatchObject({ status: 302, location: `${PATH}?process=user-experiments` });
  });

  it('answers a choice that does not exist with a message and a 4xx, never a 500', async () => {
    const cases: [string, number, string][] = [
      ['?process=nope', 400, "There is no process called 'nope'"],
      [
        '?process=user-experiments&implementation=score-articles-per-descriptor',
        400,
        "There is no implementation in this process called 'score-articles-per-descriptor'",
      ],
      [`${SCORE}&page=0`, 400, 'This page number is not valid'],
      [`${SCORE}&page=abc`, 400, 'This page number is not valid'],
      [`${SCORE}&page=101`, 400, 'This page number is not valid'],
      [`${SCORE}&run=01NOSUCHRUN`, 404, 'This run does not exist'],
    ];
    for (const [query, status, message] of cases) {
      const answer = await get(query);
      expect(answer.status, query).toBe(status);
      expect((answer.data as ExperimentsPage).problem, query).toBe(message);
    }
  });

  it('shows runs 10 a page, newest first, with a next page while there are more', async () => {
    const embeddings = '?process=descriptor-experiments&implementation=embeddings-per-descriptor';
    for (let index = 1; index <= 11; index += 1) {
      await Experiments.addRun({
        name: `Vectors ${index}`,
        expImplementationId: 'embeddings-per-descriptor',
        input: { dataset: dataset.id, expGptModelId: 'local:cluefeed-hashed-256', articleLimit: 5 },
        systemUserId: 'admin',
      });
    }
    const first = (await page(embeddings)).runs!;
    expect(first.runs).toHaveLength(10);
    expect(first.runs[0]).toMatchObject({ name: 'Vectors 11', canExecute: true });
    expect(first.more).toBe(true);
    const second = (await page(`${embeddings}&page=2`)).runs!;
    expect(second.runs.map((run) => run.name)).toEqual(['Vectors 1']);
    expect(second.more).toBe(false);
  });

  it('shows the prompt tab only for an implementation that manages prompts', async () => {
    const scoring = await page(`${SCORE}&tab=prompts`);
    expect(scoring.state.tab).toBe('prompts');
    expect(scoring.prompts?.map((row) => row.id)).toContain(prompt);
    const embeddings = await page(
      '?process=descriptor-experiments&implementation=embeddings-per-descriptor&tab=prompts',
    );
    expect(embeddings.implementation?.managesPrompts).toBe(false);
    expect(embeddings.state.tab).toBe('runs');
  });

  it("offers the form's choices: the implementation's datasets, gpt models and prompts", async () => {
    const adding = await page(`${SCORE}&modal=add`);
    expect(adding.form).toMatchObject({ mode: 'add' });
    expect(adding.options?.datasets.map((choice) => choice.id)).toContain(dataset.id);
    expect(adding.options?.models.map((choice) => choice.name)).toContain('local - cluefeed-bm25');
    expect(adding.options?.models.map((choice) => choice.name)).not.toContain(
      'local - cluefeed-hashed-256',
    );
    expect(adding.options?.prompts.map((choice) => choice.id)).toContain(prompt);
  });
});

describe('the run form answers with the spec messages', () => {
  const messagesOf = async (query: string, form: Record<string, string> | [string, string][]) => {
    const answer = await post(query, form);
    expect(answer.status).toBe(400);
    return result(answer).errors;
  };

  it('for a scoring run, each field it asks for, and keeps what was typed', async () => {
    const errors = await messagesOf(SCORE, {
      intent: 'save',
      name: ' ',
      comments: 'kept',
      articleLimit: '0',
      threshold: '1.5',
    });
    expect(errors).toEqual({
      name: 'Please add a name',
      dataset: 'Please select dataset',
      expGptModelId: 'Please select model',
      expPromptId: 'Please select prompt',
      articleLimit: 'Please add article limit',
      threshold: 'Value should be between 0 and 1',
    });
    const typed = result(await post(SCORE, { intent: 'save', comments: 'kept', threshold: '1.5' }));
    expect(typed.form?.values).toMatchObject({ comments: 'kept', settings: { threshold: '1.5' } });
  });

  it('for picks, the number of picks and the relevance selection', async () => {
    const errors = await messagesOf(
      '?process=descriptor-experiments&implementation=pick-best-content-per-descriptor',
      { intent: 'save', name: 'Picks', numOfPicks: '' },
    );
    expect(errors).toMatchObject({
      numOfPicks: 'Please add a number of picks',
      selectionOfRelevance: 'Please select at least one relevance option',
    });
  });

  it('for story preprocessing, the preprocess and concatenation types', async () => {
    const errors = await messagesOf(
      '?process=content-experiments&implementation=story-preprocessing-per-cluster',
      { intent: 'save', name: 'Stories' },
    );
    expect(errors).toMatchObject({
      preprocessType: 'Please select preprocess type',
      concatenationType: 'Please select concatenation type',
    });
  });

  it('for a chain, at least one step, and each step by its own fields', async () => {
    const chain = '?process=descriptor-experiments&implementation=chaining-per-descriptor';
    expect(await messagesOf(chain, { intent: 'save', name: 'Chain', dataset: dataset.id })).toEqual(
      { steps: 'Please add at least one step' },
    );
    const refused = await post(chain, {
      intent: 'save',
      name: 'Chain',
      dataset: dataset.id,
      stepCount: '2',
      expanded: '-1',
      'steps.0.expImplementationId': 'score-articles-per-descriptor',
      'steps.1.expImplementationId': 'chaining-per-descriptor',
    });
    expect(refused.status).toBe(400);
    expect(result(refused).errors).toMatchObject({
      'steps.0.expGptModelId': 'Please select model',
      'steps.1.expImplementationId': 'Chaining implementations cannot be added as steps',
    });
    // The first step with a message opens, so its message shows.
    expect(result(refused).form?.values.expanded).toBe(0);
  });

  it("round-trips the chain's step buttons: add keeps the fields and opens the new step", async () => {
    const chain = '?process=descriptor-experiments&implementation=chaining-per-descriptor';
    const added = result(
      await post(chain, {
        intent: 'add-step:1',
        name: 'Chain',
        stepCount: '1',
        expanded: '0',
        'steps.0.expImplementationId': 'score-articles-per-descriptor',
        'steps.0.expGptModelId': GPT,
      }),
    );
    expect(added.form?.values.steps).toHaveLength(2);
    expect(added.form?.values.steps[0]).toMatchObject({ expGptModelId: GPT });
    expect(added.form?.values.expanded).toBe(1);
    const removed = result(
      await post(chain, { intent: 'remove-step:0', stepCount: '1', expanded: '0' }),
    );
    expect(removed.form?.values).toMatchObject({ steps: [], expanded: -1 });
  });
});

describe('prompts', () => {
  it("answers the prompt form's messages and keeps what was typed; removing asks for an id", async () => {
    const tab = `${SCORE}&tab=prompts&modal=add-prompt`;
    const noName = await post(tab, { intent: 'add-prompt', title: '', prompt: 'Some {title}' });
    expect(noName.status).toBe(400);
    expect(result(noName)).toMatchObject({
      error: 'Please add a name',
      prompt: { title: '', prompt: 'Some {title}' },
    });
    const noText = await post(tab, { intent: 'add-prompt', title: 'Named', prompt: '' });
    expect(result(noText).error).toBe('Please add a prompt');
    const noId = await post(`${SCORE}&tab=prompts`, { intent: 'remove-prompt', id: '' });
    expect(noId.status).toBe(400);
    expect(result(noId).error).toBe('Could not delete prompt - Invalid prompt id');
  });

  it('adds, duplicates and removes a prompt (newest first, a removed one hidden)', async () => {
    const title = `Sharper ${ulid().slice(-6)}`;
    const added = await post(`${SCORE}&tab=prompts&modal=add-prompt`, {
      intent: 'add-prompt',
      title,
      prompt: 'Be strict. {title} for {clues}',
    });
    expect(added).toMatchObject({ status: 302, location: `${PATH}${SCORE}&tab=prompts` });
    const listed = (await page(`${SCORE}&tab=prompts`)).prompts!;
    expect(listed[0]?.title).toBe(title);
    const copied = await post(`${SCORE}&tab=prompts`, {
      intent: 'duplicate-prompt',
      id: listed[0]!.id,
    });
    expect(result(copied).message).toBe(`Prompt ${title} (copy) added`);
    const asked = await page(`${SCORE}&tab=prompts&removePrompt=${listed[0]!.id}`);
    expect(asked.removingPrompt?.title).toBe(title);
    await post(`${SCORE}&tab=prompts`, { intent: 'remove-prompt', id: listed[0]!.id });
    const titles = (await page(`${SCORE}&tab=prompts`)).prompts!.map((row) => row.title);
    expect(titles).not.toContain(title);
    expect(titles).toContain(`${title} (copy)`);
  });
});

describe('a run from the form to production', () => {
  it('adds, opens, edits, executes, compares and promotes', async () => {
    const saved = await post(`${SCORE}&modal=add`, scoreRun('First'));
    expect(saved.status).toBe(302);
    const runId = new URL(saved.location!, origin()).searchParams.get('run')!;
    const opened = await page(`${SCORE}&run=${runId}`);
    expect(opened.preview).toMatchObject({ name: 'First', canExecute: true });
    expect(opened.runs?.runs[0]).toMatchObject({ id: runId, name: 'First' });

    const editing = await page(`${SCORE}&run=${runId}&modal=edit`);
    expect(editing.form).toMatchObject({ mode: 'edit', values: { id: runId, name: 'First' } });
    const edited = await post(`${SCORE}&run=${runId}&modal=edit`, {
      ...scoreRun('First, edited'),
      id: runId,
      revision: String(editing.form!.values.revision),
    });
    expect(edited.status).toBe(302);

    const copy = await post(`${SCORE}&run=${runId}`, { intent: 'duplicate', id: runId });
    const copyId = new URL(copy.location!, origin()).searchParams.get('run')!;
    expect((await page(`${SCORE}&run=${copyId}`)).preview?.name).toBe('First, edited (copy)');

    for (const id of [runId, copyId]) {
      const executed = await post(`${SCORE}&run=${id}`, { intent: 'execute', id });
      expect(result(executed).message).toMatch(/^Run First, edited( \(copy\))? queued$/);
      const queued = await page(`${SCORE}&run=${id}&modal=edit`);
      // Queued: neither executed nor edited again.
      expect(queued.form).toBeUndefined();
      expect(queued.preview).toMatchObject({ status: 'Queued', canExecute: false });
      const again = await post(`${SCORE}&run=${id}`, { intent: 'execute', id });
      expect(again.status).toBe(409);
      const processId = (await Experiments.ExperimentRunEntity.get({ id }).go()).data!.processId!;
      await runToEnd(processId, Worker.jobs);
    }
    const done = await page(`${SCORE}&run=${runId}`);
    expect(done.preview?.status).toBe('Success');
    expect(done.preview?.output?.resultsPerMatchingEntity.length).toBeGreaterThan(0);

    const compared = await call(
      compareLoader,
      new Request(new URL(`${PATH}/compare?runs=${runId}&runs=${copyId}`, origin()), {
        headers: { Cookie: cookie },
      }),
    );
    expect(compared.status).toBe(200);
    const comparison = (compared.data as { comparison: Experiments.Comparison }).comparison;
    expect(comparison.runs.map((run) => run.id)).toEqual([runId, copyId]);
    expect(comparison.agreement).toHaveLength(1);
    const csv = await csvLoader({
      request: new Request(new URL(`${PATH}/compare.csv?runs=${runId}&runs=${copyId}`, origin()), {
        headers: { Cookie: cookie },
      }),
      params: {},
      context: {},
    });
    expect(csv.headers.get('Content-Disposition')).toMatch(/^attachment; filename=/);
    expect(csv.headers.get('Cache-Control')).toBe('private, no-store');
    const oneRun = await call(
      compareLoader,
      new Request(new URL(`${PATH}/compare?runs=${runId}`, origin()), {
        headers: { Cookie: cookie },
      }),
    );
    expect(oneRun.status).toBe(400);
    expect((oneRun.data as { problem: string }).problem).toBe(Experiments.COMPARE_MESSAGES.tooFew);

    expect((await page(`${SCORE}&run=${runId}&promote=1`)).promoting).toBe(true);
    const promoted = await post(`${SCORE}&run=${runId}`, { intent: 'promote', id: runId });
    expect(result(promoted).message).toMatch(
      /^Production scoring now uses "Plain [a-z0-9]+" with local - cluefeed-bm25\./,
    );
    expect((await Scoring.productionSetup()).prompt.id).toBe(prompt);
  });

  it('refuses an unknown action and an unknown run with a message and a 4xx', async () => {
    expect(result(await post(SCORE, { intent: 'launch' }))).toMatchObject({
      error: 'This action is not known',
    });
    const missing = await post(SCORE, { intent: 'execute', id: 'nope' });
    expect(missing.status).toBe(404);
    expect(result(missing).error).toBe('This implementation run no longer exists');
  });
});
