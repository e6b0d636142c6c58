// The Experiments screen at its edges, with runs whose results are known: the
// comparison's CSV against the differences the page says it has, and the promote question for a
// scoring run that cannot be promoted.
import { ulid } from 'ulid';
import { beforeAll, describe, expect, it } from 'vitest';
import * as Ai from '#core/ai';
import { config } from '#core/config';
import * as Experiments from '#core/experiments';
import type { Entry } from '../../../core/experiments/engine';
import { keepChunk, keepOutput } from '../../../core/experiments/results';
import * as Jobs from '#core/jobs';
import * as Scoring from '#core/scoring';
import { seedAi } from '#scripts/seed/ai';
import { useOwnTable } from '#tests/integration/own-table';
import { call } from '#tests/integration/route-call';
import { adminPost, signedInAdmin } from '#web/lib/admin.server.test-helpers';
import type { ExperimentsPage } from './experiments.server';
import { action, loader } from './experiments';
import { loader as compareLoader } from './experiments.compare';
import { loader as csvLoader } from './experiments.compare-csv';

const PATH = '/admin-panel/experiments';
const origin = () => new URL(config().PUBLIC_URL).origin;

useOwnTable('experiments-review-screen');

let cookie: string;

beforeAll(async () => {
  ({ cookie } = await signedInAdmin());
});

const usage = { calls: 1, inputTokens: 10, outputTokens: 5, costUsd: 0 };

/** A run whose execution ended Success with these entries (as the job keeps them). */
async function successfulRun(
  expImplementationId: string,
  name: string,
  entries: Entry[],
  expPromptId = 'default-scoring',
  expGptModelId = 'local:cluefeed-bm25',
) {
  const id = ulid();
  const processId = ulid();
  const now = new Date().toISOString();
  await Jobs.ProcessEntity.create({
    id: processId,
    name: 'experiment-run',
    slot: `experiment#${id}`,
    status: 'Success',
    input: JSON.stringify({ runId: id }),
    systemUserId: 'admin',
    createdAt: now,
    startTime: now,
    endTime: now,
  }).go();
  await Experiments.ExperimentRunEntity.create({
    id,
    expImplementationId,
    name,
    comments: '',
    input: JSON.stringify({
      dataset: 'gone',
      expGptModelId,
      expPromptId,
    }),
    createdAt: now,
    systemUserId: 'admin',
    revision: 1,
    processId,
    executedAt: now,
  }).go();
  await keepChunk(processId, 0, 0, [{ entries, usage }]);
  const counts: Record<string, number> = { Total: entries.length };
  for (const entry of entries) counts[entry.label] = (counts[entry.label] ?? 0) + 1;
  await keepOutput(processId, {
    implementation: Experiments.implementation(expImplementationId)!.name,
    kind: 'score',
    resultsPerMatchingEntity: [{ matchingEntity: 'aud-1', groupByMetricPerMatchingEntity: counts }],
    usage,
    prompt: { id: 'default-scoring', title: 'Article relevance (default)', prompt: '{title}' },
    model: { id: 'local:cluefeed-bm25', name: 'local - cluefeed-bm25' },
    items: entries.length,
    durationMs: 5,
    dataset: { id: 'gone', name: 'Gone', group: 'first_layer_descriptor' },
  });
  return id;
}

const entries = (count: number, label: string): Entry[] =>
  Array.from({ length: count }, (_, index) => ({
    entity: 'aud-1',
    item: `article-${String(index).padStart(4, '0')}`,
    label,
    score: label === 'Very Relevant' ? 1 : 0,
  }));

describe('the comparison and its CSV', () => {
  it('the CSV has every differing item, as the page says when it shows only the first', async () => {
    const a = await successfulRun(
      'score-articles-per-descriptor',
      'All in',
      entries(600, 'Very Relevant'),
    );
    const b = await successfulRun(
      'score-articles-per-descriptor',
      'All out',
      entries(600, 'Not Relevant'),
    );
    const page = await call(
      compareLoader,
      new Request(new URL(`${PATH}/compare?runs=${a}&runs=${b}`, origin()), {
        headers: { Cookie: cookie },
      }),
    );
    const comparison = (page.data as { comparison: Experiments.Comparison }).comparison;
    expect(comparison.differencesTotal).toBe(600);
    // The page shows the first 500 and says "the CSV has them all".
    expect(comparison.differences.length).toBeLessThan(600);
    const csv = await csvLoader({
      request: new Request(new URL(`${PATH}/compare.csv?runs=${a}&runs=${b}`, origin()), {
        headers: { Cookie: cookie },
      }),
      params: {},
      context: {},
    });
    const rows = (await csv.text()).split('\r\n').filter((row) => row.startsWith('"difference"'));
    const items = new Set(rows.map((row) => row.split('","')[3]));
    expect(items.size).toBe(600);
  });
});

