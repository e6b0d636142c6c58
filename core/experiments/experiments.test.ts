// Experiments end to end through the job runtime, on a table of the file's own: every
// implementation on a small frozen dataset with the local provider and with the real openai client
// against the fake server; datasets that do not move when the live data does; runs that never touch
// production; two runs at once; the run form's every message; races on one run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Ai from '#core/ai';
import * as Articles from '#core/articles';
import * as Audiences from '#core/audiences';
import * as Automations from '#core/automations';
import * as Worker from '#core/worker';
import { config } from '#core/config';
import * as Jobs from '#core/jobs';
import * as Scoring from '#core/scoring';
import { startFakeOpenAi, type FakeOpenAi } from '#tests/fakes/openai';
import { receiveOf, runToEnd } from '#tests/integration/job-queue';
import { createArticle, createAudience } from '#tests/integration/factories';
import { useOwnTable } from '#tests/integration/own-table';
import { readerWithPassword } from '#tests/integration/readers';
import { seedAi } from '#scripts/seed/ai';
import * as Experiments from './index';
import { scoringTarget, thaw } from './datasets';
import { ASSIGNED } from './summary';

useOwnTable('experiments');

const ADMIN = 'admin-1';
const GPT = 'local:cluefeed-bm25';
const EMBEDDINGS = 'local:cluefeed-hashed-256';
const STORIES = [
  [
    'Aave adds isolated lending markets for DeFi builders',
    'Aave governance approved isolated lending markets. Builders of DeFi protocols can list riskier collateral in separate pools.',
  ],
  [
    'Aave launches isolated lending markets',
    'The Aave protocol launched isolated lending markets for DeFi builders this week, separating risky collateral.',
  ],
  [
    'Generative art collection sells out on-chain',
    'A generative art collection minted entirely on-chain sold out in minutes as collectors rushed in.',
  ],
  [
    'On-chain generative art drop sells out in minutes',
    'Collectors of generative art bought every piece of an on-chain collection within minutes.',
  ],
  [
    'Auditors find a reentrancy bug in a lending pool',
    'Smart contract auditors found a reentrancy bug in a lending pool before it shipped.',
  ],
  [
    'Rollup sequencers move toward decentralisation',
    'Rollup teams described plans to decentralise their sequencers over the next year.',
  ],
] as const;

let audience: Awaited<ReturnType<typeof createAudience>>;
let datasets: Record<'descriptor' | 'user' | 'content' | 'pipeline', Experiments.Dataset>;
let prompts: Record<string, string>;

async function execute(id: string) {
  const queued = await Experiments.executeRun({ id, systemUserId: ADMIN });
  expect(queued.status).toBe('Queued');
  const processId = (await Experiments.ExperimentRunEntity.get({ id }).go()).data!.processId!;
  await runToEnd(processId, Worker.jobs);
  return (await Experiments.run(id))!;
}

async function addAndRun(
  expImplementationId: string,
  input: Experiments.RunInput,
  name = expImplementationId,
) {
  const added = await Experiments.addRun({ name, expImplementationId, input, systemUserId: ADMIN });
  return execute(added.id);
}

beforeAll(async () => {
  await seedAi();
  audience = await createAudience({ title: 'build DeFi protocols' });
  await createAudience({ title: 'collect generative art on-chain', tag: 'aud-art' });
  await readerWithPassword({ clues: ['I audit smart contracts', 'I run a rollup'] });
  for (const [index, [title, summary]] of STORIES.entries()) {
    await createArticle({ title, summary, publishedAt: `2026-11-2${index}T08:00:00.000Z` });
  }
  // Production scores, so pools exist for the picks.
  const scoring = await Jobs.enqueue(Automations.scoreArticles, {}, ADMIN);
  await runToEnd(scoring.id, Worker.jobs);
  const freeze = (name: string, group: Experiments.DatasetGroup) =>
    Experiments.freezeDataset({ name, group, articles: 50, systemUserId: ADMIN });
  datasets = {
    descriptor: await freeze('Descriptors', 'first_layer_descriptor'),
    user: await freeze('Readers', 'first_layer_user'),
    content: await freeze('Content', 'content_layer'),
    pipeline: await freeze('Everything', 'pipeline'),
  };
  prompts = {};
  for (const implementation of Experiments.IMPLEMENTATIONS.filter((i) => i.managesPrompts)) {
    const info = implementation.info.filter((p) => p.required).map((p) => `{${p.name}}`);
    const prompt = await Experiments.addPrompt({
      expImplementationId: implementation.id,
      title: `${implementation.name} prompt`,
      prompt: `Please do it well. ${info.join(' ')}`,
      systemUserId: ADMIN,
    });
    prompts[implementation.id] = prompt.id;
  }
}, 120_000);

