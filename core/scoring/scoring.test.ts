import { ulid } from 'ulid';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import * as Ai from '#core/ai';
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

describe('scoring with the local provider', () => {
  it('stores a label, a 0..1 score, a reason and the matched clues per pair, DeFi above art', async () => {
    const article = defiArticle();
    const builders = audience('build DeFi protocols');
    const collectors = audience('collect generative art on-chain');
    const totals = await Scoring.scoreArticle(article, [builders, collectors], setup());
    expect(totals).toMatchObject({ scored: 2, alreadyScored: 0, failed: 0, calls: 1 });

    const { scores } = await Scoring.forArticle(article.id);
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
    expect((await Scoring.forArticle(article.id)).scores).toHaveLength(4);
  });

  it('stores each pair once when two workers score the same article at the same time', async () => {
    const article = defiArticle();
    const targets = Array.from({ length: 5 }, (_, i) => audience(`run validators ${i}`));
    const runs = await Promise.all([
      Scoring.scoreArticle(article, targets, setup()),
      Scoring.scoreArticle(article, targets, setup()),
    ]);
    expect(runs.reduce((n, run) => n + run.scored, 0)).toBe(5);
    expect((await Scoring.forArticle(article.id)).scores).toHaveLength(5);
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

describe("a reader's scored articles", () => {
  it('are those scored by the current prompt and model, newest published first, with titles, at most the limit', async () => {
    const reader = Scoring.userTarget({
      id: ulid(),
      descriptors: [{ clue: 'build DeFi protocols' }, { clue: 'audit lending markets' }],
    });
    const current = await Scoring.defaultSetup(ulid());
    const articles = [];
    for (const day of [18, 20, 19]) {
      const article = await createArticle({
        title: `Lending protocol invariants, part ${day}`,
        publishedAt: `2026-11-${day}T08:00:00.000Z`,
      });
      articles.push(article);
      await Scoring.scoreArticle(article, [reader], current);
    }
    // Scored by another prompt (an experiment): not what the feed is made from.
    const other = await createArticle({ title: 'Scored by an experiment only' });
    await Scoring.scoreArticle(other, [reader], {
      ...current,
      prompt: { id: 'experiment-prompt', prompt: prompt.prompt },
    });

    const shown = await Scoring.forReader(reader.id);
    expect(shown.map(({ title }) => title)).toEqual([
      'Lending protocol invariants, part 20',
      'Lending protocol invariants, part 19',
      'Lending protocol invariants, part 18',
    ]);
    const { scores } = await Scoring.forArticle(articles[1]!.id);
    expect(shown[0]).toEqual({
      articleId: articles[1]!.id,
      title: 'Lending protocol invariants, part 20',
      source: 'Protocol Review',
      publishedAt: '2026-11-20T08:00:00.000Z',
      label: scores[0]!.label,
      score: scores[0]!.score,
      reason: scores[0]!.reason,
      relevantClues: scores[0]!.relevantClues,
    });
    expect(await Scoring.forReader(reader.id, 2)).toHaveLength(2);
    expect(await Scoring.forReader(ulid())).toEqual([]);
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
    const { scores } = await Scoring.forArticle(article.id);
    expect(scores.every((score) => (score.inputTokens ?? 0) > 0)).toBe(true);
  });

  it("stores an audience's clue as matched when the model rates the story relevant but names none", async () => {
    const article = defiArticle();
    const target = audience('build DeFi protocols');
    // rateEveryAudience answers 'Quite Relevant' with no clue.
    expect(await Scoring.scoreArticle(article, [target], setup(model))).toMatchObject({
      scored: 1,
    });
    const { scores } = await Scoring.forArticle(article.id);
    expect(scores[0]).toMatchObject({
      label: 'Quite Relevant',
      relevantClues: ['build DeFi protocols'],
    });
  });

  it('records a malformed answer as a failure without stopping, and scores the pair on the next run', async () => {
    const article = defiArticle();
    const target = audience('build DeFi protocols');
    // A bad answer is not retried within the call (the same prompt would get the same answer).
    fake.script({ content: '{"label": "Very Rel' });
    const first = await Scoring.scoreArticle(article, [target], setup(model));
    expect(first).toMatchObject({ scored: 0, failed: 1 });
    const { failures } = await Scoring.forArticle(article.id);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ matchingId: target.id, attempts: 1 });

    const second = await Scoring.scoreArticle(article, [target], setup(model));
    expect(second).toMatchObject({ scored: 1, failed: 0 });
    const after = await Scoring.forArticle(article.id);
    expect(after.scores).toHaveLength(1);
    expect(after.failures).toHaveLength(0);
  });

  it('records a 200 that is no completion (an HTML page) as a failure of every pair, and goes on', async () => {
    const article = defiArticle();
    const targets = [audience('build DeFi protocols'), audience('audit smart contracts')];
    fake.script({ body: '<!doctype html><h1>Bad Gateway</h1>', contentType: 'text/html' });
    const totals = await Scoring.scoreArticle(article, targets, setup(model));
    expect(totals).toMatchObject({ scored: 0, failed: 2 });
    const { failures } = await Scoring.forArticle(article.id);
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
    expect((await Scoring.forArticle(article.id)).failures).toHaveLength(2);
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
    const { failures } = await Scoring.forArticle(article.id);
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
    const scoring = Scoring.scoreArticle(
      article,
      [audience('build DeFi protocols'), audience('audit smart contracts')],
      setup(model),
    ).then(
      () => 'finished',
      () => 'threw',
    );
    // A revoked key fails every call alike: the chunk should fail (and be retried, then the run
    // end Failed), not store a ScoreFailure per pair and end the run as a Success.
    expect(await scoring).toBe('threw');
    expect((await Scoring.forArticle(article.id)).failures).toHaveLength(0);
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