describe('promote', () => {
  it("offers 'Use this prompt and model in production' only for a run that scores articles", async () => {
    const stories = await successfulRun(
      'score-stories-per-user',
      'Stories',
      entries(3, 'Very Relevant'),
    );
    const query = `?process=user-experiments&implementation=score-stories-per-user&run=${stories}`;
    const shown = (
      await call(
        loader,
        new Request(new URL(`${PATH}${query}&promote=1`, origin()), {
          headers: { Cookie: cookie },
        }),
      )
    ).data as ExperimentsPage;
    expect(shown.preview?.status).toBe('Success');
    // The core refuses it ('Only a run that scores articles can be promoted'): the page must not ask.
    await expect(
      Experiments.promoteRun({ id: stories, systemUserId: 'admin' }),
    ).rejects.toMatchObject({ status: 400 });
    expect(shown.promoting).toBe(false);
    expect(shown.promotable).toBe(false);

    const articles = await successfulRun(
      'score-articles-per-descriptor',
      'Articles',
      entries(3, 'Very Relevant'),
      await scoringPrompt('Not yet in production'),
    );
    const scoring = (
      await call(
        loader,
        new Request(
          new URL(
            `${PATH}?process=descriptor-experiments&implementation=score-articles-per-descriptor&run=${articles}&promote=1`,
            origin(),
          ),
          { headers: { Cookie: cookie } },
        ),
      )
    ).data as ExperimentsPage;
    expect(scoring.promotable).toBe(true);
    expect(scoring.promoting).toBe(true);
  });
});

const scoringPrompt = async (title: string) =>
  (
    await Experiments.addPrompt({
      expImplementationId: 'score-articles-per-descriptor',
      title,
      prompt: `${title}: {title} for {clues}`,
      systemUserId: 'admin',
    })
  ).id;

const shownWithPromote = async (run: string) =>
  (
    await call(
      loader,
      new Request(
        new URL(
          `${PATH}?process=descriptor-experiments&implementation=score-articles-per-descriptor&run=${run}&promote=1`,
          origin(),
        ),
        { headers: { Cookie: cookie } },
      ),
    )
  ).data as ExperimentsPage;

describe('what promote offers', () => {
  it('does not offer the prompt and model production already uses, and says so', async () => {
    await seedAi();
    const production = await Scoring.productionSetup();
    const run = await successfulRun(
      'score-articles-per-descriptor',
      'Same as production',
      entries(3, 'Very Relevant'),
      production.prompt.id,
      production.model.id,
    );
    const shown = await shownWithPromote(run);
    expect(shown.promotable).toBe(false);
    expect(shown.promoting).toBe(false);
    expect(shown.notPromotable).toBe('Production scoring already uses this prompt and model.');
  });

  it('does not offer a model that cannot run here, says why, and the run form does not offer it either', async () => {
    await seedAi();
    const settings = config() as { OPENAI_API_KEY?: string };
    const key = settings.OPENAI_API_KEY;
    delete settings.OPENAI_API_KEY;
    try {
      const openai =
        (await Ai.byId('openai:gpt-4o-mini')) ??
        (await Ai.create({ provider: 'openai', model: 'gpt-4o-mini', modelType: 'gpt' }));
      const run = await successfulRun(
        'score-articles-per-descriptor',
        'With OpenAI',
        entries(3, 'Very Relevant'),
        await scoringPrompt('Tried with OpenAI'),
        openai.id,
      );
      const shown = await shownWithPromote(run);
      expect(shown.promotable).toBe(false);
      expect(shown.notPromotable).toBe(
        'openai - gpt-4o-mini cannot score in production here: OPENAI_API_KEY is not set, so OpenAI models cannot run.',
      );
      const adding = (
        await call(
          loader,
          new Request(
            new URL(
              `${PATH}?process=descriptor-experiments&implementation=score-articles-per-descriptor&modal=add`,
              origin(),
            ),
            { headers: { Cookie: cookie } },
          ),
        )
      ).data as ExperimentsPage;
      expect(adding.options?.models.map(({ id }) => id)).not.toContain(openai.id);
      expect(adding.options?.notOffered).toContain(
        'openai - gpt-4o-mini: OPENAI_API_KEY is not set, so OpenAI models cannot run',
      );

      // A run saved with it earlier is refused at Execute, not queued to fail.
      const saved = { id: ulid() };
      await Experiments.ExperimentRunEntity.create({
        id: saved.id,
        expImplementationId: 'score-articles-per-descriptor',
        name: 'Saved with OpenAI',
        comments: '',
        input: JSON.stringify({ dataset: 'gone', expGptModelId: openai.id }),
        createdAt: new Date().toISOString(),
        systemUserId: 'admin',
        revision: 1,
      }).go();
      const executed = await call(
        action,
        adminPost(
          `${PATH}?process=descriptor-experiments&implementation=score-articles-per-descriptor&run=${saved.id}`,
          { intent: 'execute', id: saved.id },
          cookie,
        ),
      );
      expect(executed.status).toBe(400);
      expect((executed.data as { error: string }).error).toBe(
        'openai - gpt-4o-mini cannot run here: OPENAI_API_KEY is not set, so OpenAI models cannot run',
      );
      expect((await Experiments.run(saved.id))?.status).toBeUndefined();
    } finally {
      if (key !== undefined) settings.OPENAI_API_KEY = key;
    }
  });
});

