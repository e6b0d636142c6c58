// Reads and writes of the score store (entity.ts, ADR 0033). Production scores go to the target's
// partition with their two read models in one transaction; an experiment's scores go to its run.
// Every read is a GetItem, a BatchGetItem of known keys or one bounded Query. Beside them, each
// target's watermark says how far the scheduled planning has gone (ADR 0065).
import { createHash } from 'node:crypto';
import { createWriteTransaction, type EntityItem } from 'electrodb';
import { RELEVANCE_LABELS, type RelevanceLabel } from '#core/ai';
import { deleteAll, isConditionFailure } from '#core/db';
import { ExperimentScoreEntity } from './experiment-score-entity';
import { ScoreCountsEntity } from './score-counts-entity';
import { ScoreEntity } from './score-entity';
import { ScoreFailureEntity } from './score-failure-entity';
import { ScoringWatermarkEntity } from './watermark-entity';
import { COUNT_OF, COUNT_SHARDS, MATCHING_TYPES } from './store-keys';

export type Score = EntityItem<typeof ScoreEntity>;
export type ScoreFailure = EntityItem<typeof ScoreFailureEntity>;
export type ExperimentScore = EntityItem<typeof ExperimentScoreEntity>;
export type ScoringWatermark = EntityItem<typeof ScoringWatermarkEntity>;
export type MatchingType = (typeof MATCHING_TYPES)[number];
export type LabelCounts = Record<RelevanceLabel, number>;

/** What an article is scored against: an audience (its phrase) or a reader (their clues). */
export type MatchingTarget = {
  type: MatchingType;
  id: string;
  title: string;
  clues: string[];
  /** Names the clue set (cluesHash): a changed clue set is a new target to score. */
  cluesHash: string;
};

/** The prompt version and model a score was made by. */
export type SetupKeys = { promptId: string; modelId: string };

/** Where a run's scores go: production's store, or its own run (an experiment, a prompt test). */
export type ScoreStore = { experiment?: { processId: string } };

/** A failure is tried again by the next runs; one nobody retries goes by itself. */
export const FAILURE_TTL_DAYS = 120;
/** An experiment's scores are kept for its report, then go. */
export const EXPERIMENT_TTL_DAYS = 90;
/** Attempts when a score's transaction collides with another on the same counts item. */
const CONFLICT_ATTEMPTS = 8;

const expiresIn = (days: number) => Math.ceil(Date.now() / 1000) + days * 24 * 3600;

/**
 * The clue set's name: the same clues in any order, spacing or Unicode form hash alike; a word
 * changed, added or removed hashes differently.
 */
export function cluesHash(clues: string[]): string {
  const normal = [
    ...new Set(clues.map((clue) => clue.normalize('NFC').trim().replace(/\s+/g, ' '))),
  ]
    .filter(Boolean)
    .sort();
  return createHash('sha256').update(JSON.stringify(normal)).digest('hex').slice(0, 16);
}

const pairKeys = (articleId: string, target: MatchingTarget, keys: SetupKeys) => ({
  articleId,
  matchingType: target.type,
  matchingId: target.id,
  cluesHash: target.cluesHash,
  promptId: keys.promptId,
  modelId: keys.modelId,
});

/** The ids of the targets that already have an entry of `entity` for this article. */
async function targetsWith(
  entity: typeof ScoreEntity | typeof ScoreFailureEntity,
  articleId: string,
  targets: MatchingTarget[],
  keys: SetupKeys,
): Promise<Set<string>> {
  if (targets.length === 0) return new Set();
  const { data } = await (entity as typeof ScoreEntity)
    .get(targets.map((target) => pairKeys(articleId, target, keys)))
    .go({ attributes: ['matchingType', 'matchingId'] });
  return new Set(data.map((item) => `${item.matchingType}#${item.matchingId}`));
}

/** A target's key in maps by target, e.g. `watermarks`' answer: `{type}#{id}`. */
export const targetKey = (target: Pick<MatchingTarget, 'type' | 'id'>) =>
  `${target.type}#${target.id}`;

