// 'Move scores to the new keys' through the job runtime, on a table of its own: old scores in
// article partitions move to their target's partition once, however often the job runs or
// wherever a run crashed.
import { ulid } from 'ulid';
import { beforeAll, describe, expect, it } from 'vitest';
import * as Ai from '#core/ai';
import * as Automations from '#core/automations';
import * as Worker from '#core/worker';
import * as Jobs from '#core/jobs';
import * as Scoring from '#core/scoring';
import * as Users from '#core/users';
import { createArticle, createAudience } from '#tests/integration/factories';
import { runToEnd } from '#tests/integration/job-queue';
import { useOwnTable } from '#tests/integration/own-table';

useOwnTable('move-scores');

const KEYS = { promptId: 'default-scoring', modelId: 'openai:gpt-4o-mini' };
let audience: Scoring.MatchingTarget;
let reader: Scoring.MatchingTarget;
let articleIds: string[];

/** A score as the store before ADR 0033 wrote it. */
async function oldScore(
  articleId: string,
  target: { type: 'audience' | 'user'; id: string },
  i: number,
  keys = KEYS,
) {
  const label = Ai.RELEVANCE_LABELS[i % Ai.RELEVANCE_LABELS.length]!;
  await Scoring.V1ScoreEntity.create({
    articleId,
    matchingType: target.type,
    matchingId: target.id,
    ...keys,
    label,
    score: 0.2 * (i % 5),
    reason: `Reason ${i}.`,
    relevantClues: [],
    publishedAt: new Date(Date.UTC(2026, 10, 1, i)).toISOString(),
    processId: 'old-run',
    createdAt: '2026-11-01T00:00:00.000Z',
  }).go();
}

const total = (counts: Scoring.LabelCounts) => Object.values(counts).reduce((n, c) => n + c, 0);

const oldLeft = async () =>
  (
    await Promise.all(
      articleIds.map((articleId) => Scoring.V1ScoreEntity.query.byArticle({ articleId }).go()),
    )
  ).flatMap(({ data }) => data);

beforeAll(async () => {
  const created = await createAudience({ title: 'build DeFi protocols' });
  audience = Scoring.audienceTarget(created);
  const user = await Users.create({
    name: 'Ada',
    email: `ada-${ulid().toLowerCase()}@example.org`,
  });
  await Users.UserEntity.patch({ id: user.id })
    .set({ descriptors: [{ id: ulid(), clue: 'audit lending markets' }] })
    .go();
  reader = Scoring.userTarget((await Users.byId(user.id))!);
  articleIds = [];
  for (let i = 0; i < 30; i++) {
    const article = await createArticle({ title: `Story ${i}` });
    articleIds.push(article.id);
    await oldScore(article.id, audience, i);
    await oldScore(article.id, reader, i + 1);
  }
  // A removed audience's score, and a failure: neither moves.
  await oldScore(articleIds[0]!, { type: 'audience', id: ulid() }, 0);
  // Nor the old local ranker's score, nor a prompt test's: production scores those pairs again.
  await oldScore(articleIds[2]!, { type: 'user', id: ulid() }, 2, KEYS);
  await oldScore(articleIds[2]!, audience, 2, { ...KEYS, modelId: 'local:cluefeed-bm25' });
  await oldScore(articleIds[3]!, audience, 3, { ...KEYS, promptId: 'prompt-test-1' });
  await Scoring.V1ScoreFailureEntity.create({
    articleId: articleIds[1]!,
    matchingType: 'audience',
    matchingId: audience.id,
    ...KEYS,
    error: 'A bad answer',
    processId: 'old-run',
    lastTriedAt: '2026-11-01T00:00:00.000Z',
  }).go();
});

describe('Move scores to the new keys', () => {
  it('moves every score to its target, counted once, even after a crash between its two writes, and moves nothing on a rerun', async () => {
    // A run that crashed after writing the first article's new entry, before deleting the old one.
    const { data: first } = await Scoring.V1ScoreEntity.query
      .byArticle({ articleId: articleIds[0]! })
      .go();
    const crashed = first.find((score) => score.matchingId === audience.id)!;
    await Scoring.storeScore(articleIds[0]!, audience, KEYS, {
      label: crashed.label,
      score: crashed.score,
      reason: crashed.reason,
      relevantClues: [],
      publishedAt: crashed.publishedAt,
      processId: crashed.processId,
      inputTokens: 0,
      outputTokens: 0,
    });

    const process = await Jobs.enqueue(Automations.moveScores, {}, 'admin-1');
    const { ended, chunks } = await runToEnd(process.id, Worker.jobs);
    expect(chunks).toHaveLength(Math.ceil(30 / Automations.MOVE_ARTICLES_PER_CHUNK));
    expect(ended.status).toBe('Success');
    expect(JSON.parse(ended.output!)).toMatchObject({
      moved: 59,
      alreadyMoved: 1,
      orphaned: 2,
      dropped: 2,
      failuresDropped: 1,
    });
    expect(await oldLeft()).toEqual([]);

    for (const target of [audience, reader]) {
      const counts = await Scoring.labelCounts(target, KEYS);
      expect(total(counts)).toBe(30);
      for (const label of Ai.RELEVANCE_LABELS) expect(counts[label]).toBe(6);
      const { scores } = await Scoring.ranked(target, KEYS, { limit: 100 });
      expect(scores).toHaveLength(30);
      expect(scores.every((score) => score.processId === 'old-run')).toBe(true);
    }
    const moved = (await Scoring.forPairs([articleIds[5]!], [audience], KEYS)).scores[0]!;
    expect(moved).toMatchObject({ reason: 'Reason 5.', label: Ai.RELEVANCE_LABELS[0], score: 0 });

    const again = await Jobs.enqueue(Automations.moveScores, {}, 'admin-1');
    const rerun = await runToEnd(again.id, Worker.jobs);
    expect(JSON.parse(rerun.ended.output!)).toMatchObject({ moved: 0, alreadyMoved: 0 });
    expect(total(await Scoring.labelCounts(audience, KEYS))).toBe(30);
  });
});