describe('a promote decided from a stale page', () => {
  it("is refused when production's setup changed after the question showed it", async () => {
    await seedAi();
    const add = async (title: string) =>
      (
        await Experiments.addPrompt({
          expImplementationId: 'score-articles-per-descriptor',
          title,
          prompt: `${title}: {title} for {clues}`,
          systemUserId: 'admin',
        })
      ).id;
    const mine = await add('Proved by a run');
    const theirs = await add('Promoted by another admin');
    const run = await successfulRun(
      'score-articles-per-descriptor',
      'To promote',
      entries(3, 'Very Relevant'),
      mine,
    );
    const query = `?process=descriptor-experiments&implementation=score-articles-per-descriptor&run=${run}`;
    const asked = (
      await call(
        loader,
        new Request(new URL(`${PATH}${query}&promote=1`, origin()), {
          headers: { Cookie: cookie },
        }),
      )
    ).data as ExperimentsPage;
    expect(asked.promoting).toBe(true);
    const seen = (await Scoring.productionSetup()).revision;
    expect(asked.production?.revision).toBe(seen);
    // Another admin promotes meanwhile, from Content Automations.
    await Scoring.promote({
      promptId: theirs,
      modelId: 'local:cluefeed-bm25',
      systemUserId: 'admin-2',
      revision: seen,
    });
    // The question's form sends the revision it showed.
    const answer = await call(
      action,
      adminPost(`${PATH}${query}`, { intent: 'promote', id: run, revision: String(seen) }, cookie),
    );
    expect(answer.status).toBe(409);
    expect((answer.data as { error: string }).error).toMatch(/changed meanwhile/);
    expect((await Scoring.productionSetup()).prompt.id).toBe(theirs);
  });
});

describe('prompt management', () => {
  it('saves a prompt of nearly 20,000 characters, whose form is over 16 KB, as typed', async () => {
    const typed = `Rate {title} for {clues}.\n${'Weigh every clue, café. '.repeat(820)}END`;
    expect(typed.length).toBeLessThan(20_000);
    const query =
      '?process=descriptor-experiments&implementation=score-articles-per-descriptor&tab=prompts&modal=add-prompt';
    const request = adminPost(
      `${PATH}${query}`,
      { intent: 'add-prompt', title: 'Longest', prompt: typed },
      cookie,
    );
    const answer = await call(action, request);
    expect(answer.status).toBe(302);
    const saved = (await Experiments.prompts('score-articles-per-descriptor')).find(
      (prompt) => prompt.title === 'Longest',
    );
    expect(saved?.prompt).toBe(typed);
  });

  it('saves a long prompt as typed, or refuses it with a message: never cut short', async () => {
    const typed = `Rate {title} for {clues}.\n${'Weigh every clue. '.repeat(700)}END OF PROMPT`;
    expect(typed.length).toBeGreaterThan(12_000);
    expect(typed.length).toBeLessThan(20_000);
    const query =
      '?process=descriptor-experiments&implementation=score-articles-per-descriptor&tab=prompts&modal=add-prompt';
    const answer = await call(
      action,
      adminPost(`${PATH}${query}`, { intent: 'add-prompt', title: 'Long', prompt: typed }, cookie),
    );
    if (answer.status === 302) {
      const saved = (await Experiments.prompts('score-articles-per-descriptor')).find(
        (prompt) => prompt.title === 'Long',
      );
      expect(saved?.prompt.length).toBe(typed.length);
      expect(saved?.prompt.endsWith('END OF PROMPT')).toBe(true);
    } else {
      expect(answer.status).toBe(400);
      expect((answer.data as { error: string }).error).toMatch(/prompt/i);
    }
  });
});
