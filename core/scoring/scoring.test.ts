import { ulid } from 'ulid';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as Ai from '#core/ai';
import { mapPool } from '#core/common';
import * as Scoring from '#core/scoring';
import { startFakeOpenAi, type FakeOpenAi } from '#tests/fakes/openai';
import { createArticle } from '#tests/integration/factories';
import { runSummary, type RunView } from '#web/lib/run-summary';

const local: Ai.AiModelRef = { id: 'local:cluefeed-bm25', ...Ai.LOCAL_MODELS.gpt };
const prompt = { id: 'default-scoring', prompt: 'Clues:\n{clues}\n\n{title}\n{summary}' };

const defiArticle = () => ({
  id: ulid(),
  title: 'Five invariants every DeFi lending protocol should fuzz before launch',
  summary:
    'Builders of DeFi protocols keep shipping lending markets with broken liquidation math. ' +
    'These invariant tests catch oracle, interest rate and collateral bugs before an audit.',
  publishedAt: '2026-11-20T08:00:00.000Z',
});

const audience = (title: string) => Scoring.audienceTarget({ id: ulid(), title });

const setup = (model = local): Scoring.ScoringSetup => ({ prompt, model, processId: ulid() });

/** What production's store holds for these pairs, by this model and prompt. */
const stored = (
  article: { id: string },
  targets: Scoring.MatchingTarget[],
  model = local,
  promptId = prompt.id,
) => Scoring.forPairs([article.id], targets, { promptId, modelId: model.id });

describe('scoring with the local provider', () => {
  it('stores a label, a 0..1 score, a reason and the matched clues per pair, DeFi above art', async () => {
    const article = defiArticle();
    const builders = audience('build DeFi protocols');
    const collectors = audience('collect generative art on-chain');
    const totals = await Scoring.scoreArticle(article, [builders, collectors], setup());
    expect(totals).toMatchObject({ scored: 2, alreadyScored: 0, failed: 0, calls: 1 });

    const { scores } = await stored(article, [builders, collectors]);
    const of = (id: string) => scores.find((score) => score.matchingId === id)!;
    expect(of(builders.id).score).toBeGreaterThan(of(collectors.id).score);
    expect(of(builders.id).label).toBe(Ai.labelOf(of(builders.id).score));
    expect(of(builders.id).relevantClues).toEqual(['build DeFi protocols']);
    expect(of(builders.id).reason.length).toBeGreaterThan(10);
    expect(of(builders.id)).toMatchObject({ promptId: prompt.id, modelId: local.id });
  });

  it('never scores a pair twice for the same prompt and model, but again for another prompt', async () => {
    const article = defiArticle();
    const targets = [audience('build DeFi protocols'), audience('audit smart contracts')];
    await Scoring.scoreArticle(article, targets, setup());
    const again = await Scoring.scoreArticle(article, targets, setup());
    expect(again).toMatchObject({ scored: 0, alreadyScored: 2, calls: 0 });

    const other = await Scoring.scoreArticle(article, targets, {
      ...setup(),
      prompt: { id: 'editor-prompt', prompt: prompt.prompt },
    });
    expect(other).toMatchObject({ scored: 2, alreadyScored: 0 });
    expect((await stored(article, targets)).scores).toHaveLength(2);
    expect((await stored(article, targets, local, 'editor-prompt')).scores).toHaveLength(2);
  });

  it('stores each pair once when two workers score the same article at the same time', async () => {
    const article = defiArticle();
    const targets = Array.from({ length: 5 }, (_, i) => audience(`run validators ${i}`));
    const runs = await Promise.all([
      Scoring.scoreArticle(article, targets, setup()),
      Scoring.scoreArticle(article, targets, setup()),
    ]);
    expect(runs.reduce((n, run) => n + run.scored, 0)).toBe(5);
    expect((await stored(article, targets)).scores).toHaveLength(5);
  });

  it('keeps only the clues the audience has, spelled as the audience has them', () => {
    expect(
      Scoring.matchedClues(
        ['BUILD defi protocols ', 'something invented'],
        ['build DeFi protocols'],
      ),
    ).toEqual(['build DeFi protocols']);
  });
});

