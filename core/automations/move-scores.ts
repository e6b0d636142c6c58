// 'Move scores to the new keys' (ADR 0033): the scores and failures the store before ADR 0033
// kept in each article's partition move to their audience's or reader's partition, keyed by the
// clues the target has now (what production showed them as until now). Chunks of articles run
// in parallel; each score is written with its count in one conditional transaction before its
// old item is deleted, so a rerun, a redelivered chunk or a crash between the two writes moves
// nothing twice and counts nothing twice. Not moved, so the next scoring run scores them again:
// failures; scores by the local model (made by the ranker before ADR 0031, under the same model
// id, and free to redo); scores an experiment or prompt test made (not a 'scoring' prompt). Picks and cards keep their own copy of what a score said
// and never referred to score keys, so they stay as they are.
import type { EntityItem } from 'electrodb';
import * as v from 'valibot';
import { ArticleEntity } from '#core/articles';
import * as Audiences from '#core/audiences';
import { deleteAll } from '#core/db';
import * as Jobs from '#core/jobs';
import * as Prompts from '#core/prompts';
import * as Scoring from '#core/scoring';
import * as Users from '#core/users';

/** Articles per chunk: each is one Query of its old partition. */
export const MOVE_ARTICLES_PER_CHUNK = 25;

type OldScore = EntityItem<typeof Scoring.V1ScoreEntity>;

/** The target an old score was made for, with the clues it has now; undefined when it is gone. */
async function targetsOf(scores: OldScore[]): Promise<Map<string, Scoring.MatchingTarget>> {
  const audienceIds = [
    ...new Set(scores.filter((s) => s.matchingType === 'audience').map((s) => s.matchingId)),
  ];
  const userIds = [
    ...new Set(scores.filter((s) => s.matchingType === 'user').map((s) => s.matchingId)),
  ];
  const [audiences, users] = await Promise.all([
    Audiences.byIds(audienceIds),
    Promise.all(userIds.map((id) => Users.byId(id))),
  ]);
  const targets = [
    ...audiences.map(Scoring.audienceTarget),
    ...users.flatMap((user) => (user ? [Scoring.userTarget(user)] : [])),
  ];
  return new Map(targets.map((target) => [`${target.type}#${target.id}`, target]));
}

/** Whether production may read an old score: a 'scoring' prompt's, by a model other than the local one. */
async function worthMoving(
  score: OldScore,
  scoringPrompts: Map<string, boolean>,
): Promise<boolean> {
  if (score.modelId.startsWith('local:')) return false;
  if (score.promptId === Prompts.defaultPromptId('scoring')) return true;
  if (!scoringPrompts.has(score.promptId)) {
    const prompt = await Prompts.byId(score.promptId);
    scoringPrompts.set(score.promptId, prompt?.expImplementationId === 'scoring');
  }
  return scoringPrompts.get(score.promptId)!;
}

/** Moves one article's old scores; answers how many moved, were there already, or were dropped. */
async function moveArticle(articleId: string) {
  const totals = { moved: 0, alreadyMoved: 0, orphaned: 0, dropped: 0, failuresDropped: 0 };
  const scoringPrompts = new Map<string, boolean>();
  const [{ data: scores }, { data: failures }] = await Promise.all([
    Scoring.V1ScoreEntity.query.byArticle({ articleId }).go({ pages: 'all' }),
    Scoring.V1ScoreFailureEntity.query.byArticle({ articleId }).go({ pages: 'all' }),
  ]);
  const targets = await targetsOf(scores);
  for (const old of scores) {
    const target = targets.get(`${old.matchingType}#${old.matchingId}`);
    if (!target) {
      totals.orphaned++;
    } else if (!(await worthMoving(old, scoringPrompts))) {
      totals.dropped++;
    } else {
      const moved = await Scoring.storeScore(
        articleId,
        target,
        { promptId: old.promptId, modelId: old.modelId },
        {
          label: old.label,
          score: old.score,
          reason: old.reason,
          relevantClues: old.relevantClues ?? [],
          publishedAt: old.publishedAt,
          processId: old.processId,
          inputTokens: old.inputTokens ?? 0,
          outputTokens: old.outputTokens ?? 0,
          ...(old.costUsd !== undefined && { costUsd: old.costUsd }),
        },
      );
      totals[moved ? 'moved' : 'alreadyMoved']++;
    }
    // Only once its new entry stands (or its target is gone): a crash before this leaves it to move again.
    const { articleId: id, promptId, modelId, matchingType, matchingId } = old;
    await Scoring.V1ScoreEntity.delete({
      articleId: id,
      promptId,
      modelId,
      matchingType,
      matchingId,
    }).go();
  }
  await deleteAll(Scoring.V1ScoreFailureEntity, failures);
  totals.failuresDropped = failures.length;
  return totals;
}

export const moveScores = Jobs.defineChunkedJob({
  name: 'move-scores',
  title: 'Moving scores to the new keys',
  // Scoring writes the same new entries: the two never run at once.
  slot: 'scoring',
  input: v.object({}),
  async plan(_input, context): Promise<string[][]> {
    const chunks: string[][] = [];
    let cursor: string | null = null;
    do {
      const page: { data: { id: string }[]; cursor: string | null } = await ArticleEntity.query
        .latest({})
        .go({ cursor, limit: MOVE_ARTICLES_PER_CHUNK, attributes: ['id'] });
      if (page.data.length > 0) chunks.push(page.data.map(({ id }) => id));
      cursor = page.cursor;
    } while (cursor);
    context.log.info(`Moving the scores of ${chunks.flat().length} article(s)`);
    return chunks;
  },
  async runChunk(articleIds) {
    const totals = { moved: 0, alreadyMoved: 0, orphaned: 0, dropped: 0, failuresDropped: 0 };
    for (const articleId of articleIds) {
      const done = await moveArticle(articleId);
      for (const key of Object.keys(totals) as (keyof typeof totals)[]) totals[key] += done[key];
    }
    return totals;
  },
});
