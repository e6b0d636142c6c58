// The production scoring setup (docs/decisions/0032-production-scoring-setup.md): production
// scores with and reads the built-in prompt and the configured model until an operator promotes
// another setup; saving or testing a prompt changes nothing; a promote is logged and queues
// scoring; bad promotes are refused with nothing stored; of two promotes decided from one setup
// one lands; and the prompt production uses cannot be deleted, even by a delete racing a promote.
import { setTimeout as after } from 'node:timers/promises';
import { ulid } from 'ulid';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as Ai from '#core/ai';
import * as Auth from '#core/auth';
import { db } from '#core/db';
import * as Automations from '#core/automations';
import * as Worker from '#core/worker';
import * as Jobs from '#core/jobs';
import * as Logs from '#core/logs';
import * as Prompts from '#core/prompts';
import * as Scoring from '#core/scoring';
import { createArticle, createAudience } from '#tests/integration/factories';
import { receive } from '#tests/integration/job-queue';
import { useOwnTable } from '#tests/integration/own-table';
import { rounds } from '#tests/integration/races';
import { refusal } from '#tests/integration/refusal';
import { changes, storedItems } from '#tests/integration/route-call';
import { candidatesFor } from '../curation/candidates';

useOwnTable('production-scoring');

const BUILT_IN = Prompts.builtIn('scoring');
let admin: Auth.SystemUser;
let local: Ai.AiModel;
let selfHosted: Ai.AiModel;
let embeddings: Ai.AiModel;

beforeAll(async () => {
  const userName = `promoter-${ulid().toLowerCase()}`;
  await Auth.ensureAdmin({ userName, password: 'correct horse battery staple' });
  admin = (await Auth.byUserName(userName))!;
  await Prompts.seedDefaults();
  local = await Ai.create(Ai.LOCAL_MODELS.gpt);
  selfHosted = await Ai.create({
    provider: 'openai-compatible',
    model: 'llama3.1:8b',
    modelType: 'gpt',
    baseUrl: 'http://127.0.0.1:9/v1',
  });
  embeddings = await Ai.create(Ai.LOCAL_MODELS.embeddings);
});

/** Runs a process to its end as the worker does: its message, then its chunks. */
async function runToEnd(process: Jobs.Process): Promise<Jobs.Process> {
  const deliver = (...messages: Awaited<ReturnType<typeof receive>>) =>
    Jobs.handleBatch(messages, Worker.jobs);
  await deliver(...(await receive(process.id)));
  await Promise.all((await receive(process.id)).map((message) => deliver(message)));
  return (await Jobs.byId(process.id))!;
}

// Every test starts from a fresh install's setup, with no scoring run left queued.
afterEach(async () => {
  vi.restoreAllMocks();
  for (const process of await Jobs.active()) await runToEnd(process);
  await Scoring.ProductionScoringEntity.delete({}).go();
});

const savePrompt = (title: string) =>
  Prompts.create({
    expImplementationId: 'scoring',
    title,
    prompt: `${title}: how relevant is {title} to {clues}?`,
  });

/** A stored score, as a run with this prompt and model would have written it. */
async function scored(
  article: { id: string; publishedAt: string },
  target: Scoring.MatchingTarget,
  keys: { promptId: string; modelId: string },
) {
  await Scoring.storeScore(article.id, target, keys, {
    label: 'Very Relevant',
    score: 0.9,
    reason: 'Builders of lending protocols.',
    relevantClues: [],
    publishedAt: article.publishedAt,
    processId: ulid(),
    inputTokens: 0,
    outputTokens: 0,
  });
}

const promoting = (prompt: { id: string }, model: { id: string }, revision?: number) =>
  Scoring.promote({ promptId: prompt.id, modelId: model.id, systemUserId: admin.id, revision });

