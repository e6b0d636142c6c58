// The scheduled scoring's planning by per-target watermarks (ADR 0065), through the job runtime on
// a table of its own: what a run plans, what it looks up to plan it (storage calls counted), and
// what it must plan again (failed pairs, new targets).
import { ulid } from 'ulid';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { receive } from '#tests/integration/job-queue';
import type * as Ai from '#core/ai';
import * as Articles from '#core/articles';
import * as Automations from '#core/automations';
import { countStorageCalls } from '#core/db';
import * as Jobs from '#core/jobs';
import * as Scoring from '#core/scoring';
import * as Users from '#core/users';
import * as Worker from '#core/worker';
import { startFakeOpenAi, type FakeOpenAi } from '#tests/fakes/openai';
import { createArticle, createAudience } from '#tests/integration/factories';
import { readerWithPassword } from '#tests/integration/readers';
import { useOwnTable } from '#tests/integration/own-table';
import { plannedPairs } from './scoring';

/** One more than a reader's window: the oldest published is outside it. */
const ARTICLES = Automations.READER_ARTICLE_LIMIT + 1;
const MINUTE = 60_000;
/** The first run scores every window pair (about 200) on DynamoDB Local, slow on a loaded machine. */
const FIRST_RUN_MS = 180_000;

useOwnTable('scoring-watermark');

let audience: Scoring.MatchingTarget;
let readerId: string;
let keys: Scoring.SetupKeys;

const deliver = (...messages: Awaited<ReturnType<typeof receive>>) =>
  Jobs.handleBatch(messages, Worker.jobs);

async function runToEnd(process: Jobs.Process) {
  await deliver(...(await receive(process.id)));
  await Promise.all((await receive(process.id)).map((message) => deliver(message)));
  return (await Jobs.byId(process.id))!;
}

const outputOf = (process: Jobs.Process) => JSON.parse(process.output!) as Record<string, number>;
const reader = async () => Scoring.userTarget((await Users.byId(readerId))!);

/**
 * The scheduled run's planning alone, counted: the pairs it plans and the calls it makes. The
 * watermarks it moves name a run that never ends, so the next real run checks what it planned.
 */
async function planCounted() {
  const processId = ulid();
  const setup = await Scoring.defaultSetup(processId);
  const { result, calls } = await countStorageCalls(() => plannedPairs({}, { processId }, setup));
  const pairs = [...result.work].flatMap(([articleId, targets]) =>
    targets.map((target) => `${articleId}|${target.type}#${target.id}`),
  );
  return { pairs, lookups: calls['dynamodb BatchGetItem'] ?? 0, calls };
}

/** Stores an article as an import at `at` stamps it (its transaction with the import time). */
async function importedAt(at: number, overrides: Parameters<typeof createArticle>[0] = {}) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(at);
  try {
    return await createArticle(overrides);
  } finally {
    vi.useRealTimers();
  }
}

beforeAll(async () => {
  audience = Scoring.audienceTarget(await createAudience({ title: 'build DeFi protocols' }));
  // Imported ten minutes ago, a second apart, published an hour apart.
  const start = Date.now() - 10 * MINUTE;
  for (let i = 0; i < ARTICLES; i++) {
    await importedAt(start + i * 1000, {
      title: `DeFi lending markets, part ${i}`,
      publishedAt: new Date(Date.UTC(2026, 10, 20, i % 24, i)).toISOString(),
    });
  }
  const { user } = await readerWithPassword({ clues: ['build DeFi lending protocols'] });
  // Its clues queued a run of their own, left queued: the schedule's runs below plan them.
  readerId = user.id;
  keys = await Scoring.productionKeys();
}, FIRST_RUN_MS);

