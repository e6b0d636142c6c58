// The scoring jobs end to end through the job runtime: planned into chunk messages on the queue,
// each chunk delivered to the worker's handler, checkpointed and summed. The file has a table of
// its own, so "every active audience x the newest articles" is exactly what it creates here.
import { createHash } from 'node:crypto';
import { ulid } from 'ulid';
import { beforeAll, describe, expect, it } from 'vitest';
import { receive, type QueueMessage } from '#tests/integration/job-queue';
import * as Ai from '#core/ai';
import * as Articles from '#core/articles';
import * as Audiences from '#core/audiences';
import * as Automations from '#core/automations';
import * as Worker from '#core/worker';
import * as Feed from '#core/feed';
import * as Jobs from '#core/jobs';
import * as Outbox from '#core/outbox';
import * as Prompts from '#core/prompts';
import * as Scoring from '#core/scoring';
import { createArticle, createAudience } from '#tests/integration/factories';
import { readerWithPassword } from '#tests/integration/readers';
import * as Users from '#core/users';
import { useOwnTable } from '#tests/integration/own-table';

const titles = [
  'DeFi lending protocols add isolated markets',
  'A generative art collection sells out on-chain',
  'Smart contract auditors find a reentrancy bug',
  'DAO governance votes on the treasury',
  'Rollup sequencers decentralise',
];
const ARTICLES = 25;
/** The default scoring prompt and the local model: what a run scores with here. */
const CURRENT = { promptId: 'default-scoring', modelId: 'local:cluefeed-bm25' };
let active: Awaited<ReturnType<typeof createAudience>>[];
let articleIds: string[];

useOwnTable('scoring-job');

beforeAll(async () => {
  active = [
    await createAudience({ title: 'build DeFi protocols' }),
    await createAudience({ title: 'collect generative art on-chain', tag: 'aud-art' }),
    await createAudience({ title: 'audit smart contracts', tag: 'aud-audit' }),
  ];
  await createAudience({ title: 'steward DAO governance', tag: 'aud-dao', state: 'upcoming' });
  articleIds = [];
  for (let i = 0; i < ARTICLES; i++) {
    const canonicalUrl = `https://news.example/${i}-${ulid().toLowerCase()}`;
    await Articles.storeIfNew({
      canonicalUrl,
      title: `${titles[i % titles.length]} (${i})`,
      summary: titles[i % titles.length],
      publishedAt: new Date(Date.UTC(2026, 10, 1, 0, i)).toISOString(),
      source: 'Test Wire',
      streamId: 'stream-1',
      fingerprint: createHash('sha256').update(canonicalUrl).digest('hex'),
    });
    articleIds.push((await Articles.byUrl(canonicalUrl))!.id);
  }
});

type Message = QueueMessage;

const deliver = (...messages: Message[]) => Jobs.handleBatch(messages, Worker.jobs);

/** Runs a process to its end the way the worker does: its message, then its chunks, in parallel. */
async function runToEnd(process: Jobs.Process) {
  await deliver(...(await receive(process.id)));
  const chunks = await receive(process.id);
  await Promise.all(chunks.map((message) => deliver(message)));
  return { ended: (await Jobs.byId(process.id))!, chunks };
}

const outputOf = (process: Jobs.Process) => JSON.parse(process.output!) as Record<string, number>;

/** Each article's production scores for every audience there is. */
async function scoresPerArticle() {
  const audiences = await Audiences.list();
  return Promise.all(
    articleIds.map(async (id) => (await Scoring.forArticle(id, audiences)).scores),
  );
}

const audienceScores = async (audienceId: string) =>
  (
    await Scoring.ranked(Scoring.audienceTarget((await Audiences.byId(audienceId))!), CURRENT, {
      limit: 10,
    })
  ).scores;