describe('before anything is promoted', () => {
  it('production scores with and reads the built-in prompt and the configured model, whatever prompts are saved or tested', async () => {
    const audience = await createAudience();
    const reader = { id: ulid(), descriptors: [{ clue: 'build lending protocols' }] };
    const article = await createArticle();
    const builtIn = { promptId: BUILT_IN.id, modelId: local.id };
    await scored(article, Scoring.audienceTarget(audience), builtIn);
    await scored(article, Scoring.userTarget(reader), builtIn);

    const saved = await savePrompt('Sharper');
    // The experiment scores with the saved prompt: its scores stay with its run.
    const experiment = await Jobs.enqueue(
      Automations.scoreArticlesExperiment,
      { promptId: saved.id },
      admin.id,
    );
    expect((await runToEnd(experiment)).status).toBe('Success');
    const tried = { promptId: saved.id, modelId: local.id };
    const target = Scoring.audienceTarget(audience);
    expect(
      await Scoring.experimentScoresOf(experiment.id, [article.id], [target], tried),
    ).toHaveLength(1);
    expect((await Scoring.forPairs([article.id], [target], tried)).scores).toEqual([]);

    expect(await Scoring.productionSetup()).toEqual({
      prompt: BUILT_IN,
      model: await Ai.configured('gpt'),
      revision: 0,
    });
    const setup = await Scoring.defaultSetup(ulid());
    expect(setup.prompt).toEqual(BUILT_IN);
    expect(setup.model.id).toBe(local.id);
    expect((await candidatesFor(audience)).map((c) => c.articleId)).toEqual([article.id]);
    expect((await Scoring.forReader(reader)).scores.map((s) => s.articleId)).toEqual([article.id]);
  });
});