describe('the catalogue', () => {
  it('has the 14 implementations of the spec, and prompt management for the spec six plus descriptor scoring', () => {
    expect(Experiments.IMPLEMENTATIONS.map((i) => i.name)).toEqual([
      'Chaining per Descriptor',
      'Score Articles per Descriptor',
      'Pick Best Content per Descriptor',
      'Embeddings per Descriptor',
      'Chaining per User',
      'Pick Best Content per User',
      'Score Articles per User',
      'Embeddings per User',
      'Score Stories per User',
      'Stories Embeddings per User',
      'Chaining Stories per User',
      'Content Categorization by Scoring',
      'Story Clustering by Embeddings',
      'Story PreProcessing per Cluster',
    ]);
    expect(
      Experiments.IMPLEMENTATIONS.filter((i) => i.managesPrompts)
        .map((i) => i.name)
        .sort(),
    ).toEqual(
      [
        'Content Categorization by Scoring',
        'Pick Best Content per Descriptor',
        'Pick Best Content per User',
        'Score Articles per Descriptor',
        'Score Articles per User',
        'Score Stories per User',
        'Story PreProcessing per Cluster',
      ].sort(),
    );
    const chain = Experiments.implementation('chaining-per-user')!;
    expect(Experiments.stepChoices(chain).some((i) => i.kind === 'chain')).toBe(false);
  });
});

describe('datasets', () => {
  it('freeze what their group needs', async () => {
    expect(datasets.descriptor).toMatchObject({
      articles: 6,
      descriptors: 2,
      users: 0,
      stories: 0,
    });
    expect(datasets.descriptor.scores).toBeGreaterThan(0);
    expect(datasets.user).toMatchObject({ articles: 6, descriptors: 0, users: 1 });
    expect(datasets.content.stories).toBeGreaterThan(0);
    expect(datasets.content.stories).toBeLessThan(6);
    expect(datasets.pipeline).toMatchObject({ descriptors: 2, users: 1 });
    // The first scoring run (beforeAll) froze the starter datasets: one of each group.
    const starters = (await Experiments.datasets()).filter((d) =>
      Experiments.STARTER_DATASETS.some((s) => s.name === d.name),
    );
    expect(starters.map((d) => d.group).sort()).toEqual([...Experiments.DATASET_GROUPS].sort());
    expect(starters.find((d) => d.group === 'first_layer_descriptor')!.scores).toBeGreaterThan(0);
  });

  it("never change when the live data does, and a run's output names what was frozen", async () => {
    const before = await addAndRun('score-articles-per-descriptor', {
      dataset: datasets.descriptor.id,
      expGptModelId: GPT,
      expPromptId: prompts['score-articles-per-descriptor'],
      articleLimit: 6,
    });
    await Audiences.AudienceEntity.patch({ id: audience.id })
      .set({ title: 'run validator nodes' })
      .go();
    const article = (await Articles.latest(1))[0]!;
    await Articles.ArticleEntity.patch({ id: article.id })
      .set({ title: 'Something else entirely' })
      .go();
    await createArticle({
      title: 'A newer article after the freeze',
      publishedAt: '2026-11-29T08:00:00.000Z',
    });

    const frozen = await thaw(datasets.descriptor.id);
    expect(frozen.articles).toHaveLength(6);
    expect(frozen.articles.map((a) => a.title)).not.toContain('Something else entirely');
    expect(frozen.targets.map((t) => t.name)).toContain('build DeFi protocols');

    const after = await addAndRun('score-articles-per-descriptor', {
      dataset: datasets.descriptor.id,
      expGptModelId: GPT,
      expPromptId: prompts['score-articles-per-descriptor'],
      articleLimit: 6,
    });
    expect(after.output!.resultsPerMatchingEntity).toEqual(before.output!.resultsPerMatchingEntity);
    expect(after.output!.resultsPerMatchingEntity.map((r) => r.matchingEntity)).toContain(
      'build DeFi protocols',
    );
  });
});

const score = (dataset: string, implementation = 'score-articles-per-descriptor') => ({
  dataset,
  expGptModelId: GPT,
  expPromptId: prompts[implementation],
  articleLimit: 6,
});
const pick = (dataset: string, implementation: string) => ({
  dataset,
  expGptModelId: GPT,
  expPromptId: prompts[implementation],
  numOfPicks: 2,
  articleLimit: 10,
  selectionOfRelevance: [...Experiments.RELEVANCE_OPTIONS],
});
const embed = (dataset: string) => ({
  dataset,
  expGptModelId: EMBEDDINGS,
  articleLimit: 6,
  threshold: 0.2,
});