describe('Score unscored articles (chunked)', () => {
  it(
    'scores every new article against every active audience in chunks; a rerun sends nothing',
    { timeout: 60_000 },
    async () => {
      const process = await Jobs.enqueue(Automations.scoreArticles, {}, 'admin-1');
      const { ended, chunks } = await runToEnd(process);
      expect(chunks).toHaveLength(Math.ceil(ARTICLES / Automations.ARTICLES_PER_CHUNK));
      expect(ended.status).toBe('Success');
      expect(outputOf(ended)).toMatchObject({
        chunks: 3,
        scored: ARTICLES * active.length,
        alreadyScored: 0,
        failed: 0,
        // One call per article: the three audiences share it.
        calls: ARTICLES,
        costUsd: 0,
      });
      expect(outputOf(ended).inputTokens).toBeGreaterThan(0);

      for (const scores of await scoresPerArticle()) {
        expect(scores.map((score) => score.matchingId).sort()).toEqual(
          active.map((audience) => audience.id).sort(),
        );
        for (const score of scores) {
          expect(Ai.RELEVANCE_LABELS).toContain(score.label);
          expect(score).toMatchObject({ processId: process.id, modelId: 'local:cluefeed-bm25' });
        }
      }

      const rerun = await Jobs.enqueue(Automations.scoreArticles, {}, 'admin-1');
      const again = await runToEnd(rerun);
      expect(again.chunks).toHaveLength(0);
      expect(again.ended.status).toBe('Success');
      expect(outputOf(again.ended)).toEqual({ chunks: 0 });
    },
  );

  it('resumes a run whose worker died mid-chunk without scoring any pair twice', async () => {
    const audience = await createAudience({ title: 'run validators', tag: 'aud-validators' });
    const process = await Jobs.enqueue(Automations.scoreArticles, {}, 'admin-1');
    await deliver(...(await receive(process.id)));
    const [first, ...rest] = await receive(process.id);
    const chunk = (JSON.parse(first!.body) as { chunk: number }).chunk;

    // The worker that took the first chunk scored part of it, then died before its checkpoint.
    const planned = (
      await Jobs.ProcessChunkEntity.get({ processId: process.id, index: chunk }).go()
    ).data!;
    const payload = JSON.parse(planned.payload) as {
      articleIds: string[];
      targets: Scoring.MatchingTarget[];
      prompt: { id: string; prompt: string };
      model: Ai.AiModelRef;
    };
    const setup = { prompt: payload.prompt, model: payload.model, processId: process.id };
    for (const article of await Articles.byIds(payload.articleIds.slice(0, 4)))
      await Scoring.scoreArticle(article, payload.targets, setup);

    // SQS hands its message out again; the other chunks run as usual.
    await Promise.all([deliver(first!), ...rest.map((message) => deliver(message))]);
    const ended = (await Jobs.byId(process.id))!;
    expect(ended.status).toBe('Success');
    // The three audiences of the first run were scored already; of the new one, the dead worker's 4.
    expect(outputOf(ended)).toMatchObject({
      scored: ARTICLES - 4,
      alreadyScored: ARTICLES * active.length + 4,
      failed: 0,
    });
    for (const scores of await scoresPerArticle())
      expect(scores.filter((score) => score.matchingId === audience.id)).toHaveLength(1);
  });
});

describe('Score articles experiment (chunked)', () => {
  it('counts, per chosen audience, the newest articles under each label, with a Total', async () => {
    const [defi, art] = active;
    const process = await Jobs.enqueue(
      Automations.scoreArticlesExperiment,
      { articleLimit: 10, audienceIds: [defi!.id, art!.id] },
      'admin-1',
    );
    const { ended } = await runToEnd(process);
    expect(ended.status).toBe('Success');
    const results = Automations.experimentResults(
      outputOf(ended),
      new Map(active.map((audience) => [audience.id, audience.title])),
    );
    expect(results.map((row) => row.matchingEntity).sort()).toEqual([
      'build DeFi protocols',
      'collect generative art on-chain',
    ]);
    for (const row of results) {
      const { Total, ...labels } = row.groupByMetricPerMatchingEntity;
      expect(Total).toBe(10);
      expect(Object.values(labels).reduce((sum, n) => sum + n, 0)).toBe(10);
    }
  });
});