describe('promote', () => {
  it('changes what production scores with and reads, logs who, from what and to what, and queues scoring with it', async () => {
    const audience = await createAudience();
    const article = await createArticle();
    await scored(article, Scoring.audienceTarget(audience), {
      promptId: BUILT_IN.id,
      modelId: local.id,
    });
    const saved = await savePrompt('Sharper');
    const before = await Jobs.lastRun(Automations.scoreArticles.name);

    const { setup, queued } = await promoting(saved, local, 0);

    expect(queued).toBe(true);
    const production = await Scoring.productionSetup();
    expect(production).toEqual(setup);
    expect(production).toMatchObject({
      prompt: { id: saved.id, title: 'Sharper', prompt: saved.prompt },
      model: { id: local.id },
      revision: 1,
      promotedBy: admin.id,
    });
    expect(Date.parse(production.promotedAt!)).toBeGreaterThan(Date.now() - 60_000);
    expect((await Scoring.defaultSetup(ulid())).prompt.id).toBe(saved.id);
    // Production reads the promoted setup's scores only: none yet.
    expect(await candidatesFor(audience)).toEqual([]);

    await Logs.flush();
    const lines = await Logs.forDay(new Date().toISOString().slice(0, 10), 500);
    const line = lines.find(({ message }) => message.startsWith('Production scoring promoted'));
    expect(line?.message).toBe(
      `Production scoring promoted by ${admin.userName}: "Sharper" with local - cluefeed-bm25, was "${BUILT_IN.title}" with local - cluefeed-bm25`,
    );
    expect(JSON.parse(line!.fields!)).toEqual({
      systemUserId: admin.id,
      from: { promptId: BUILT_IN.id, modelId: local.id },
      to: { promptId: saved.id, modelId: local.id },
      revision: 1,
    });

    const run = await Jobs.lastRun(Automations.scoreArticles.name);
    expect(run?.id).not.toBe(before?.id);
    expect(run).toMatchObject({ status: 'Queued', systemUserId: admin.id });
    expect((await runToEnd(run!)).status).toBe('Success');
    const { scores } = await Scoring.forArticle(article.id, [audience]);
    expect(scores.map(({ promptId, matchingId }) => [promptId, matchingId])).toEqual([
      [saved.id, audience.id],
    ]);

    // Back to the built-in prompt, on another model: the next revision.
    const again = await promoting(BUILT_IN, selfHosted, 1);
    expect(again.setup).toMatchObject({ prompt: BUILT_IN, model: { id: selfHosted.id } });
    expect(await Scoring.productionSetup()).toMatchObject({ revision: 2, model: selfHosted });
  });

  it('says when scoring is busy instead of queueing a second run', async () => {
    const busy = await Jobs.enqueue(Automations.scoreArticles, {}, admin.id);
    const { queued } = await promoting(await savePrompt('While busy'), local, 0);
    expect(queued).toBe(false);
    expect((await Jobs.lastRun(Automations.scoreArticles.name))?.id).toBe(busy.id);
    await Logs.flush();
    const lines = await Logs.forDay(new Date().toISOString().slice(0, 10), 500);
    expect(lines.map(({ message }) => message)).toContain(
      'Scoring is busy (a run planned with the setup before): the scheduled scoring run scores with the promoted setup',
    );
  });

  it('refuses what cannot be production in words, storing and queueing nothing', async () => {
    const deleted = await savePrompt('Deleted');
    await Prompts.disable({ id: deleted.id });
    const otherAutomation = await Prompts.create({
      expImplementationId: 'prompt-testing',
      title: 'Terse',
      prompt: 'Rate {title} for {audience}: {clues}',
    });
    const good = await savePrompt('Good');
    const lastRun = await Jobs.lastRun(Automations.scoreArticles.name);
    const before = await storedItems();

    const cases: [string, Parameters<typeof Scoring.promote>[0], number, string][] = [
      ['no prompt', { promptId: '', modelId: local.id, systemUserId: admin.id }, 400, 'prompt'],
      [
        'unknown prompt',
        { promptId: ulid(), modelId: local.id, systemUserId: admin.id },
        400,
        'prompt',
      ],
      [
        'long id',
        { promptId: 'x'.repeat(500), modelId: local.id, systemUserId: admin.id },
        400,
        'prompt',
      ],
      [
        "another automation's prompt",
        { promptId: otherAutomation.id, modelId: local.id, systemUserId: admin.id },
        400,
        'prompt',
      ],
      [
        'deleted prompt',
        { promptId: deleted.id, modelId: local.id, systemUserId: admin.id },
        409,
        'promptDeleted',
      ],
      ['no model', { promptId: good.id, modelId: ' ', systemUserId: admin.id }, 400, 'model'],
      [
        'unknown model',
        { promptId: good.id, modelId: 'openai:gpt-9', systemUserId: admin.id },
        400,
        'model',
      ],
      [
        'embeddings model',
        { promptId: good.id, modelId: embeddings.id, systemUserId: admin.id },
        400,
        'model',
      ],
      [
        'not a revision',
        { promptId: good.id, modelId: local.id, systemUserId: admin.id, revision: Number.NaN },
        400,
        'stale',
      ],
      [
        'production already',
        { promptId: BUILT_IN.id, modelId: local.id, systemUserId: admin.id },
        409,
        'already',
      ],
    ];
    for (const [name, input, status, message] of cases) {
      expect(await refusal(Scoring.promote(input)), name).toEqual({
        status,
        message: Scoring.PRODUCTION_MESSAGES[message as keyof typeof Scoring.PRODUCTION_MESSAGES],
      });
    }
    // Chosen on a page that showed revision 4: production has changed since (it is at 0).
    expect(await refusal(promoting(good, local, 4))).toEqual({
      status: 409,
      message: `Production scoring changed meanwhile: it now uses "${BUILT_IN.title}" with local - cluefeed-bm25. Look at it again before you promote.`,
    });

    expect(changes(before, await storedItems())).toEqual([]);
    expect((await Jobs.lastRun(Automations.scoreArticles.name))?.id).toBe(lastRun?.id);
    expect(await Scoring.productionSetup()).toMatchObject({ prompt: BUILT_IN, revision: 0 });
  });

  it('of two promotes decided from the same setup, one lands and the other is told what changed', async () => {
    const prompts = [
      await savePrompt('First'),
      await savePrompt('Second'),
      await savePrompt('Third'),
    ];
    await rounds(12, async (race) => {
      const current = await Scoring.productionSetup();
      const [a, b] = prompts.filter(({ id }) => id !== current.prompt.id);
      const results = await race(
        () =>
          promoting(a!, local, current.revision).then(
            () => 'a',
            (error: Error) => error,
          ),
        () =>
          promoting(b!, local, current.revision).then(
            () => 'b',
            (error: Error) => error,
          ),
      );
      const winners = results.filter((result) => typeof result === 'string');
      expect(winners, 'exactly one promote lands').toHaveLength(1);
      const winner = winners[0] === 'a' ? a! : b!;
      const loser = results.find((result) => typeof result !== 'string') as Error & {
        status: number;
      };
      expect(loser.status).toBe(409);
      expect(loser.message).toBe(
        `Production scoring changed meanwhile: it now uses "${winner.title}" with local - cluefeed-bm25. Look at it again before you promote.`,
      );
      expect(await Scoring.productionSetup()).toMatchObject({
        prompt: { id: winner.id },
        revision: current.revision + 1,
      });
    });
  });

  it('two promotes that each read the setup themselves never lose one: every landed promote counts', async () => {
    const prompts = [
      await savePrompt('Left'),
      await savePrompt('Right'),
      await savePrompt('Centre'),
    ];
    await rounds(12, async (race) => {
      const current = await Scoring.productionSetup();
      const [a, b] = prompts.filter(({ id }) => id !== current.prompt.id);
      const results = await race(
        () =>
          promoting(a!, local).then(
            ({ setup }) => setup,
            (error: Error) => error,
          ),
        () =>
          promoting(b!, local).then(
            ({ setup }) => setup,
            (error: Error) => error,
          ),
      );
      const landed = results.filter(
        (result): result is Scoring.ProductionSetup => !(result instanceof Error),
      );
      for (const refused of results.filter((result) => result instanceof Error))
        expect((refused as Error & { status: number }).status).toBe(409);
      expect(landed.length).toBeGreaterThanOrEqual(1);
      const stored = await Scoring.productionSetup();
      expect(stored.revision).toBe(current.revision + landed.length);
      // The stored setup is the promote that landed last.
      expect(landed.map(({ revision }) => revision)).toContain(stored.revision);
      expect(landed.find(({ revision }) => revision === stored.revision)?.prompt.id).toBe(
        stored.prompt.id,
      );
    });
  });
});

