// Experiments at their edges, on a table of the file's own: an edit or a second execution that
// comes while an execution is being queued, readers with the same clues in a comparison, and a
// chain at the dataset's limits.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import * as Worker from '#core/worker';
import { createArticle, createAudience } from '#tests/integration/factories';
import { runToEnd } from '#tests/integration/job-queue';
import { useOwnTable } from '#tests/integration/own-table';
import { readerWithPassword } from '#tests/integration/readers';
import { seedAi } from '#scripts/seed/ai';
import * as Experiments from './index';
import { SUPERSEDED } from './job';

/**
 * Each runs just before one Jobs.enqueue queues its job, in order: the moment between a run naming
 * its execution and the execution being queued.
 */
const hooks = vi.hoisted(() => ({ beforeEnqueue: [] as (() => Promise<void>)[] }));
vi.mock('#core/jobs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('#core/jobs')>();
  return {
    ...actual,
    enqueue: async (...args: Parameters<typeof actual.enqueue>) => {
      await hooks.beforeEnqueue.shift()?.();
      return actual.enqueue(...args);
    },
  };
});

useOwnTable('experiments-review');

const ADMIN = 'admin-review';
const GPT = 'local:cluefeed-bm25';
const EMBEDDINGS = 'local:cluefeed-hashed-256';
const SCORE = 'score-articles-per-descriptor';

let descriptors: Experiments.Dataset;
let readers: Experiments.Dataset;
let promptA: string;
let promptB: string;
let readerPrompt: string;

const scoreInput = (expPromptId: string): Experiments.RunInput => ({
  dataset: descriptors.id,
  expGptModelId: GPT,
  expPromptId,
  articleLimit: 6,
});

async function runOf(id: string) {
  return (await Experiments.ExperimentRunEntity.get({ id }).go({ consistent: true })).data!;
}

async function addAndRun(expImplementationId: string, input: Experiments.RunInput, name: string) {
  const added = await Experiments.addRun({ name, expImplementationId, input, systemUserId: ADMIN });
  await Experiments.executeRun({ id: added.id, systemUserId: ADMIN });
  await runToEnd((await runOf(added.id)).processId!, Worker.jobs);
  return (await Experiments.run(added.id))!;
}

beforeAll(async () => {
  await seedAi();
  await createAudience({ title: 'build DeFi protocols', tag: 'aud-defi-review' });
  await createAudience({ title: 'collect generative art on-chain', tag: 'aud-art-review' });
  // Two readers who chose the same clues (onboarding suggests them, so it is common).
  await readerWithPassword({ clues: ['I audit smart contracts'] });
  await readerWithPassword({ clues: ['I audit smart contracts'] });
  for (let index = 0; index < 6; index++) {
    await createArticle({
      title: `Lending markets and audits, part ${index + 1}`,
      publishedAt: `2026-11-2${index}T08:00:00.000Z`,
    });
  }
  descriptors = await Experiments.freezeDataset({
    name: 'Descriptors',
    group: 'first_layer_descriptor',
    articles: 6,
    systemUserId: ADMIN,
  });
  readers = await Experiments.freezeDataset({
    name: 'Readers',
    group: 'first_layer_user',
    articles: 6,
    systemUserId: ADMIN,
  });
  const add = async (expImplementationId: string, title: string) =>
    (
      await Experiments.addPrompt({
        expImplementationId,
        title,
        prompt: `${title}: {title} for {clues}`,
        systemUserId: ADMIN,
      })
    ).id;
  promptA = await add(SCORE, 'Prompt A');
  promptB = await add(SCORE, 'Prompt B');
  readerPrompt = await add('score-articles-per-user', 'Reader prompt');
}, 120_000);