/** Which targets lack a score for this article, by this setup, in this store: BatchGetItem of their keys. */
export async function unscoredTargets(
  articleId: string,
  targets: MatchingTarget[],
  keys: SetupKeys,
  store: ScoreStore = {},
): Promise<MatchingTarget[]> {
  let scored: Set<string>;
  if (store.experiment) {
    const { processId } = store.experiment;
    const { data } = await ExperimentScoreEntity.get(
      targets.map((target) => ({
        processId,
        articleId,
        matchingType: target.type,
        matchingId: target.id,
        ...keys,
      })),
    ).go({ attributes: ['matchingType', 'matchingId'] });
    scored = new Set(data.map((item) => `${item.matchingType}#${item.matchingId}`));
  } else {
    scored = await targetsWith(ScoreEntity, articleId, targets, keys);
  }
  return targets.filter((target) => !scored.has(targetKey(target)));
}

/** The targets whose pair with this article failed before (production only). */
export async function failedTargets(
  articleId: string,
  targets: MatchingTarget[],
  keys: SetupKeys,
): Promise<Set<string>> {
  const failed = await targetsWith(ScoreFailureEntity, articleId, targets, keys);
  return new Set(targets.filter((target) => failed.has(targetKey(target))).map((t) => t.id));
}

export type NewScore = {
  label: RelevanceLabel;
  score: number;
  reason: string;
  relevantClues: string[];
  publishedAt: string;
  processId: string;
  inputTokens: number;
  outputTokens: number;
  costUsd?: number;
};

/**
 * Stores a pair's score once: the entry and its label's count in one transaction, so a
 * redelivered chunk or a second worker neither stores nor counts it twice. Answers false when the
 * pair was scored already (the first score stands).
 */
export async function storeScore(
  articleId: string,
  target: MatchingTarget,
  keys: SetupKeys,
  score: NewScore,
  store: ScoreStore = {},
): Promise<boolean> {
  const createdAt = new Date().toISOString();
  if (store.experiment) {
    return ExperimentScoreEntity.create({
      processId: store.experiment.processId,
      articleId,
      matchingType: target.type,
      matchingId: target.id,
      ...keys,
      label: score.label,
      score: score.score,
      reason: score.reason,
      relevantClues: score.relevantClues,
      createdAt,
      expiresAt: expiresIn(EXPERIMENT_TTL_DAYS),
    })
      .go()
      .then(
        () => true,
        (error: unknown) => {
          if (isConditionFailure(error)) return false;
          throw error;
        },
      );
  }
  const pair = pairKeys(articleId, target, keys);
  const { articleId: _, ...setup } = pair;
  const countKeys = { ...setup, shard: shardOf(articleId) };
  for (let attempt = 1; ; attempt++) {
    const result = await createWriteTransaction(
      { scores: ScoreEntity, counts: ScoreCountsEntity },
      ({ scores, counts }) => [
        scores
          .create({
            ...pair,
            ...score,
            rank: String(RELEVANCE_LABELS.indexOf(score.label)),
            createdAt,
          })
          .commit(),
        counts
          .upsert(countKeys)
          .add({ [COUNT_OF[score.label]]: 1 })
          .commit(),
      ],
    )
      .go()
      .catch((error: unknown) => {
        if (isConditionFailure(error)) return { canceled: true, conditionFailed: true } as const;
        throw error;
      });
    if (!result.canceled) return true;
    const codes = 'data' in result ? result.data.map((item) => item.code) : [];
    if ('conditionFailed' in result || codes.includes('ConditionalCheckFailed')) return false;
    if (attempt >= CONFLICT_ATTEMPTS) {
      throw new Error(`A score's transaction was cancelled (${codes.join(', ')})`);
    }
    // Full jitter, growing: colliding writers spread out instead of colliding again.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * 2 ** attempt));
  }
}

/** The counts shard an article's score adds to. */
function shardOf(articleId: string): number {
  return createHash('sha256').update(articleId).digest()[0]! % COUNT_SHARDS;
}