describe('an import while scoring runs', () => {
  it('gets its new articles scored by a later run, though the running run was planned before them', async () => {
    const { scoreAfterImport } = await import('./scoring');
    const { logger } = await import('#core/logs');
    // Something left to score, so the run plans chunks and holds the scoring slot.
    await createAudience({ title: 'stake ETH at home', tag: 'aud-stakers' });
    const running = await Jobs.enqueue(Automations.scoreArticles, {}, 'admin-1');
    await deliver(...(await receive(running.id)));
    const chunks = await receive(running.id);
    expect(chunks.length).toBeGreaterThan(0);

    // The hourly import stores a new story meanwhile and asks for scoring: the slot is busy.
    const canonicalUrl = `https://news.example/late-${ulid().toLowerCase()}`;
    await Articles.storeIfNew({
      canonicalUrl,
      title: 'Home stakers get a new client release',
      summary: 'Solo stakers should upgrade before the fork.',
      publishedAt: new Date(Date.UTC(2026, 10, 2)).toISOString(),
      source: 'Test Wire',
      streamId: 'stream-1',
      fingerprint: createHash('sha256').update(canonicalUrl).digest('hex'),
    });
    const late = (await Articles.byUrl(canonicalUrl))!;
    await scoreAfterImport(1, { log: logger, systemUserId: 'scheduler' });

    await Promise.all(chunks.map((message) => deliver(message)));
    expect((await Jobs.byId(running.id))!.status).toBe('Success');

    // The running run was planned before the story: the scheduled scoring run takes it.
    const audiences = await Audiences.list();
    expect((await Scoring.forArticle(late.id, audiences)).scores).toHaveLength(0);
    await Worker.runSchedule('score-articles');
    const next = (await Jobs.lastRun(Automations.scoreArticles.name))!;
    expect(next.id).not.toBe(running.id);
    await runToEnd(next);
    expect((await Scoring.forArticle(late.id, audiences)).scores.length).toBeGreaterThan(0);
  });
});

describe('Clear table: Articles and scores', () => {
  it("leaves no scores of the cleared articles in an audience's recent scores", async () => {
    const { logger } = await import('#core/logs');
    const [defi] = active;
    expect((await audienceScores(defi!.id)).length).toBeGreaterThan(0);

    await Automations.clearTable.run(
      { collection: 'articles' },
      { processId: ulid(), systemUserId: 'admin-1', log: logger, progress: async () => {} },
    );

    expect(await Articles.count()).toBe(0);
    // Picks read these rows (the 200 best per audience): scores of articles that no longer exist
    // would only crowd them out.
    expect(await audienceScores(defi!.id)).toEqual([]);
  });
});

describe('scoring after an import', () => {
  it('queues a scoring run when an import stored new articles, and none when it stored nothing', async () => {
    const { scoreAfterImport } = await import('./scoring');
    const { logger } = await import('#core/logs');
    const context = { log: logger, systemUserId: 'scheduler' };
    const before = (await Jobs.lastRun(Automations.scoreArticles.name))?.id;

    await scoreAfterImport(0, context);
    expect((await Jobs.lastRun(Automations.scoreArticles.name))?.id).toBe(before);

    await scoreAfterImport(3, context);
    const queued = (await Jobs.lastRun(Automations.scoreArticles.name))!;
    expect(queued.id).not.toBe(before);
    expect(queued).toMatchObject({ status: 'Queued', systemUserId: 'scheduler' });
    await runToEnd(queued);
  });
});