describe('every implementation runs for real with the local provider', () => {
  const totalOf = (run: Experiments.RunView) =>
    run.output!.resultsPerMatchingEntity.reduce(
      (sum, r) => sum + r.groupByMetricPerMatchingEntity.Total!,
      0,
    );
  const common = (run: Experiments.RunView) => {
    expect(run.status).toBe('Success');
    expect(run.output!.model.id).toBeTruthy();
    expect(run.output!.durationMs).toBeGreaterThanOrEqual(0);
    expect(run.output!.usage.costUsd).toBe(0);
  };

  it('Score Articles per Descriptor: label counts per audience with a Total, the exact prompt and model', async () => {
    const run = await addAndRun('score-articles-per-descriptor', score(datasets.descriptor.id));
    common(run);
    expect(run.output!.resultsPerMatchingEntity).toHaveLength(2);
    expect(totalOf(run)).toBe(12);
    expect(run.output!.prompt!.prompt).toContain('Please do it well.');
    expect(run.output!.model.name).toBe('local - cluefeed-bm25');
    expect(run.output!.usage.calls).toBeGreaterThan(0);
  });

  it('Score Articles per User and Score Stories per User', async () => {
    const articles = await addAndRun(
      'score-articles-per-user',
      score(datasets.user.id, 'score-articles-per-user'),
    );
    common(articles);
    expect(totalOf(articles)).toBe(6);
    expect(articles.output!.resultsPerMatchingEntity[0]!.matchingEntity).toBe(
      'I audit smart contracts; I run a rollup',
    );
    const stories = await addAndRun(
      'score-stories-per-user',
      score(datasets.pipeline.id, 'score-stories-per-user'),
    );
    common(stories);
    expect(totalOf(stories)).toBe(datasets.pipeline.stories);
  });

  it('Pick Best Content per Descriptor and per User: picks from the frozen pools', async () => {
    const run = await addAndRun(
      'pick-best-content-per-descriptor',
      pick(datasets.descriptor.id, 'pick-best-content-per-descriptor'),
    );
    common(run);
    expect(run.output!.picks!.length).toBe(2);
    for (const card of run.output!.picks!) {
      expect(card.picks.length).toBeGreaterThan(0);
      expect(card.picks.length).toBeLessThanOrEqual(2);
    }
    const byUser = await addAndRun(
      'pick-best-content-per-user',
      pick(datasets.user.id, 'pick-best-content-per-user'),
    );
    common(byUser);
    expect(byUser.output!.picks![0]!.matchingEntity).toBe(
      'I audit smart contracts; I run a rollup',
    );
  });

  it('Embeddings per Descriptor, per User and Stories Embeddings per User: a vectors summary', async () => {
    for (const [implementation, dataset] of [
      ['embeddings-per-descriptor', datasets.descriptor.id],
      ['embeddings-per-user', datasets.user.id],
      ['stories-embeddings-per-user', datasets.pipeline.id],
    ] as const) {
      const run = await addAndRun(implementation, embed(dataset));
      common(run);
      expect(run.output!.vectors!.dimensions).toBe(256);
      expect(run.output!.vectors!.meanSimilarity).toBeGreaterThan(0);
      expect(totalOf(run)).toBeGreaterThan(0);
    }
  });

  it('Content Categorization by Scoring: categories assigned by the threshold', async () => {
    const run = await addAndRun('content-categorization-by-scoring', {
      ...score(datasets.descriptor.id, 'content-categorization-by-scoring'),
      threshold: 0.3,
    });
    common(run);
    expect(totalOf(run)).toBe(12);
    const assigned = run.output!.resultsPerMatchingEntity.reduce(
      (sum, r) => sum + (r.groupByMetricPerMatchingEntity[ASSIGNED] ?? 0),
      0,
    );
    expect(assigned).toBeGreaterThan(0);
  });

  it('Story Clustering by Embeddings: the two articles of each event are one story', async () => {
    const run = await addAndRun('story-clustering-by-embeddings', {
      dataset: datasets.content.id,
      expGptModelId: EMBEDDINGS,
      articleLimit: 6,
      threshold: 0.4,
    });
    common(run);
    const clusters = run.output!.clusters!;
    expect(clusters.length).toBeLessThan(6);
    const aave = clusters.find((c) => c.articles.some((t) => t.startsWith('Aave launches')))!;
    expect(aave.articles.some((t) => t.startsWith('Aave adds'))).toBe(true);
  });

  it('Story PreProcessing per Cluster: a text per story, for each preprocess and concatenation type', async () => {
    for (const preprocessType of Experiments.PREPROCESS_TYPES) {
      for (const concatenationType of Experiments.CONCATENATION_TYPES) {
        const run = await addAndRun('story-preprocessing-per-cluster', {
          dataset: datasets.content.id,
          expGptModelId: GPT,
          expPromptId: prompts['story-preprocessing-per-cluster'],
          articleLimit: 2,
          preprocessType,
          concatenationType,
        });
        common(run);
        expect(run.output!.texts).toHaveLength(2);
        expect(run.output!.texts![0]!.text.length).toBeGreaterThan(0);
      }
    }
  }, 120_000);

  it('chains: each step reads the one before (scores, then picks among those above the threshold)', async () => {
    const run = await addAndRun('chaining-per-descriptor', {
      dataset: datasets.descriptor.id,
      steps: [
        {
          expImplementationId: 'score-articles-per-descriptor',
          ...score(datasets.descriptor.id),
          threshold: 0.1,
        },
        {
          expImplementationId: 'pick-best-content-per-descriptor',
          ...pick(datasets.descriptor.id, 'pick-best-content-per-descriptor'),
        },
      ].map(({ dataset: _dataset, ...step }) => step),
    });
    common(run);
    expect(run.output!.steps).toHaveLength(2);
    expect(run.output!.steps![0]!.kind).toBe('score');
    expect(run.output!.kind).toBe('pick');
    expect(run.output!.picks!.length).toBe(2);

    const stories = await addAndRun('chaining-stories-per-user', {
      dataset: datasets.pipeline.id,
      steps: [
        {
          expImplementationId: 'story-clustering-by-embeddings',
          expGptModelId: EMBEDDINGS,
          articleLimit: 6,
          threshold: 0.4,
        },
        {
          expImplementationId: 'story-preprocessing-per-cluster',
          expGptModelId: GPT,
          expPromptId: prompts['story-preprocessing-per-cluster'],
          articleLimit: 10,
          preprocessType: 'TitleSummary',
          concatenationType: 'ArticleWithEnumeration',
        },
        {
          expImplementationId: 'score-stories-per-user',
          expGptModelId: GPT,
          expPromptId: prompts['score-stories-per-user'],
          articleLimit: 10,
        },
      ] as Experiments.ChainStep[],
    });
    common(stories);
    expect(stories.output!.steps!.map((s) => s.kind)).toEqual(['cluster', 'preprocess', 'score']);
    expect(totalOf(stories)).toBe(stories.output!.steps![1]!.items);

    const users = await addAndRun('chaining-per-user', {
      dataset: datasets.user.id,
      steps: [
        {
          expImplementationId: 'embeddings-per-user',
          expGptModelId: EMBEDDINGS,
          articleLimit: 6,
          threshold: 0.05,
        },
        {
          expImplementationId: 'score-articles-per-user',
          expGptModelId: GPT,
          expPromptId: prompts['score-articles-per-user'],
          articleLimit: 6,
        },
      ],
    });
    common(users);
    const passed =
      users.output!.steps![0]!.resultsPerMatchingEntity[0]!.groupByMetricPerMatchingEntity[
        'Above threshold'
      ] ?? 0;
    expect(totalOf(users)).toBe(passed);
  }, 120_000);
});