describe('a scoring run planned by watermarks', { timeout: 60_000 }, () => {
  it(
    'plans targets without a watermark from the window, looking each pair up, and writes their watermarks',
    async () => {
      const first = await planCounted();
      // The audience's window holds every article, the reader's the newest 100 by publication.
      expect(first.pairs).toHaveLength(ARTICLES + Automations.READER_ARTICLE_LIMIT);
      // One BatchGetItem per article and kind of target, and the watermarks' (cost.md, item 3).
      expect(first.lookups).toBe(ARTICLES + Automations.READER_ARTICLE_LIMIT + 1);

      const run = await runToEnd(await Jobs.enqueue(Automations.scoreArticles, {}, 'admin-1'));
      expect(run.status).toBe('Success');
      const marks = await Scoring.watermarks([audience, await reader()], keys);
      const newestImport = (await Articles.importedAfter('', 1))[0]!.importedAt;
      for (const target of [audience, await reader()]) {
        expect(marks.get(`${target.type}#${target.id}`)).toMatchObject({
          importedUpTo: newestImport,
          plannedBy: run.id,
          since: '',
        });
      }
    },
    FIRST_RUN_MS,
  );

  it('plans nothing and looks no score up on a run with no new articles', async () => {
    const second = await planCounted();
    expect(second.pairs).toEqual([]);
    // Users, audiences, imports and failures; the targets' watermarks (one BatchGetItem however
    // many articles there are) and the run that wrote them.
    expect(second.calls).toEqual({
      'dynamodb Query': 4,
      'dynamodb BatchGetItem': 1,
      'dynamodb GetItem': 1,
    });
  });

  it('ends a run with nothing to plan without reading every user', async () => {
    const process = await Jobs.enqueue(Automations.scoreArticles, {}, 'admin-1');
    const { calls } = await countStorageCalls(() => runToEnd(process));
    expect((await Jobs.byId(process.id))!.status).toBe('Success');
    // The watermarks only: no count shards of each reader's list, no score looked up.
    expect(calls['dynamodb BatchGetItem']).toBe(1);
  });

  it('plans an article imported now but published a week ago, without a lookup', async () => {
    const late = await importedAt(Date.now() - 2 * MINUTE, {
      title: 'A DeFi lending protocol post-mortem, published last week',
      publishedAt: new Date(Date.UTC(2026, 10, 13)).toISOString(),
    });
    const window = await Articles.latest(Automations.READER_ARTICLE_LIMIT);
    expect(window.map((article) => article.id)).not.toContain(late.id);

    const planned = await planCounted();
    expect(planned.pairs.sort()).toEqual(
      [`${late.id}|audience#${audience.id}`, `${late.id}|user#${readerId}`].sort(),
    );
    expect(planned.lookups).toBe(1);

    expect(
      (await runToEnd(await Jobs.enqueue(Automations.scoreArticles, {}, 'admin-1'))).status,
    ).toBe('Success');
    const { scores } = await Scoring.forPairs([late.id], [audience, await reader()], keys);
    expect(scores).toHaveLength(2);
    expect((await planCounted()).pairs).toEqual([]);
  });

  describe('pairs a run did not score', () => {
    let fake: FakeOpenAi;
    let broken: Ai.AiModelRef;
    beforeAll(async () => {
      fake = await startFakeOpenAi('not-needed');
      // Production's model id, served by the fake: the run's pairs keep production's keys.
      broken = {
        id: keys.modelId,
        provider: 'openai-compatible',
        model: 'gpt-4o-mini',
        modelType: 'gpt',
        baseUrl: fake.url,
      };
    });
    afterAll(() => fake.stop());

    /** Plans a run, then has its chunks call the fake instead of production's model. */
    async function plannedWithBrokenModel() {
      const process = await Jobs.enqueue(Automations.scoreArticles, {}, 'admin-1');
      await deliver(...(await receive(process.id)));
      const chunks = await Jobs.ProcessChunkEntity.query
        .byProcess({ processId: process.id })
        .go({ pages: 'all' });
      for (const chunk of chunks.data) {
        const payload = JSON.parse(chunk.payload) as { model: Ai.AiModelRef };
        await Jobs.ProcessChunkEntity.patch({ processId: process.id, index: chunk.index })
          .set({ payload: JSON.stringify({ ...payload, model: broken }) })
          .go();
      }
      return process;
    }

    /** The next run plans both of the story's pairs again, and scores them. */
    async function plannedAgainAndScored(story: { id: string }) {
      const again = await planCounted();
      expect(again.pairs.sort()).toEqual(
        [`${story.id}|audience#${audience.id}`, `${story.id}|user#${readerId}`].sort(),
      );
      expect(
        outputOf(await runToEnd(await Jobs.enqueue(Automations.scoreArticles, {}, 'admin-1'))),
      ).toMatchObject({ scored: 2, failed: 0 });
    }

    it('are planned again after a run that failed, though the watermark passed them', async () => {
      const story = await importedAt(Date.now() - 2 * MINUTE, {
        title: 'Auditors find a bug in a DeFi lending market',
      });
      const process = await plannedWithBrokenModel();
      // A revoked key fails every call alike: the chunk fails on each of its attempts.
      const [message] = await receive(process.id);
      for (let attempt = 0; attempt < Jobs.MAX_ATTEMPTS; attempt++) {
        fake.script({ status: 401, message: 'Incorrect API key provided' });
        await deliver(message!);
      }
      expect((await Jobs.byId(process.id))!.status).toBe('Failed');
      const marks = await Scoring.watermarks([audience], keys);
      expect(marks.get(`audience#${audience.id}`)).toMatchObject({
        importedUpTo: story.importedAt,
        plannedBy: process.id,
      });

      await plannedAgainAndScored(story);
      expect((await planCounted()).pairs).toEqual([]);
    });

    /** A story imported now whose pairs the model answers with nonsense in the run that plans them. */
    async function failedOnce(title: string) {
      const story = await importedAt(Date.now() - 2 * MINUTE, { title });
      const process = await plannedWithBrokenModel();
      fake.mode = 'malformed';
      await Promise.all((await receive(process.id)).map((message) => deliver(message)));
      fake.mode = undefined;
      return { story, process };
    }

    it('the model could not score are planned again by the next run, though the watermark passed them', async () => {
      const { story, process } = await failedOnce('Lending protocols add isolated markets');
      const ended = (await Jobs.byId(process.id))!;
      expect(ended.status).toBe('Success');
      expect(outputOf(ended)).toMatchObject({ scored: 0, failed: 2 });
      const marks = await Scoring.watermarks([audience], keys);
      expect(marks.get(`audience#${audience.id}`)!.importedUpTo).toBe(story.importedAt);

      await plannedAgainAndScored(story);
      const after = await Scoring.forPairs([story.id], [audience, await reader()], keys);
      expect(after.scores).toHaveLength(2);
      expect(after.failures).toEqual([]);
      expect((await planCounted()).pairs).toEqual([]);
    });

    it(`are not planned again once the model failed them ${Scoring.FAILURE_ATTEMPTS} times`, async () => {
      const { story } = await failedOnce('A lending market pauses borrowing after an oracle fault');
      const { failures } = await Scoring.forPairs([story.id], [audience, await reader()], keys);
      expect(failures).toHaveLength(2);
      // One pair has been tried as often as the planning tries; the other once.
      const [spent, once] = failures;
      await Scoring.ScoreFailureEntity.patch(spent!)
        .set({ attempts: Scoring.FAILURE_ATTEMPTS })
        .go();
      const again = await planCounted();
      const key = (failure: typeof once) =>
        `${failure!.articleId}|${failure!.matchingType}#${failure!.matchingId}`;
      expect(again.pairs).toEqual([key(once)]);
      // The tests after this one start from no failure.
      for (const failure of failures) await Scoring.ScoreFailureEntity.delete(failure).go();
    });
  });

  it('leaves the newer watermark when two planners write at once, in either order', async () => {
    const target = Scoring.audienceTarget({ id: ulid(), title: 'audit smart contracts' });
    const older = {
      importedUpTo: '2026-12-01T10:00:00.000Z',
      plannedAt: '2026-12-01T10:00:05.000Z',
      plannedBy: 'run-a',
      since: '',
    };
    const newer = {
      importedUpTo: '2026-12-01T10:05:00.000Z',
      plannedAt: '2026-12-01T10:05:02.000Z',
      plannedBy: 'run-b',
      since: older.importedUpTo,
    };
    for (const order of [
      [older, newer],
      [newer, older],
    ]) {
      await Scoring.forgetTarget(target);
      const written = await Promise.all(
        order.map((mark) => Scoring.markPlanned(target, keys, mark)),
      );
      expect(written.filter(Boolean).length).toBeGreaterThanOrEqual(1);
      const mark = (await Scoring.watermarks([target], keys)).get(`audience#${target.id}`);
      expect(mark).toMatchObject(newer);
      // A planner that read the newer mark never moves it back either.
      expect(await Scoring.markPlanned(target, keys, older)).toBe(false);
    }
  });

  it('plans a new reader and changed clues from the window, each pair looked up', async () => {
    const { user: newcomer } = await readerWithPassword({ clues: ['audit DeFi lending markets'] });
    await Users.setDescriptors(readerId, ['collect generative art on-chain']);
    const planned = await planCounted();
    const window = (await Articles.latest(Automations.READER_ARTICLE_LIMIT)).map((a) => a.id);
    for (const id of [newcomer.id, readerId]) {
      expect(planned.pairs.filter((pair) => pair.endsWith(`|user#${id}`)).sort()).toEqual(
        window.map((articleId) => `${articleId}|user#${id}`).sort(),
      );
    }
    expect(planned.pairs.some((pair) => pair.endsWith(`|audience#${audience.id}`))).toBe(false);
    expect(planned.lookups).toBeGreaterThanOrEqual(window.length);
  });
});