/** Records (or counts again) a pair the model could not score. */
export async function recordFailure(
  articleId: string,
  target: MatchingTarget,
  keys: SetupKeys,
  failure: { error: string; processId: string; importedAt: string },
): Promise<void> {
  await ScoreFailureEntity.upsert({
    ...pairKeys(articleId, target, keys),
    error: failure.error.slice(0, 1000),
    processId: failure.processId,
    importedAt: failure.importedAt,
    lastTriedAt: new Date().toISOString(),
    expiresAt: expiresIn(FAILURE_TTL_DAYS),
  })
    .add({ attempts: 1 })
    .go();
}

/** A pair that failed before and is scored now: its failure goes. */
export async function forgetFailure(articleId: string, target: MatchingTarget, keys: SetupKeys) {
  await ScoreFailureEntity.delete(pairKeys(articleId, target, keys)).go();
}

/** A pair the model could not score this often is not planned again. */
export const FAILURE_ATTEMPTS = 8;

/**
 * The failed pairs of this setup whose article was imported after `since`, newest first, for the
 * planning to retry: one Query of the failures index, `limit` at most, leaving out pairs tried
 * FAILURE_ATTEMPTS times. Past the limit the oldest wait: the news they were about is the oldest.
 */
export async function failuresSince(
  keys: SetupKeys,
  since: string,
  limit: number,
): Promise<Pick<ScoreFailure, 'articleId' | 'matchingType' | 'matchingId' | 'cluesHash'>[]> {
  const { data } = await ScoreFailureEntity.query
    .recent(keys)
    .gt({ importedAt: since })
    .where((attr, op) => op.lt(attr.attempts, FAILURE_ATTEMPTS))
    .go({
      order: 'desc',
      count: limit,
      attributes: ['articleId', 'matchingType', 'matchingId', 'cluesHash', 'importedAt'],
    });
  return data;
}

const watermarkKeys = (target: MatchingTarget, keys: SetupKeys) => ({
  matchingType: target.type,
  matchingId: target.id,
  cluesHash: target.cluesHash,
  ...keys,
});

/** The targets' watermarks for their current clues and this setup, by target: BatchGetItem of their keys. */
export async function watermarks(
  targets: MatchingTarget[],
  keys: SetupKeys,
): Promise<Map<string, ScoringWatermark>> {
  if (targets.length === 0) return new Map();
  const { data } = await ScoringWatermarkEntity.get(
    targets.map((target) => watermarkKeys(target, keys)),
  ).go({ concurrent: 4 });
  return new Map(
    data.map((mark) => [targetKey({ type: mark.matchingType, id: mark.matchingId }), mark]),
  );
}

export type PlannedUpTo = Pick<
  ScoringWatermark,
  'importedUpTo' | 'plannedAt' | 'plannedBy' | 'since'
>;

/**
 * Moves a target's watermark to what a run planned, unless a run that planned later has written
 * it (two planners at once leave the later one's). Answers whether it was written.
 */
