import { createHash } from 'node:crypto';
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import * as Articles from '#core/articles';
import { logger } from '#core/logs';
import * as Prompts from '#core/prompts';
import * as Scoring from '#core/scoring';
import { createAudience } from '#tests/integration/factories';
import { useOwnTable } from '#tests/integration/own-table';

useOwnTable('prompt-testing');

const context = () => ({ processId: ulid(), log: logger, progress: async () => {} });

async function article(title: string) {
  const canonicalUrl = `https://${ulid().toLowerCase()}.example/story`;
  await Articles.storeIfNew({
    canonicalUrl,
    title,
    summary: title,
    publishedAt: '2026-02-01T00:00:00.000Z',
    source: 'Test Wire',
    streamId: ulid(),
    fingerprint: createHash('sha256').update(canonicalUrl).digest('hex'),
  });
}

describe('prompt testing', () => {
  it('scores the newest articles for one audience with every saved prompt, side by side', async () => {
    await article('Smart contract auditors find a reentrancy bug in a lending pool');
    await article('A generative art collection sells out');
    const audience = await createAudience({ title: 'audit smart contracts' });
    const prompt = '{audience}\n{clues}\n{title}';
    await Prompts.create({ expImplementationId: 'prompt-testing', title: 'Terse', prompt });
    await Prompts.create({
      expImplementationId: 'prompt-testing',
      title: 'Verbose',
      prompt: `Think. ${prompt}`,
    });

    const first = await Scoring.testPrompts(audience.id, context());
    expect(first.results.map((result) => result.title)).toEqual(['Verbose', 'Terse']);
    for (const result of first.results) {
      expect(result.labels.Total).toBeGreaterThanOrEqual(2);
      expect(result.top[0]!.title).toBe(
        'Smart contract auditors find a reentrancy bug in a lending pool',
      );
    }
    expect(first.scored).toBe(first.results.reduce((n, result) => n + result.labels.Total!, 0));

    // A test is an experiment: testing again scores afresh in its own run, alike, and nothing
    // of either run is in production's store.
    const again = await Scoring.testPrompts(audience.id, context());
    expect(again.scored).toBe(first.scored);
    expect(again.results[0]!.labels).toEqual(first.results[0]!.labels);
    const articles = await Articles.latest(Scoring.PROMPT_TEST_ARTICLES);
    for (const prompt of await Prompts.list('prompt-testing')) {
      const stored = await Scoring.forPairs(
        articles.map((article) => article.id),
        [Scoring.audienceTarget(audience)],
        { promptId: prompt.id, modelId: 'local:cluefeed-bm25' },
      );
      expect(stored.scores).toEqual([]);
    }
  });

  it('answers the spec message for an audience that does not exist', async () => {
    await expect(Scoring.testPrompts(ulid(), context())).rejects.toThrow(
      'Prompt testing error: Please select an audience',
    );
  });
});