describe('deleting the production prompt', () => {
  it('is refused in words until another prompt is promoted', async () => {
    const message = Prompts.PROMPT_MESSAGES.inProduction;
    expect(await refusal(Prompts.disable({ id: BUILT_IN.id }))).toEqual({ status: 409, message });
    expect((await Prompts.byId(BUILT_IN.id))?.isDeleted).toBe(false);

    const saved = await savePrompt('Kept');
    await promoting(saved, local, 0);
    expect(await refusal(Prompts.disable({ id: saved.id }))).toEqual({ status: 409, message });
    expect((await Prompts.byId(saved.id))?.isDeleted).toBe(false);
    // The built-in prompt is no longer production: it may go (production keeps its own copy).
    await Prompts.disable({ id: BUILT_IN.id });
    expect((await Prompts.byId(BUILT_IN.id))?.isDeleted).toBe(true);
    await Prompts.PromptEntity.patch({ id: BUILT_IN.id }).set({ isDeleted: false }).go();
  });

  it('deleted after a promote read it and before the promote wrote: the promote is refused', async () => {
    const prompt = await savePrompt('Deleted midway');
    const { client } = db();
    const send = client.send.bind(client);
    let deleted: unknown;
    // The promote's write waits until the delete, started after the promote's reads, is done.
    vi.spyOn(client, 'send').mockImplementation((async (command: unknown) => {
      const promoteWrite =
        command instanceof TransactWriteCommand &&
        command.input.TransactItems?.some((item) => item.Put?.Item?.pk === 'productionScoring');
      if (promoteWrite && deleted === undefined) {
        deleted = await Prompts.disable({ id: prompt.id }).then(() => true);
      }
      return send(command as never);
    }) as never);

    expect(await refusal(promoting(prompt, local, 0))).toEqual({
      status: 409,
      message: Scoring.PRODUCTION_MESSAGES.promptDeleted,
    });
    expect(deleted).toBe(true);
    expect((await Prompts.byId(prompt.id))?.isDeleted).toBe(true);
    expect(await Scoring.productionSetup()).toMatchObject({ prompt: BUILT_IN, revision: 0 });
  });

  it('while its promote runs: one of the two lands, and production never names a deleted prompt', async () => {
    // The delete starts ever later into the promote: before its reads, between its reads and its
    // write, and after it, so every order of the two writes is tried.
    for (let delay = 0; delay <= 160; delay += 8) {
      const current = await Scoring.productionSetup();
      const prompt = await savePrompt(`Contested ${delay}`);
      const [promoted, deleted] = await Promise.all([
        promoting(prompt, local, current.revision).then(
          () => true,
          (error: Error) => error,
        ),
        after(delay).then(() =>
          Prompts.disable({ id: prompt.id }).then(
            () => true,
            (error: Error) => error,
          ),
        ),
      ]);
      const production = await Scoring.productionSetup();
      const stored = (await Prompts.byId(prompt.id))!;
      if (promoted === true) {
        expect(deleted, `delete ${delay} ms later`).toMatchObject({
          status: 409,
          message: Prompts.PROMPT_MESSAGES.inProduction,
        });
        expect(production.prompt.id).toBe(prompt.id);
        expect(stored.isDeleted).toBe(false);
      } else {
        expect(deleted, `delete ${delay} ms later`).toBe(true);
        expect(promoted).toMatchObject({
          status: 409,
          message: Scoring.PRODUCTION_MESSAGES.promptDeleted,
        });
        expect(production).toEqual(current);
        expect(stored.isDeleted).toBe(true);
      }
    }
  });
});
