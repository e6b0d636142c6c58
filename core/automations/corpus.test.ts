// The local ranker's corpus snapshot: the import queues its refresh, a refresh stores what the
// newest articles say (and nothing new when they say the same), a refresh that stops before its
// write leaves the old snapshot, racing refreshes keep one whole snapshot, and the local provider
// reads the snapshot through a short cache. The file has a table of its own: the snapshot is one
// item per table.
import { createHash } from 'node:crypto';
import { ulid } from 'ulid';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as Ai from '#core/ai';
import * as Articles from '#core/articles';
import * as Automations from '#core/automations';
import * as Worker from '#core/worker';
import { logger } from '#core/logs';
import * as Jobs from '#core/jobs';
import * as Streams from '#core/streams';
import { startFeedServer, type FeedServer } from '#tests/fakes/feed-server';
import { receive } from '#tests/integration/job-queue';
import { useOwnTable } from '#tests/integration/own-table';

useOwnTable('corpus');

let server: FeedServer;
beforeAll(async () => {
  server = await startFeedServer();
});
afterAll(() => server.stop());
afterEach(() => vi.restoreAllMocks());

const context = () => ({
  processId: ulid(),
  systemUserId: 'admin-1',
  log: logger,
  progress: async () => {},
});

async function storeArticle(title: string, summary = '') {
  const canonicalUrl = `https://news.example/${ulid().toLowerCase()}`;
  await Articles.storeIfNew({
    canonicalUrl,
    title,
    summary,
    source: 'Test Wire',
    streamId: 'stream-1',
    fingerprint: createHash('sha256').update(canonicalUrl).digest('hex'),
  });
}

/** A refresh run as the worker runs it, with what it reports. */
const refresh = async () =>
  (await Automations.refreshCorpus.run({}, context())) as {
    articles: number;
    outcome: Ai.RefreshOutcome;
  };

const storedItem = async () => (await Ai.CorpusStatsEntity.get({}).go({ consistent: true })).data;

/** Runs a queued process the way the worker does. */
async function runQueued(process: Jobs.Process) {
  await Jobs.handleBatch(await receive(process.id), Worker.jobs);
  return Jobs.byId(process.id);
}

describe('the corpus refresh after an import', () => {
  it('is queued when an import stores new articles, learns them, and is not queued when it stores none', async () => {
    const [url] = server.addGenerated(1, 3);
    await Streams.create({ name: 'Generated', url: url! });
    await Automations.importArticles.run({}, context());
    const queued = (await Jobs.lastRun(Automations.refreshCorpus.name))!;
    expect(queued).toMatchObject({ status: 'Queued', systemUserId: 'admin-1' });
    expect((await runQueued(queued))!.status).toBe('Success');
    expect((await Ai.corpusSnapshot())!.documents).toBe(await Articles.count());

    // The feed again: nothing new, so no refresh.
    await Automations.importArticles.run({}, context());
    expect((await Jobs.lastRun(Automations.refreshCorpus.name))!.id).toBe(queued.id);
  });
});

describe('a corpus refresh', () => {
  it('gives the same item when run twice over the same articles', async () => {
    await storeArticle('Lending protocols add isolated markets', 'DeFi lending, market by market.');
    const first = await refresh();
    expect(first.outcome).toBe('saved');
    const item = await storedItem();
    expect(item!.documents).toBe(first.articles);

    const second = await refresh();
    expect(second).toEqual({ articles: first.articles, outcome: 'unchanged' });
    expect(await storedItem()).toEqual(item);
  });

  it('that stops before its write leaves the old snapshot, and the next run stores the new one', async () => {
    await refresh();
    const before = await storedItem();
    await storeArticle('Validators upgrade their clients before the fork');
    vi.spyOn(Ai.CorpusStatsEntity, 'put').mockImplementation(() => {
      throw new Error('the worker stopped');
    });
    await expect(refresh()).rejects.toThrow('the worker stopped');
    expect(await storedItem()).toEqual(before);

    vi.restoreAllMocks();
    expect((await refresh()).outcome).toBe('saved');
    expect((await storedItem())!.documents).toBe(before!.documents + 1);
  });

  it('racing another keeps one whole snapshot: the one written last from the state it read', async () => {
    const vectors = await Ai.wordVectors();
    const hashOf = (docs: Ai.CorpusDocument[]) =>
      createHash('sha256')
        .update(Ai.serialiseCorpus(Ai.buildCorpus(docs, vectors)))
        .digest('hex');
    const rounds = ['amber', 'birch', 'cedar', 'delta', 'ember'];
    for (const word of rounds) {
      // Each side's words in two documents, so the statistics keep them and the sides differ.
      const twice = (title: string) => [title, title].map((t) => ({ title: t, summary: '' }));
      const a = twice(`${word} lending markets`);
      const b = twice(`${word} generative art`);
      const outcomes = await Promise.all([Ai.refreshCorpus(a), Ai.refreshCorpus(b)]);
      expect(outcomes.filter((outcome) => outcome === 'saved').length).toBeGreaterThan(0);
      for (const outcome of outcomes) expect(['saved', 'superseded']).toContain(outcome);
      const stored = (await storedItem())!.hash;
      expect([hashOf(a), hashOf(b)]).toContain(stored);
      // A superseded refresh is the one whose snapshot is not there.
      if (outcomes[0] === 'superseded') expect(stored).toBe(hashOf(b));
      if (outcomes[1] === 'superseded') expect(stored).toBe(hashOf(a));
    }
  });

  it('from the seed keeps a snapshot already stored', async () => {
    const before = await storedItem();
    expect(
      await Ai.refreshCorpus([{ title: 'A seed post', summary: '' }], { onlyIfMissing: true }),
    ).toBe('kept');
    expect(await storedItem()).toEqual(before);
  });
});

describe("the local provider's default corpus", () => {
  it('is the stored snapshot, read again once its cache time has passed', async () => {
    const history = ['Ten easy weeknight pasta recipes (foodanddrink)'];
    const news = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        title: `Story ${i}`,
        summary: '',
        category: i === 0 ? 'foodanddrink' : 'sports',
      }));
    await Ai.refreshCorpus(news(10));
    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now);
    expect((await Ai.storedCorpus())!.documents).toBe(10);

    await Ai.refreshCorpus(news(20));
    expect((await Ai.storedCorpus())!.documents).toBe(10);
    vi.spyOn(Date, 'now').mockReturnValue(now + Ai.CORPUS_CACHE_MS);
    const corpus = (await Ai.storedCorpus())!;
    expect(corpus.documents).toBe(20);
    expect(corpus.facets.category.get('foodanddrink')).toBe(1);

    // The provider built without a loader rates with it: a rare category the reader reads
    // counts for more than with the request's own texts as the corpus.
    const story = { title: 'A story of the day', summary: '', category: 'foodanddrink' };
    const rate = async (provider: Ai.Ai) =>
      (
        await provider.complete({
          model: { id: 'local:cluefeed-bm25', ...Ai.LOCAL_MODELS.gpt },
          task: Ai.articleRelevance,
          input: { article: story, clues: history },
          user: '',
        })
      ).answer.score;
    expect(await rate(Ai.localProvider())).toBeGreaterThan(
      await rate(Ai.localProvider({ corpus: async () => undefined })),
    );
  });
});