export async function markPlanned(
  target: MatchingTarget,
  keys: SetupKeys,
  planned: PlannedUpTo,
): Promise<boolean> {
  try {
    await ScoringWatermarkEntity.upsert({ ...watermarkKeys(target, keys), ...planned })
      .where(
        ({ plannedAt, importedUpTo }, { notExists, lt, lte }) =>
          `${notExists(plannedAt)} OR (${lt(plannedAt, planned.plannedAt)} AND ${lte(importedUpTo, planned.importedUpTo)})`,
      )
      .go();
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * A target's entries for its current clues and this setup, best label first and newest published
 * within a label: one Query of the ranked index, from `lowest` up, one page of `limit`.
 */
export async function ranked(
  target: Pick<MatchingTarget, 'type' | 'id' | 'cluesHash'>,
  keys: SetupKeys,
  {
    limit,
    lowest = 'Not Relevant',
    cursor,
  }: { limit: number; lowest?: RelevanceLabel; cursor?: string | null },
): Promise<{ scores: Score[]; cursor: string | null }> {
  const { data, cursor: next } = await ScoreEntity.query
    .ranked({
      matchingType: target.type,
      matchingId: target.id,
      cluesHash: target.cluesHash,
      ...keys,
    })
    .gte({ rank: String(RELEVANCE_LABELS.indexOf(lowest)) })
    .go({ order: 'desc', limit, cursor: cursor ?? null });
  return { scores: data, cursor: next };
}

/** How many of a target's entries, for its current clues and this setup, carry each label: one BatchGetItem of its shards. */
export async function labelCounts(
  target: Pick<MatchingTarget, 'type' | 'id' | 'cluesHash'>,
  keys: SetupKeys,
): Promise<LabelCounts> {
  const { data } = await ScoreCountsEntity.get(
    Array.from({ length: COUNT_SHARDS }, (_, shard) => ({
      matchingType: target.type,
      matchingId: target.id,
      cluesHash: target.cluesHash,
      ...keys,
      shard,
    })),
  ).go();
  return Object.fromEntries(
    RELEVANCE_LABELS.map((label) => [
      label,
      data.reduce((sum, shard) => sum + (shard[COUNT_OF[label]] ?? 0), 0),
    ]),
  ) as LabelCounts;
}

/** These articles' entries and failures for these targets, by this setup: BatchGetItem of their keys. */
export async function forPairs(
  articleIds: string[],
  targets: MatchingTarget[],
  keys: SetupKeys,
): Promise<{ scores: Score[]; failures: ScoreFailure[] }> {
  const all = articleIds.flatMap((articleId) =>
    targets.map((target) => pairKeys(articleId, target, keys)),
  );
  if (all.length === 0) return { scores: [], failures: [] };
  const [scores, failures] = await Promise.all([
    ScoreEntity.get(all).go(),
    ScoreFailureEntity.get(all).go(),
  ]);
  return { scores: scores.data, failures: failures.data };
}

/** What one experiment run stored for these pairs, by this setup: BatchGetItem of their keys. */
export async function experimentScoresOf(
  processId: string,
  articleIds: string[],
  targets: Pick<MatchingTarget, 'type' | 'id'>[],
  keys: SetupKeys,
): Promise<ExperimentScore[]> {
  const all = articleIds.flatMap((articleId) =>
    targets.map((target) => ({
      processId,
      articleId,
      matchingType: target.type,
      matchingId: target.id,
      ...keys,
    })),
  );
  if (all.length === 0) return [];
  const { data } = await ExperimentScoreEntity.get(all).go();
  return data;
}

/**
 * Deletes a target's entries, failures and counts of every clue set but `keep` (its current one):
 * once a reader's new clues are scored, the old set's entries are never read again. A job's read
 * of the target's partition, page by page.
 */
export async function forgetOtherClues(
  target: Pick<MatchingTarget, 'type' | 'id' | 'cluesHash'>,
): Promise<number> {
  return forgetWhere(target, (item) => item.cluesHash !== target.cluesHash);
}

/** Deletes a target's whole partition: every clue set's and setup's scores, failures, counts and watermarks. */
export async function forgetTarget(target: Pick<MatchingTarget, 'type' | 'id'>): Promise<number> {
  return forgetWhere(target, () => true);
}

async function forgetWhere(
  target: Pick<MatchingTarget, 'type' | 'id'>,
  doomed: (item: { cluesHash: string }) => boolean,
): Promise<number> {
  const key = { matchingType: target.type, matchingId: target.id };
  let deleted = 0;
  for (const entity of [
    ScoreEntity,
    ScoreFailureEntity,
    ScoreCountsEntity,
    ScoringWatermarkEntity,
  ] as const) {
    let cursor: string | null = null;
    do {
      const page: { data: Score[]; cursor: string | null } = await (
        entity as typeof ScoreEntity
      ).query
        .byTarget(key)
        .go({ cursor, limit: 250 });
      const gone = page.data.filter(doomed);
      await deleteAll(entity as typeof ScoreEntity, gone);
      deleted += gone.length;
      cursor = page.cursor;
    } while (cursor);
  }
  return deleted;
}