describe('an edit and an execution', () => {
  it('an edit that lands while the execution is being queued never runs under that execution', async () => {
    const run = await Experiments.addRun({
      name: 'Window',
      expImplementationId: SCORE,
      input: scoreInput(promptA),
      systemUserId: ADMIN,
    });
    const seen: { edit?: PromiseSettledResult<Experiments.RunView> } = {};
    // The operator opens the run again after Execute named its execution, before it was queued:
    // the run shows no status yet, so Edit is offered, at the revision it reads.
    hooks.beforeEnqueue.push(async () => {
      const named = await runOf(run.id);
      [seen.edit] = await Promise.allSettled([
        Experiments.updateRun({
          id: run.id,
          revision: named.revision,
          name: 'Window, edited',
          expImplementationId: SCORE,
          input: scoreInput(promptB),
          systemUserId: ADMIN,
        }),
      ]);
    });
    await Experiments.executeRun({ id: run.id, systemUserId: ADMIN });
    const edit = seen.edit!;
    expect(edit).toBeDefined();
    await runToEnd((await runOf(run.id)).processId!, Worker.jobs);
    const after = (await Experiments.run(run.id))!;
    if (edit.status === 'rejected') {
      expect(edit.reason).toMatchObject({ status: 409 });
      expect(after.output!.prompt!.id).toBe(promptA);
    } else {
      // The edit landed: the execution queued for the run as it was must not run the edited one.
      expect(after).toMatchObject({ status: 'Failed', error: SUPERSEDED, canExecute: true });
    }
  }, 60_000);

  // The second execution reads the run after the first named its execution and before it was
  // queued: the run counts as Queued then (runs.ts, QUEUEING_MS), so the second is refused and the
  // first, reported queued, runs the run.
  it('of two executions at once, the one reported queued runs the run', async () => {
    const run = await Experiments.addRun({
      name: 'Twice',
      expImplementationId: SCORE,
      input: scoreInput(promptA),
      systemUserId: ADMIN,
    });
    let other: PromiseSettledResult<Experiments.RunView> | undefined;
    hooks.beforeEnqueue.push(async () => {
      [other] = await Promise.allSettled([
        Experiments.executeRun({ id: run.id, systemUserId: ADMIN }),
      ]);
    });
    const queued = await Experiments.executeRun({ id: run.id, systemUserId: ADMIN });
    expect(other).toMatchObject({ status: 'rejected', reason: { status: 409 } });
    expect(queued.status).toBe('Queued');
    await runToEnd((await runOf(run.id)).processId!, Worker.jobs);
    expect((await Experiments.run(run.id))!.status).toBe('Success');
  }, 60_000);
});

describe('matching entities', () => {
  it('two readers with the same clues stay two matching entities in a run and in a comparison', async () => {
    const input: Experiments.RunInput = {
      dataset: readers.id,
      expGptModelId: GPT,
      expPromptId: readerPrompt,
      articleLimit: 6,
    };
    const a = await addAndRun('score-articles-per-user', input, 'Readers A');
    const b = await addAndRun('score-articles-per-user', input, 'Readers B');
    expect(a.status).toBe('Success');
    const names = a.output!.resultsPerMatchingEntity.map((result) => result.matchingEntity);
    expect(names).toHaveLength(2);
    expect(new Set(names).size).toBe(2);
    const comparison = await Experiments.compare([a.id, b.id]);
    expect(comparison.distributions).toHaveLength(2);
    for (const distribution of comparison.distributions) {
      expect(distribution.perRun[a.id]!.Total).toBe(6);
      expect(distribution.perRun[b.id]!.Total).toBe(6);
    }
    expect(comparison.agreement[0]!.shared).toBe(12);
  }, 60_000);
});

describe('a chain at the dataset limits', () => {
  it('a chain step over 200 articles and 50 audiences keeps its results and ends Success', async () => {
    for (let index = 0; index < 48; index++) {
      await createAudience({ title: `audience number ${index}`, tag: `aud-review-${index}` });
    }
    for (let index = 0; index < 194; index++) {
      await createArticle({
        title: `A story about rollups and lending, number ${index}`,
        publishedAt: `2026-10-${String(1 + (index % 28)).padStart(2, '0')}T08:00:00.000Z`,
      });
    }
    const full = await Experiments.freezeDataset({
      name: 'At the limits',
      group: 'first_layer_descriptor',
      articles: Experiments.DATASET_LIMITS.articles,
      systemUserId: ADMIN,
    });
    expect(full).toMatchObject({
      articles: Experiments.DATASET_LIMITS.articles,
      descriptors: Experiments.DATASET_LIMITS.descriptors,
    });
    const run = await addAndRun(
      'chaining-per-descriptor',
      {
        dataset: full.id,
        steps: [
          {
            expImplementationId: 'embeddings-per-descriptor',
            expGptModelId: EMBEDDINGS,
            articleLimit: Experiments.DATASET_LIMITS.articles,
            threshold: 0.5,
          },
        ],
      },
      'Chain at the limits',
    );
    expect(run.error).toBeUndefined();
    expect(run.status).toBe('Success');
    const totals = run.output!.resultsPerMatchingEntity.map(
      (result) => result.groupByMetricPerMatchingEntity.Total,
    );
    expect(totals).toHaveLength(Experiments.DATASET_LIMITS.descriptors);
    expect(totals.every((total) => total === Experiments.DATASET_LIMITS.articles)).toBe(true);
  }, 300_000);
});