describe('readers inside the chunked scoring runs', () => {
  // 'Clear table: Articles' above left none.
  beforeAll(async () => {
    for (let i = 0; i < 12; i++) {
      await createArticle({
        title: `${titles[i % titles.length]} for readers (${i})`,
        publishedAt: new Date(Date.UTC(2026, 10, 3, 0, i)).toISOString(),
      });
    }
  });

  it("scores every reader with clues in the same run as the audiences, over the readers' window", async () => {
    const { user: reader } = await readerWithPassword({ clues: ['run Ethereum validators'] });
    const { user: inactive } = await readerWithPassword({
      clues: ['run Ethereum validators'],
      isActive: false,
    });
    const { user: clueless } = await readerWithPassword();
    // setDescriptors queued a run for each reader's new clues: this test plays the schedule's run.
    const run = await Jobs.enqueue(Automations.scoreArticles, {}, 'admin-1');
    expect((await runToEnd(run)).ended.status).toBe('Success');

    const keys = await Scoring.productionKeys();
    const newest = (await Articles.latest(Automations.READER_ARTICLE_LIMIT)).map((a) => a.id);
    const targetOf = async (id: string) => Scoring.userTarget((await Users.byId(id))!);
    const scored = await Scoring.forPairs(newest, [await targetOf(reader.id)], keys);
    expect(scored.scores).toHaveLength(newest.length);
    for (const user of [inactive, clueless]) {
      expect((await Scoring.forPairs(newest, [await targetOf(user.id)], keys)).scores).toEqual([]);
    }
    expect(newest.length).toBe(12);
  });

  it("queues a run for a reader's changed clues that scores that reader only, and mails the ready feed once", async () => {
    const { user } = await readerWithPassword({ clues: ['stake ETH at home'] });
    const first = (await Jobs.lastRun(Automations.scoreNewClues.name))!;
    expect(first).toMatchObject({ slot: `score-new-clues#user#${user.id}`, status: 'Queued' });
    const done = await runToEnd(first);
    expect(done.ended.status).toBe('Success');
    const reader = await Users.byId(user.id);
    expect(reader?.feedReadyAt).toEqual(expect.any(String));
    const before = await Scoring.forReader(reader!);
    expect(Object.values(before.counts).reduce((n, c) => n + c, 0)).toBe(
      Math.min(Automations.READER_ARTICLE_LIMIT, (await Articles.latest(500)).length),
    );

    await Users.setDescriptors(user.id, ['collect generative art on-chain']);
    const changed = (await Jobs.lastRun(Automations.scoreNewClues.name))!;
    expect(changed.id).not.toBe(first.id);
    expect(JSON.parse(changed.input)).toEqual({ targets: [{ type: 'user', id: user.id }] });
    const again = await runToEnd(changed);
    expect(outputOf(again.ended)).toMatchObject({ failed: 0 });
    const after = await Scoring.forReader((await Users.byId(user.id))!);
    expect(Object.values(after.counts).reduce((n, c) => n + c, 0)).toBe(
      Object.values(before.counts).reduce((n, c) => n + c, 0),
    );
    expect(
      after.scores.every((score) =>
        (score.relevantClues ?? []).every((c) => c === 'collect generative art on-chain'),
      ),
    ).toBe(true);
    // The old clue set's entries and counts are swept once the new set is scored.
    const old = Scoring.userTarget(reader!);
    const keys = await Scoring.productionKeys();
    const newest = (await Articles.latest(Automations.READER_ARTICLE_LIMIT)).map((a) => a.id);
    expect((await Scoring.forPairs(newest, [old], keys)).scores).toEqual([]);
    expect(Object.values(await Scoring.labelCounts(old, keys))).toEqual([0, 0, 0, 0, 0]);
  });

  it('tells a reader whose feed was not ready yet once a scheduled run scores their clues, and only once', async () => {
    // Clues stored without queueing their run (as if queueing had failed): only the schedule scores them.
    const user = await Users.create({
      name: 'Late Reader',
      email: `late-${ulid().toLowerCase()}@example.org`,
      status: 'Onboarded',
    });
    await Users.UserEntity.patch({ id: user.id })
      .set({ descriptors: [{ id: ulid(), clue: 'run Ethereum validators' }] })
      .go();
    expect((await Users.byId(user.id))?.feedReadyAt).toBeUndefined();
    for (let round = 0; round < 2; round++) {
      const run = await Jobs.enqueue(Automations.scoreArticles, {}, 'admin-1');
      expect((await runToEnd(run)).ended.status).toBe('Success');
    }
    expect((await Users.byId(user.id))?.feedReadyAt).toEqual(expect.any(String));
    const mails = (await Outbox.recent({ limit: 200 })).filter(
      (email) => email.to === user.email && email.kind === 'feed-ready',
    );
    expect(mails).toHaveLength(1);
  });

  it("builds a reader's feed list with their run, and puts a story imported later into it with the next scheduled run", async () => {
    const { user } = await readerWithPassword({ clues: ['run Ethereum validators at home'] });
    expect(
      (await runToEnd((await Jobs.lastRun(Automations.scoreNewClues.name))!)).ended.status,
    ).toBe('Success');
    const built = (await Users.byId(user.id))!;
    const first = await Feed.page(built, { limit: 100 });
    expect(first.count).toBe(
      Math.min(Automations.READER_ARTICLE_LIMIT, (await Articles.latest(500)).length),
    );
    expect(first.stories.map((story) => story.articleId).sort()).toEqual(
      (await Scoring.forReader(built, { limit: 100 })).scores
        .map((score) => score.articleId)
        .sort(),
    );

    // A run with nothing new for the reader leaves their list as it is.
    expect(
      (await runToEnd(await Jobs.enqueue(Automations.scoreArticles, {}, 'admin-1'))).ended.status,
    ).toBe('Success');
    expect((await Users.byId(user.id))!.feedBuild).toBe(built.feedBuild);

    const story = await createArticle({
      title: 'Home stakers run Ethereum validators on a laptop',
      publishedAt: new Date(Date.UTC(2026, 10, 5)).toISOString(),
    });
    expect(
      (await runToEnd(await Jobs.enqueue(Automations.scoreArticles, {}, 'admin-1'))).ended.status,
    ).toBe('Success');
    const rebuilt = (await Users.byId(user.id))!;
    expect(rebuilt.feedBuild).not.toBe(built.feedBuild);
    const after = await Feed.page(rebuilt, { limit: 100 });
    expect(after.stories.map((s) => s.articleId)).toContain(story.id);
    // The newest window moved on by one story: the oldest of the window left it.
    expect(after.count).toBe(
      first.count + (first.count < Automations.READER_ARTICLE_LIMIT ? 1 : 0),
    );
  });

  it("queues a build of the reader's list for a dislike, which shows it and ends the update", async () => {
    const { user } = await readerWithPassword({ clues: ['run Ethereum validators at home'] });
    await runToEnd((await Jobs.lastRun(Automations.scoreNewClues.name))!);
    const before = await Feed.page((await Users.byId(user.id))!, { limit: 100 });
    const top = before.stories[0]!;
    await Feed.giveFeedback(user.id, { articleId: top.articleId, kind: 'dislike' });
    const build = (await Jobs.lastRun(Feed.buildFeedJob.name))!;
    expect(build).toMatchObject({ slot: `build-feed#${user.id}`, status: 'Queued' });
    expect((await runToEnd(build)).ended.status).toBe('Success');
    const reader = (await Users.byId(user.id))!;
    expect(reader.feedRequestedAt).toBeUndefined();
    const after = await Feed.page(reader, { limit: 100 });
    const moved = after.stories.find((story) => story.articleId === top.articleId)!;
    expect(moved.feedback).toBe('dislike');
  });

  it('keeps each chunk under its limits however many readers and clues there are', () => {
    const many = Array.from({ length: 120 }, (_, i) =>
      Scoring.userTarget({
        id: ulid(),
        descriptors: Array.from({ length: 50 }, (_, j) => ({
          clue: `reader ${i} clue ${j} `.padEnd(300, 'x'),
        })),
      }),
    );
    const groups = Automations.targetGroups(many);
    expect(groups.flat()).toEqual(many);
    for (const group of groups) {
      expect(group.length).toBeLessThanOrEqual(Automations.TARGETS_PER_CHUNK);
      expect(Buffer.byteLength(JSON.stringify(group))).toBeLessThan(100_000);
    }
  });
});