describe("a reader's feed list", () => {
  const user = (clues: string[]) => ({
    id: ulid(),
    descriptors: clues.map((clue) => ({ clue })),
  });

  it('holds what production scored for their current clues, best label first, then newest, with counts per label', async () => {
    const reader = user(['build DeFi protocols', 'audit lending markets']);
    const current = await Scoring.defaultSetup(ulid());
    const articles: Awaited<ReturnType<typeof createArticle>>[] = [];
    for (const [day, title] of [
      [18, 'Lending protocol invariants for DeFi builders'],
      [20, 'Lending protocol invariants for DeFi builders, again'],
      [19, 'A generative art sale'],
    ] as const) {
      const article = await createArticle({ title, publishedAt: `2026-11-${day}T08:00:00.000Z` });
      articles.push(article);
      await Scoring.scoreArticle(article, [Scoring.userTarget(reader)], current);
    }
    // Scored by another prompt (an experiment would not even store here): not the feed's.
    const other = await createArticle({ title: 'Scored by another prompt only' });
    await Scoring.scoreArticle(other, [Scoring.userTarget(reader)], {
      ...current,
      prompt: { id: 'experiment-prompt', prompt: prompt.prompt },
    });

    const feed = await Scoring.forReader(reader);
    const { scores } = await stored(articles[1]!, [Scoring.userTarget(reader)], current.model);
    const rank = (label: Ai.RelevanceLabel) => Ai.RELEVANCE_LABELS.indexOf(label);
    // Best label first; within a label, newest published first.
    for (const [before, after] of feed.scores
      .slice(1)
      .map((score, i) => [feed.scores[i]!, score])) {
      expect(rank(before!.label)).toBeGreaterThanOrEqual(rank(after!.label));
      if (before!.label === after!.label) {
        expect(before!.publishedAt >= after!.publishedAt).toBe(true);
      }
    }
    expect(feed.scores.map(({ title }) => title).sort()).toEqual(
      articles.map(({ title }) => title).sort(),
    );
    expect(feed.scores.find((score) => score.articleId === articles[1]!.id)).toEqual({
      articleId: articles[1]!.id,
      title: 'Lending protocol invariants for DeFi builders, again',
      source: 'Protocol Review',
      publishedAt: '2026-11-20T08:00:00.000Z',
      label: scores[0]!.label,
      score: scores[0]!.score,
      reason: scores[0]!.reason,
      relevantClues: scores[0]!.relevantClues,
    });
    const counts = Object.values(feed.counts).reduce((sum, n) => sum + n, 0);
    expect(counts).toBe(3);
    for (const label of Ai.RELEVANCE_LABELS) {
      expect(feed.counts[label]).toBe(feed.scores.filter((score) => score.label === label).length);
    }
    const firstTwo = await Scoring.forReader(reader, { limit: 2 });
    expect(firstTwo.scores).toEqual(feed.scores.slice(0, 2));
    const rest = await Scoring.forReader(reader, { limit: 2, cursor: firstTwo.cursor });
    expect(rest.scores).toEqual(feed.scores.slice(2));
    expect((await Scoring.forReader(user(['anything']))).scores).toEqual([]);
  });

  it("treats changed clues as new pairs to score, and never reads the old clues' scores as current", async () => {
    const reader = user(['build DeFi protocols']);
    const current = await Scoring.defaultSetup(ulid());
    const article = await createArticle({ title: 'Lending protocol invariants for DeFi builders' });
    const before = Scoring.userTarget(reader);
    await Scoring.scoreArticle(article, [before], current);
    expect((await Scoring.forReader(reader)).scores).toHaveLength(1);

    const changed = { ...reader, descriptors: [{ clue: 'collect generative art' }] };
    const after = Scoring.userTarget(changed);
    expect(after.cluesHash).not.toBe(before.cluesHash);
    expect(await Scoring.unscoredTargets(article.id, [after], current)).toEqual([after]);
    expect((await Scoring.forReader(changed)).scores).toEqual([]);
    expect(await Scoring.scoreArticle(article, [after], current)).toMatchObject({ scored: 1 });
    expect((await Scoring.forReader(changed)).scores).toHaveLength(1);
  });

  it('names a clue set alike in any order, spacing or Unicode form, and differently for any word', () => {
    const hash = Scoring.cluesHash(['build DeFi protocols', 'audit lending markets']);
    expect(Scoring.cluesHash([' audit  lending markets', 'build DeFi protocols'])).toBe(hash);
    expect(Scoring.cluesHash(['build DeFi protocols', 'audit lending market'])).not.toBe(hash);
    expect(Scoring.cluesHash(['build DeFi protocols'])).not.toBe(hash);
    expect(Scoring.cluesHash(['cafe\u0301'])).toBe(Scoring.cluesHash(['caf\u00e9']));
  });

  it('reads one page of a reader with 300 scores in one Query, and counts them all', async () => {
    const reader = user(['build DeFi protocols']);
    const target = Scoring.userTarget(reader);
    const keys = await Scoring.productionKeys();
    const labels = Ai.RELEVANCE_LABELS;
    // Four at a time, as a run's parallel chunks write one reader's scores.
    await mapPool(
      Array.from({ length: 300 }, (_, i) => i),
      4,
      (i) =>
        Scoring.storeScore(ulid(), target, keys, {
          label: labels[i % labels.length]!,
          score: (i % labels.length) / labels.length,
          reason: 'A reason.',
          relevantClues: [],
          publishedAt: new Date(Date.UTC(2026, 10, 1, 0, i)).toISOString(),
          processId: 'bench',
          inputTokens: 0,
          outputTokens: 0,
        }),
    );
    const counts = await Scoring.labelCounts(target, keys);
    expect(Object.values(counts)).toEqual([60, 60, 60, 60, 60]);
    const { scores, cursor } = await Scoring.ranked(target, keys, { limit: 20 });
    expect(scores).toHaveLength(20);
    expect(scores.every((score) => score.label === 'Very Relevant')).toBe(true);
    expect(cursor).not.toBeNull();
    const good = await Scoring.ranked(target, keys, { limit: 500, lowest: 'Quite Relevant' });
    expect(good.scores).toHaveLength(120);
  });
});