describe('isolation, concurrency and the run form', () => {
  it('a run changes nothing production reads: scores, counts, ranked lists', async () => {
    const keys = await Scoring.productionKeys();
    const targets = (await thaw(datasets.pipeline.id)).targets.map(scoringTarget);
    const production = async () =>
      Promise.all(
        targets.map(async (target) => ({
          counts: await Scoring.labelCounts(target, keys),
          ranked: (await Scoring.ranked(target, keys, { limit: 100 })).scores.map((s) => [
            s.articleId,
            s.label,
            s.score,
          ]),
        })),
      );
    const before = await production();
    await addAndRun('score-articles-per-descriptor', score(datasets.pipeline.id));
    await addAndRun(
      'pick-best-content-per-user',
      pick(datasets.pipeline.id, 'pick-best-content-per-user'),
    );
    expect(await production()).toEqual(before);
  });

  it('two runs at once both end Success, each with its own output', async () => {
    const [a, b] = await Promise.all(
      ['A', 'B'].map((name) =>
        Experiments.addRun({
          name,
          expImplementationId: 'score-articles-per-descriptor',
          input: score(datasets.descriptor.id),
          systemUserId: ADMIN,
        }),
      ),
    );
    // Both queued, then the worker takes both runs' messages and runs them side by side.
    await Promise.all(
      [a!, b!].map((run) => Experiments.executeRun({ id: run.id, systemUserId: ADMIN })),
    );
    const processIds = await Promise.all(
      [a!, b!].map(
        async (run) =>
          (await Experiments.ExperimentRunEntity.get({ id: run.id }).go()).data!.processId!,
      ),
    );
    const messages = await receiveOf(processIds);
    await Promise.all(messages.map((message) => Jobs.handleBatch([message], Worker.jobs)));
    const chunks = await receiveOf(processIds);
    expect(chunks.length).toBeGreaterThan(1);
    await Promise.all(chunks.map((message) => Jobs.handleBatch([message], Worker.jobs)));
    const doneA = (await Experiments.run(a!.id))!;
    const doneB = (await Experiments.run(b!.id))!;
    expect(doneA.status).toBe('Success');
    expect(doneB.status).toBe('Success');
    const byEntity = (run: Experiments.RunView) =>
      [...run.output!.resultsPerMatchingEntity].sort((x, y) =>
        x.matchingEntity.localeCompare(y.matchingEntity),
      );
    expect(byEntity(doneA)).toEqual(byEntity(doneB));
    expect(doneA.output!.usage.calls).toBeGreaterThan(0);
    expect(doneB.output!.usage.calls).toBe(doneA.output!.usage.calls);
  });

  it('of two executions of one run at the same moment, one is queued and the other refused', async () => {
    const run = await Experiments.addRun({
      name: 'Raced',
      expImplementationId: 'score-articles-per-descriptor',
      input: score(datasets.descriptor.id),
      systemUserId: ADMIN,
    });
    const outcomes = await Promise.allSettled([
      Experiments.executeRun({ id: run.id, systemUserId: ADMIN }),
      Experiments.executeRun({ id: run.id, systemUserId: ADMIN }),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(outcomes.find((o) => o.status === 'rejected')).toMatchObject({
      reason: { status: 409 },
    });
    const stored = (await Experiments.ExperimentRunEntity.get({ id: run.id }).go()).data!;
    await runToEnd(stored.processId!, Worker.jobs);
    expect((await Experiments.run(run.id))!.status).toBe('Success');
  });

  it('an edit and an execution at the same moment: one lands, the other is told the run changed', async () => {
    const run = await Experiments.addRun({
      name: 'Edited',
      expImplementationId: 'score-articles-per-descriptor',
      input: score(datasets.descriptor.id),
      systemUserId: ADMIN,
    });
    const outcomes = await Promise.allSettled([
      Experiments.executeRun({ id: run.id, systemUserId: ADMIN }),
      Experiments.updateRun({
        id: run.id,
        revision: run.revision,
        name: 'Edited again',
        expImplementationId: 'score-articles-per-descriptor',
        input: score(datasets.descriptor.id),
        systemUserId: ADMIN,
      }),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(outcomes.find((o) => o.status === 'rejected')).toMatchObject({
      reason: { status: 409 },
    });
    const stored = (await Experiments.ExperimentRunEntity.get({ id: run.id }).go()).data!;
    if (stored.processId) await runToEnd(stored.processId, Worker.jobs);
    const after = (await Experiments.run(run.id))!;
    if (outcomes[0]!.status === 'fulfilled') expect(after.status).toBe('Success');
    else expect(after).toMatchObject({ name: 'Edited again', canExecute: true });
  });

  it('a run that is Queued, Running or Success cannot be edited or executed; a Failed one can, and runs again', async () => {
    const openAi = await Ai.byId('openai:gpt-4o-mini');
    expect(openAi).toBeDefined();
    const run = await Experiments.addRun({
      name: 'Without a key',
      expImplementationId: 'score-articles-per-descriptor',
      input: { ...score(datasets.descriptor.id), expGptModelId: openAi!.id },
      systemUserId: ADMIN,
    });
    const failed = await execute(run.id);
    expect(failed).toMatchObject({ status: 'Failed', canExecute: true });
    expect(failed.error).toContain('OPENAI_API_KEY');
    const edited = await Experiments.updateRun({
      id: run.id,
      revision: failed.revision,
      name: 'With the local model',
      expImplementationId: 'score-articles-per-descriptor',
      input: score(datasets.descriptor.id),
      systemUserId: ADMIN,
    });
    const done = await execute(edited.id);
    expect(done).toMatchObject({
      status: 'Success',
      name: 'With the local model',
      canExecute: false,
    });
    await expect(Experiments.executeRun({ id: run.id, systemUserId: ADMIN })).rejects.toMatchObject(
      {
        status: 409,
        message: Experiments.RUN_REFUSALS.busy,
      },
    );
    await expect(
      Experiments.updateRun({
        ...edited,
        name: 'Again',
        systemUserId: ADMIN,
        revision: done.revision,
      }),
    ).rejects.toMatchObject({ status: 409, message: Experiments.RUN_REFUSALS.busy });
  });

  it('every message of the run form, keyed by its field', async () => {
    const base = { expImplementationId: 'pick-best-content-per-descriptor', systemUserId: ADMIN };
    expect(await Experiments.checkRun({ ...base, name: ' ', input: { dataset: '' } })).toEqual({
      name: 'Please add a name',
      dataset: 'Please select dataset',
      expGptModelId: 'Please select model',
      expPromptId: 'Please select prompt',
      numOfPicks: 'Please add a number of picks',
      articleLimit: 'Please add article limit',
      selectionOfRelevance: 'Please select at least one relevance option',
    });
    expect(
      await Experiments.checkRun({
        ...base,
        name: 'Bad threshold',
        input: {
          ...pick(datasets.descriptor.id, 'pick-best-content-per-descriptor'),
          threshold: 1.5,
          numOfPicks: 0,
        },
      }),
    ).toEqual({
      threshold: 'Value should be between 0 and 1',
      numOfPicks: 'Please add a number of picks',
    });
    expect(
      await Experiments.checkRun({
        name: 'Story',
        expImplementationId: 'story-preprocessing-per-cluster',
        input: {
          dataset: datasets.content.id,
          expGptModelId: GPT,
          expPromptId: prompts['story-preprocessing-per-cluster'],
          articleLimit: 1,
        },
        systemUserId: ADMIN,
      }),
    ).toEqual({
      preprocessType: 'Please select preprocess type',
      concatenationType: 'Please select concatenation type',
    });
    // A dataset of another group is not this implementation's.
    expect(
      await Experiments.checkRun({
        ...base,
        name: 'x',
        input: { ...pick(datasets.content.id, 'pick-best-content-per-descriptor') },
      }),
    ).toEqual({ dataset: 'Please select dataset' });
    // An embeddings model is not a gpt model, and content categorization asks no relevance selection.
    expect(
      await Experiments.checkRun({
        name: 'Categories',
        expImplementationId: 'content-categorization-by-scoring',
        input: {
          ...score(datasets.descriptor.id, 'content-categorization-by-scoring'),
          expGptModelId: EMBEDDINGS,
        },
        systemUserId: ADMIN,
      }),
    ).toEqual({ expGptModelId: 'Please select model' });
    const chain = {
      name: 'Chain',
      expImplementationId: 'chaining-per-descriptor',
      systemUserId: ADMIN,
    };
    expect(
      await Experiments.checkRun({
        ...chain,
        input: { dataset: datasets.descriptor.id, steps: [] },
      }),
    ).toEqual({
      steps: 'Please add at least one step',
    });
    expect(
      await Experiments.checkRun({
        ...chain,
        input: {
          dataset: datasets.descriptor.id,
          steps: [
            { expImplementationId: 'chaining-per-user' },
            { expImplementationId: 'embeddings-per-descriptor', articleLimit: 0 },
          ],
        },
      }),
    ).toEqual({
      'steps.0.expImplementationId': 'Chaining implementations cannot be added as steps',
      'steps.1.expGptModelId': 'Please select model',
      'steps.1.articleLimit': 'Please add article limit',
    });
    // A step reads its own group's datasets, or stories a clustering step before it made.
    expect(
      await Experiments.checkRun({
        ...chain,
        input: {
          dataset: datasets.descriptor.id,
          steps: [
            {
              expImplementationId: 'story-preprocessing-per-cluster',
              expGptModelId: GPT,
              expPromptId: prompts['story-preprocessing-per-cluster'],
              articleLimit: 2,
              preprocessType: 'Summary',
              concatenationType: 'ArticleWithEnumeration',
            },
          ],
        },
      }),
    ).toEqual({ 'steps.0.expImplementationId': Experiments.RUN_REFUSALS.stepDataset });
    await expect(
      Experiments.addRun({ ...base, name: '', input: { dataset: '' } }),
    ).rejects.toMatchObject({
      status: 400,
      message: 'Please add a name',
    });
  });

  it('each implementation that takes a prompt starts with a default one (the seed)', async () => {
    for (const implementation of Experiments.IMPLEMENTATIONS.filter((i) =>
      i.fields.includes('prompt'),
    )) {
      const own = await Experiments.prompts(implementation.id);
      expect(
        own.map((prompt) => prompt.id),
        implementation.name,
      ).toContain(`default-${Experiments.promptsOf(implementation)}`);
    }
  });

  it('prompts: placeholders checked, newest first, duplicated, removed', async () => {
    await expect(
      Experiments.addPrompt({
        expImplementationId: 'story-preprocessing-per-cluster',
        title: 'x',
        prompt: 'No placeholder',
        systemUserId: ADMIN,
      }),
    ).rejects.toMatchObject({ status: 400, message: expect.stringContaining('{articles}') });
    await expect(
      Experiments.addPrompt({
        expImplementationId: 'embeddings-per-user',
        title: 'x',
        prompt: 'y',
        systemUserId: ADMIN,
      }),
    ).rejects.toMatchObject({ status: 400 });
    const copy = await Experiments.duplicatePrompt({
      id: prompts['pick-best-content-per-user']!,
      systemUserId: ADMIN,
    });
    expect(copy.title).toBe('Pick Best Content per User prompt (copy)');
    expect((await Experiments.prompts('pick-best-content-per-user'))[0]!.id).toBe(copy.id);
    await Experiments.removePrompt({ id: copy.id });
    expect(
      (await Experiments.prompts('pick-best-content-per-user')).map((p) => p.id),
    ).not.toContain(copy.id);
    await expect(Experiments.removePrompt({ id: '' })).rejects.toMatchObject({
      message: 'Could not delete prompt - Invalid prompt id',
    });
  });
});

describe('comparing runs and promoting one', () => {
  let fake: FakeOpenAi;
  let fakeGpt: Ai.AiModel;
  let fakeEmbeddings: Ai.AiModel;
  /** The fake model's rating: everything Very Relevant, or everything Not Relevant. */
  let generous = true;

  const idsIn = (body: Record<string, unknown>) => [
    ...new Set(
      [...JSON.stringify(body.messages).matchAll(/\[([0-9A-Z]{26})\]/g)].map((m) => m[1]!),
    ),
  ];
  const rating = () => ({
    label: generous ? 'Very Relevant' : 'Not Relevant',
    score: generous ? 0.9 : 0.1,
    reason: generous ? 'Very relevant because you build this.' : 'It is about something else.',
    relevantClues: [],
  });

  beforeAll(async () => {
    fake = await startFakeOpenAi(config().OPENAI_COMPATIBLE_API_KEY ?? 'not-needed');
    fake.answer = (body) => {
      const name = (body.response_format as { json_schema: { name: string } }).json_schema.name;
      const ids = idsIn(body);
      if (name === 'pick_best_content') {
        return {
          primaryId: ids[0],
          secondaryIds: ids.slice(1, 3),
          primaryStoriesHeader: 'The lead',
          secondaryStoriesHeader: 'Also',
          verbalDescriptor: 'Why it matters.',
        };
      }
      if (name === 'story_from_articles') return { title: 'One story', text: 'What happened.' };
      if (name.includes('batch'))
        return { results: ids.map((audienceId) => ({ audienceId, ...rating() })) };
      return rating();
    };
    fakeGpt = await Ai.create({
      provider: 'openai-compatible',
      model: 'fake-gpt',
      modelType: 'gpt',
      baseUrl: fake.url,
    });
    fakeEmbeddings = await Ai.create({
      provider: 'openai-compatible',
      model: 'fake-embeddings',
      modelType: 'embeddings',
      baseUrl: fake.url,
    });
  });
  afterAll(() => fake.stop());

  it('every kind runs with the real openai client against the fake server: the prompt sent, tokens counted, cost unknown', async () => {
    const sent = fake.requests.length;
    const scored = await addAndRun('score-articles-per-descriptor', {
      ...score(datasets.descriptor.id),
      expGptModelId: fakeGpt.id,
    });
    expect(scored.status).toBe('Success');
    expect(scored.output!.usage).toMatchObject({ costUsd: null });
    expect(scored.output!.usage.inputTokens).toBeGreaterThan(0);
    expect(
      scored.output!.resultsPerMatchingEntity.every(
        (r) => r.groupByMetricPerMatchingEntity['Very Relevant'] === 6,
      ),
    ).toBe(true);
    expect(JSON.stringify(fake.requests.slice(sent).map((r) => r.body))).toContain(
      'Please do it well.',
    );

    const picked = await addAndRun('pick-best-content-per-user', {
      ...pick(datasets.user.id, 'pick-best-content-per-user'),
      expGptModelId: fakeGpt.id,
    });
    expect(picked.output!.picks![0]!.picks).toHaveLength(2);
    const embedded = await addAndRun('embeddings-per-user', {
      ...embed(datasets.user.id),
      expGptModelId: fakeEmbeddings.id,
    });
    expect(embedded.output!.vectors!.dimensions).toBe(8);
    const clustered = await addAndRun('story-clustering-by-embeddings', {
      dataset: datasets.content.id,
      expGptModelId: fakeEmbeddings.id,
      articleLimit: 6,
      threshold: 0.99,
    });
    expect(clustered.output!.clusters!.length).toBeGreaterThan(0);
    const written = await addAndRun('story-preprocessing-per-cluster', {
      dataset: datasets.content.id,
      expGptModelId: fakeGpt.id,
      expPromptId: prompts['story-preprocessing-per-cluster'],
      articleLimit: 1,
      preprocessType: 'TitleTopics',
      concatenationType: 'ArticleWithoutEnumeration',
    });
    expect(written.output!.texts).toEqual([
      expect.objectContaining({ title: 'One story', text: 'What happened.' }),
    ]);
    const categorized = await addAndRun('content-categorization-by-scoring', {
      ...score(datasets.descriptor.id, 'content-categorization-by-scoring'),
      expGptModelId: fakeGpt.id,
    });
    expect(
      categorized.output!.resultsPerMatchingEntity[0]!.groupByMetricPerMatchingEntity[ASSIGNED],
    ).toBe(6);
  });

  it('pairs the model could not score are counted, not labelled', async () => {
    // The first article's call is refused (a 400 is that pair's failure, not the run's).
    fake.script({ status: 400, message: 'This article is too long' });
    const run = await addAndRun('score-articles-per-descriptor', {
      ...score(datasets.descriptor.id),
      expGptModelId: fakeGpt.id,
    });
    expect(run.status).toBe('Success');
    expect(run.output!.failed).toBe(2);
    const total = run.output!.resultsPerMatchingEntity.reduce(
      (sum, r) => sum + r.groupByMetricPerMatchingEntity.Total!,
      0,
    );
    expect(total).toBe(10);
  });

  it('a rerun calls the model again', async () => {
    const run = await addAndRun('score-articles-per-descriptor', {
      ...score(datasets.descriptor.id),
      expGptModelId: fakeGpt.id,
    });
    const before = fake.requests.length;
    // A Success run cannot be executed again; its duplicate can, and asks the model afresh.
    const copy = await Experiments.duplicateRun({ id: run.id, systemUserId: ADMIN });
    expect(copy).toMatchObject({ name: `${run.name} (copy)`, canExecute: true });
    expect((await execute(copy.id)).status).toBe('Success');
    expect(fake.requests.length).toBeGreaterThan(before);
  });

  it('compares distributions, agreement (share, kappa), differences, usage; and as CSV', async () => {
    generous = true;
    const a = await addAndRun(
      'score-articles-per-descriptor',
      { ...score(datasets.descriptor.id), expGptModelId: fakeGpt.id },
      'Generous',
    );
    generous = false;
    const b = await addAndRun(
      'score-articles-per-descriptor',
      { ...score(datasets.descriptor.id), expGptModelId: fakeGpt.id },
      'Strict',
    );
    const local = await addAndRun(
      'score-articles-per-descriptor',
      score(datasets.descriptor.id),
      'Local',
    );
    generous = true;
    const comparison = await Experiments.compare([a.id, b.id, local.id]);
    expect(comparison.labels[0]).toBe('Not Relevant');
    expect(comparison.labels).toContain('Very Relevant');
    expect(comparison.distributions).toHaveLength(2);
    expect(comparison.distributions[0]!.perRun[a.id]!['Very Relevant']).toBe(6);
    expect(comparison.distributions[0]!.perRun[b.id]!['Not Relevant']).toBe(6);
    const ab = comparison.agreement.find((pair) => pair.a === a.id && pair.b === b.id)!;
    expect(ab).toMatchObject({ shared: 12, identical: 0, share: 0 });
    // Each rater gives one label to everything: chance agreement is all there is.
    expect(ab.kappa).toBe(0);
    const withLocal = comparison.agreement.find((pair) => pair.a === a.id && pair.b === local.id)!;
    expect(withLocal.shared).toBe(12);
    expect(withLocal.kappa).not.toBeNull();
    expect(comparison.differencesTotal).toBe(12);
    expect(comparison.differences[0]!.perRun[a.id]).toBe('Very Relevant');
    // Named by the dataset's titles and names, never by ids.
    expect(STORIES.map(([title]) => title as string)).toContain(comparison.differences[0]!.item);
    expect(['build DeFi protocols', 'collect generative art on-chain']).toContain(
      comparison.differences[0]!.matchingEntity,
    );
    expect(comparison.runs.map((run) => run.name)).toEqual(['Generous', 'Strict', 'Local']);

    const csv = Experiments.comparisonCsv(comparison);
    expect(csv.split('\r\n')[0]).toBe('"section","run","matching entity","item","label","value"');
    expect(csv).toContain('"agreement","Generous / Strict","","","Cohen\'s kappa","0"');
    expect(csv).toContain('"run","Generous","","","cost (USD)","cost unknown"');

    await expect(Experiments.compare([a.id])).rejects.toMatchObject({
      status: 400,
      message: Experiments.COMPARE_MESSAGES.tooFew,
    });
    const picks = await addAndRun(
      'pick-best-content-per-user',
      pick(datasets.user.id, 'pick-best-content-per-user'),
    );
    await expect(Experiments.compare([a.id, picks.id])).rejects.toMatchObject({
      message: Experiments.COMPARE_MESSAGES.mixed,
    });
    const unexecuted = await Experiments.addRun({
      name: 'Not run',
      expImplementationId: 'score-articles-per-descriptor',
      input: score(datasets.descriptor.id),
      systemUserId: ADMIN,
    });
    await expect(Experiments.compare([a.id, unexecuted.id])).rejects.toMatchObject({
      status: 409,
      message: Experiments.COMPARE_MESSAGES.notDone,
    });
  });

  it("Cohen's kappa by the book", () => {
    expect(
      Experiments.cohensKappa([
        ['a', 'a'],
        ['b', 'b'],
        ['a', 'b'],
        ['b', 'a'],
      ]),
    ).toBe(0);
    expect(
      Experiments.cohensKappa([
        ['a', 'a'],
        ['b', 'b'],
      ]),
    ).toBe(1);
    expect(
      Experiments.cohensKappa([
        ['a', 'a'],
        ['a', 'a'],
      ]),
    ).toBeNull();
    expect(Experiments.cohensKappa([])).toBeNull();
    // 20 items: 15 agree; chance 0.5: kappa 0.5.
    const pairs: [string, string][] = [
      ...Array<[string, string]>(8).fill(['y', 'y']),
      ...Array<[string, string]>(7).fill(['n', 'n']),
      ...Array<[string, string]>(2).fill(['y', 'n']),
      ...Array<[string, string]>(3).fill(['n', 'y']),
    ];
    expect(Experiments.cohensKappa(pairs)).toBeCloseTo((0.75 - 0.5) / 0.5, 10);
  });

  it("promoting a scoring run's prompt and model changes production's setup and nothing else", async () => {
    const run = await addAndRun(
      'score-articles-per-descriptor',
      score(datasets.descriptor.id),
      'To promote',
    );
    const keys = await Scoring.productionKeys();
    const targets = (await thaw(datasets.pipeline.id)).targets.map(scoringTarget);
    const countsBefore = await Promise.all(
      targets.map((target) => Scoring.labelCounts(target, keys)),
    );
    const { setup } = await Experiments.promoteRun({ id: run.id, systemUserId: ADMIN });
    expect(setup.prompt.id).toBe(prompts['score-articles-per-descriptor']);
    expect(setup.model.id).toBe(GPT);
    const now = await Scoring.productionSetup();
    expect(now).toMatchObject({
      prompt: { id: prompts['score-articles-per-descriptor'] },
      model: { id: GPT },
    });
    // The old setup's scores are still there, untouched.
    expect(await Promise.all(targets.map((target) => Scoring.labelCounts(target, keys)))).toEqual(
      countsBefore,
    );
    const picks = await addAndRun(
      'pick-best-content-per-user',
      pick(datasets.user.id, 'pick-best-content-per-user'),
    );
    await expect(
      Experiments.promoteRun({ id: picks.id, systemUserId: ADMIN }),
    ).rejects.toMatchObject({
      status: 400,
      message: Experiments.PROMOTE_MESSAGES.notScoring,
    });
  });
});