describe('an experiment keeps its scores to its run', () => {
  it('writes nothing to production, and a second run scores afresh', async () => {
    const [defi] = active;
    const input = {
      articleLimit: 5,
      audienceIds: [defi!.id],
      promptId: undefined,
    };
    const target = Scoring.audienceTarget(defi!);
    const newest = (await Articles.latest(5)).map((article) => article.id);
    // A fresh prompt: production has scored nothing with it.
    const prompt = await Prompts.create({
      expImplementationId: 'scoring',
      title: 'Try me',
      prompt: '{audience}\n{clues}\n{title}',
    });
    const keys = { promptId: prompt.id, modelId: CURRENT.modelId };
    const runs = [];
    for (let i = 0; i < 2; i++) {
      const process = await Jobs.enqueue(
        Automations.scoreArticlesExperiment,
        { ...input, promptId: prompt.id },
        'admin-1',
      );
      runs.push(outputOf((await runToEnd(process)).ended));
      expect(await Scoring.experimentScoresOf(process.id, newest, [target], keys)).toHaveLength(5);
    }
    expect(runs[0]).toMatchObject({ scored: 5, alreadyScored: 0 });
    expect(runs[1]).toMatchObject({ scored: 5, alreadyScored: 0 });
    expect((await Scoring.forPairs(newest, [target], keys)).scores).toEqual([]);
  });
});