/** Every try of one call: the first and AI_MAX_RETRIES (default 3) retries. */
const ATTEMPTS = 4;

describe('scoring with an OpenAI-compatible server (fake)', () => {
  let fake: FakeOpenAi;
  let model: Ai.AiModelRef;

  /** Rates every audience id the prompt lists, the way a model following the schema would. */
  const rateEveryAudience = (body: Record<string, unknown>) => {
    const messages = body.messages as { role: string; content: string }[];
    const user = messages.find((message) => message.role === 'user')!.content;
    const ids = [...user.matchAll(/\[([0-9A-Z]{26})\]/g)].map((match) => match[1]!);
    const rating = {
      label: 'Quite Relevant',
      score: 0.7,
      reason: 'It is about lending protocols.',
      relevantClues: [],
    };
    return ids.length > 0
      ? { results: ids.map((audienceId) => ({ audienceId, ...rating })) }
      : rating;
  };

  beforeAll(async () => {
    fake = await startFakeOpenAi('not-needed');
    model = {
      id: `openai-compatible:scoring-${ulid()}`,
      provider: 'openai-compatible',
      model: 'gpt-4o-mini',
      modelType: 'gpt',
      baseUrl: fake.url,
    };
  });
  afterAll(() => fake.stop());
  beforeEach(() => {
    fake.requests.length = 0;
    fake.answer = rateEveryAudience;
  });

  it('rates up to 8 audiences per call and stores the usage share of each pair', async () => {
    const article = defiArticle();
    const targets = Array.from({ length: 10 }, (_, i) => audience(`build DeFi protocol ${i}`));
    const totals = await Scoring.scoreArticle(article, targets, setup(model));
    expect(totals).toMatchObject({ scored: 10, failed: 0, calls: 2 });
    expect(fake.requests).toHaveLength(2);
    expect(totals.inputTokens).toBeGreaterThan(0);
    const format = fake.requests[0]!.body.response_format as {
      type: string;
      json_schema: { strict: boolean };
    };
    expect(format.type).toBe('json_schema');
    expect(format.json_schema.strict).toBe(true);
    const { scores } = await stored(article, targets, model);
    expect(scores.every((score) => (score.inputTokens ?? 0) > 0)).toBe(true);
  });

  it("stores an audience's clue as matched when the model rates the story relevant but names none", async () => {
    const article = defiArticle();
    const target = audience('build DeFi protocols');
    // rateEveryAudience answers 'Quite Relevant' with no clue.
    expect(await Scoring.scoreArticle(article, [target], setup(model))).toMatchObject({
      scored: 1,
    });
    const { scores } = await stored(article, [target], model);
    expect(scores[0]).toMatchObject({
      label: 'Quite Relevant',
      relevantClues: ['build DeFi protocols'],
    });
  });

  it("names the reader's nearest clue when the model rates a story relevant but names none, and writes a reason that names it", async () => {
    const article = defiArticle();
    const reader = Scoring.userTarget({
      id: ulid(),
      descriptors: [{ clue: 'collect generative art' }, { clue: 'build DeFi lending protocols' }],
    });
    // rateEveryAudience answers 'Quite Relevant' with no clue, reason about lending protocols.
    expect(await Scoring.scoreArticle(article, [reader], setup(model))).toMatchObject({
      scored: 1,
    });
    const { scores } = await stored(article, [reader], model);
    expect(scores[0]).toMatchObject({
      label: 'Quite Relevant',
      relevantClues: ['build DeFi lending protocols'],
      reason: 'It is about lending protocols.',
    });

    fake.answer = () => ({
      label: 'Slightly Relevant',
      score: 0.2,
      reason: ' ',
      relevantClues: [],
    });
    const other = Scoring.userTarget({
      id: ulid(),
      descriptors: [{ clue: 'collect generative art' }, { clue: 'audit DeFi lending markets' }],
    });
    await Scoring.scoreArticle(article, [other], setup(model));
    const [empty] = (await stored(article, [other], model)).scores;
    expect(empty).toMatchObject({
      relevantClues: ['audit DeFi lending markets'],
      reason: 'Slightly relevant to "audit DeFi lending markets".',
    });
  });

  it('records a malformed answer as a failure without stopping, and scores the pair on the next run', async () => {
    const article = defiArticle();
    const target = audience('build DeFi protocols');
    // A bad answer is not retried within the call (the same prompt would get the same answer).
    fake.script({ content: '{"label": "Very Rel' });
    const first = await Scoring.scoreArticle(article, [target], setup(model));
    expect(first).toMatchObject({ scored: 0, failed: 1 });
    const { failures } = await stored(article, [target], model);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ matchingId: target.id, attempts: 1 });

    const second = await Scoring.scoreArticle(article, [target], setup(model));
    expect(second).toMatchObject({ scored: 1, failed: 0 });
    const after = await stored(article, [target], model);
    expect(after.scores).toHaveLength(1);
    expect(after.failures).toHaveLength(0);
  });

  it('records a 200 that is no completion (an HTML page) as a failure of every pair, and goes on', async () => {
    const article = defiArticle();
    const targets = [audience('build DeFi protocols'), audience('audit smart contracts')];
    fake.script({ body: '<!doctype html><h1>Bad Gateway</h1>', contentType: 'text/html' });
    const totals = await Scoring.scoreArticle(article, targets, setup(model));
    expect(totals).toMatchObject({ scored: 0, failed: 2 });
    const { failures } = await stored(article, targets, model);
    expect(failures.map((failure) => failure.error)).toEqual([
      expect.stringContaining("the server's answer is not JSON"),
      expect.stringContaining("the server's answer is not JSON"),
    ]);
  });

  it('records a provider that keeps failing (500) as failures of every pair of the call', async () => {
    const article = defiArticle();
    const targets = [audience('build DeFi protocols'), audience('audit smart contracts')];
    fake.script(...Array.from({ length: ATTEMPTS }, () => ({ status: 500 })));
    const totals = await Scoring.scoreArticle(article, targets, setup(model));
    expect(totals).toMatchObject({ scored: 0, failed: 2 });
    expect((await stored(article, targets, model)).failures).toHaveLength(2);
  });

  it('records an audience the batch answer left out as a failure and stores the others', async () => {
    const article = defiArticle();
    const targets = [audience('build DeFi protocols'), audience('audit smart contracts')];
    fake.answer = (body) => {
      const answer = rateEveryAudience(body) as { results: unknown[] };
      return { results: answer.results.slice(0, 1) };
    };
    const totals = await Scoring.scoreArticle(article, targets, setup(model));
    expect(totals).toMatchObject({ scored: 1, failed: 1 });
    const { failures } = await stored(article, targets, model);
    expect(failures[0]!.error).toBe('The model gave no rating for this audience');
  });
});

