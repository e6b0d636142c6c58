// Chains and their stories, on a table of the file's own: a chain step that
// could read nothing the step before passed on, and a comparison naming the stories a run's own
// clustering made.
import { beforeAll, describe, expect, it } from 'vitest';
import * as Worker from '#core/worker';
import { createArticle, createAudience } from '#tests/integration/factories';
import { runToEnd } from '#tests/integration/job-queue';
import { useOwnTable } from '#tests/integration/own-table';
import { readerWithPassword } from '#tests/integration/readers';
import { seedAi } from '#scripts/seed/ai';
import * as Experiments from './index';

useOwnTable('experiments-review2');

const ADMIN = 'admin-review2';
const GPT = 'local:cluefeed-bm25';
const EMBEDDINGS = 'local:cluefeed-hashed-256';

let pipeline: Experiments.Dataset;
const prompts: Record<string, string> = {};

async function addAndRun(expImplementationId: string, input: Experiments.RunInput, name: string) {
  const added = await Experiments.addRun({ name, expImplementationId, input, systemUserId: ADMIN });
  await Experiments.executeRun({ id: added.id, systemUserId: ADMIN });
  const { data } = await Experiments.ExperimentRunEntity.get({ id: added.id }).go({
    consistent: true,
  });
  await runToEnd(data!.processId!, Worker.jobs);
  return (await Experiments.run(added.id))!;
}

const scoreStep = (id: string) => ({
  expImplementationId: id,
  expGptModelId: GPT,
  expPromptId: prompts[id],
  articleLimit: 20,
});

beforeAll(async () => {
  await seedAi();
  await createAudience({ title: 'build DeFi protocols', tag: 'aud-defi-review2' });
  await readerWithPassword({ clues: ['I audit smart contracts'] });
  // Near-identical articles: freezing (threshold 0.5) makes one story of them.
  for (const [index, word] of ['alpha', 'bravo', 'charlie', 'delta', 'echo'].entries()) {
    await createArticle({
      title: `Lending markets audits smart contracts DeFi protocols ${word}`,
      summary: 'Lending markets audits smart contracts DeFi protocols',
      publishedAt: `2026-11-2${index}T08:00:00.000Z`,
    });
  }
  pipeline = await Experiments.freezeDataset({
    name: 'Everything',
    group: 'pipeline',
    articles: 5,
    systemUserId: ADMIN,
  });
  for (const implementation of Experiments.IMPLEMENTATIONS) {
    if (!implementation.managesPrompts) continue;
    const info = implementation.info.filter((p) => p.required).map((p) => `{${p.name}}`);
    const prompt = await Experiments.addPrompt({
      expImplementationId: implementation.id,
      title: `${implementation.name} review prompt`,
      prompt: `Rate it. ${info.join(' ')}`,
      systemUserId: ADMIN,
    });
    prompts[implementation.id] = prompt.id;
  }
}, 120_000);

describe('a chain step reads what the step before passed on', () => {
  it('refuses a stories step after a step that passed on articles, and an articles step after stories', async () => {
    const form = (steps: Experiments.ChainStep[]): Experiments.RunForm => ({
      name: 'Mixed chain',
      expImplementationId: 'chaining-per-user',
      input: { dataset: pipeline.id, steps },
      systemUserId: ADMIN,
    });
    const articlesThenStories = await Experiments.checkRun(
      form([scoreStep('score-articles-per-user'), scoreStep('score-stories-per-user')]),
    );
    const passedOn = /^This step cannot read what the step before passed on/;
    expect(articlesThenStories['steps.1.expImplementationId']).toMatch(passedOn);
    const storiesThenArticles = await Experiments.checkRun(
      form([scoreStep('score-stories-per-user'), scoreStep('score-articles-per-user')]),
    );
    expect(storiesThenArticles['steps.1.expImplementationId']).toMatch(passedOn);
    // A clustering step in between starts afresh: its stories are what the next step reads.
    const clustered = await Experiments.checkRun(
      form([
        scoreStep('score-articles-per-user'),
        {
          expImplementationId: 'story-clustering-by-embeddings',
          expGptModelId: EMBEDDINGS,
          articleLimit: 20,
        },
        scoreStep('score-stories-per-user'),
      ]),
    );
    expect(clustered).toEqual({});
  }, 60_000);
});

describe('a comparison names the stories a run made', () => {
  it('names each story by its title, not its id, when the run clustered differently from the dataset', async () => {
    const chain = (threshold: number): Experiments.RunInput => ({
      dataset: pipeline.id,
      steps: [
        {
          expImplementationId: 'story-clustering-by-embeddings',
          expGptModelId: EMBEDDINGS,
          articleLimit: 20,
          threshold,
        },
        scoreStep('score-stories-per-user'),
      ],
    });
    const apart = await addAndRun('chaining-stories-per-user', chain(1), 'Each on its own');
    const together = await addAndRun('chaining-stories-per-user', chain(0), 'All together');
    expect(apart.status).toBe('Success');
    expect(together.status).toBe('Success');
    const comparison = await Experiments.compare([apart.id, together.id]);
    expect(comparison.differences.length).toBeGreaterThan(0);
    for (const difference of comparison.differences) {
      expect(difference.item).toMatch(/^Lending markets audits/);
    }
  }, 120_000);
});