describe('a key the provider refuses', () => {
  let fake: FakeOpenAi;
  beforeAll(async () => {
    fake = await startFakeOpenAi('not-needed');
  });
  afterAll(() => fake.stop());

  it("fails the chunk on 401 instead of recording every pair as the model's failure", async () => {
    const model: Ai.AiModelRef = {
      id: `openai-compatible:revoked-${ulid()}`,
      provider: 'openai-compatible',
      model: 'gpt-4o-mini',
      modelType: 'gpt',
      baseUrl: fake.url,
    };
    fake.script({ status: 401, message: 'Incorrect API key provided' });
    const article = defiArticle();
    const targets = [audience('build DeFi protocols'), audience('audit smart contracts')];
    const scoring = Scoring.scoreArticle(article, targets, setup(model)).then(
      () => 'finished',
      () => 'threw',
    );
    // A revoked key fails every call alike: the chunk should fail (and be retried, then the run
    // end Failed), not store a ScoreFailure per pair and end the run as a Success.
    expect(await scoring).toBe('threw');
    expect((await stored(article, targets, model)).failures).toHaveLength(0);
  });
});

describe('the cost of a model whose price is unknown', () => {
  let fake: FakeOpenAi;
  beforeAll(async () => {
    fake = await startFakeOpenAi('not-needed');
    fake.answer = () => ({
      label: 'Quite Relevant',
      score: 0.7,
      reason: 'It is about lending protocols.',
      relevantClues: [],
    });
  });
  afterAll(() => fake.stop());

  it('does not tell the admin a paid, unpriced run had no cost', async () => {
    // A self-hosted OpenAI-compatible server: no price in the table, so the cost is unknown.
    const unpriced: Ai.AiModelRef = {
      id: `openai-compatible:unpriced-${ulid()}`,
      provider: 'openai-compatible',
      model: 'llama-3.1-70b',
      modelType: 'gpt',
      baseUrl: fake.url,
    };
    const totals = await Scoring.scoreArticle(
      defiArticle(),
      [audience('build DeFi protocols')],
      setup(unpriced),
    );
    expect(totals.calls).toBe(1);
    const summary = runSummary({
      id: ulid(),
      name: 'score-articles',
      status: 'Success',
      output: JSON.stringify({ chunks: 1, ...totals }),
    } as RunView);
    expect(summary).not.toContain('no cost');
  });
});
