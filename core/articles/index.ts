// Articles imported from streams: each story stored once (by canonical URL and by content
// fingerprint, claimed in the article's own transaction), listed newest first, counted (a counter
// moved in the same transactions, so the count reads a few items, not the index), cleared.
import { createWriteTransaction, type EntityItem } from 'electrodb';
import * as v from 'valibot';
import { fn } from '#core/common';
import { ulid } from '#core/ids';
import { deleteAll, isConditionFailure, type ItemRead } from '#core/db';
import { ARTICLE_COUNT_SHARDS, ArticleCountEntity } from './article-count-entity';
import { ArticleFingerprintEntity } from './article-fingerprint-entity';
import { ArticleImportEntity } from './article-import-entity';
import { ArticleUrlEntity } from './article-url-entity';
import { ArticleEntity } from './entity';

export {
  ArticleEntity,
  ArticleUrlEntity,
  ArticleFingerprintEntity,
  ArticleCountEntity,
  ArticleImportEntity,
};
export type Article = EntityItem<typeof ArticleEntity>;

export const ArticleInput = v.object({
  canonicalUrl: v.pipe(v.string(), v.url(), v.maxLength(2_000)),
  title: v.pipe(v.string(), v.nonEmpty()),
  summary: v.optional(v.string(), ''),
  content: v.optional(v.string(), ''),
  image: v.optional(v.string()),
  author: v.optional(v.string()),
  mediaType: v.optional(v.picklist(['audio', 'video'])),
  durationSeconds: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(86_400))),
  publishedAt: v.optional(v.pipe(v.string(), v.isoTimestamp())),
  source: v.pipe(v.string(), v.nonEmpty()),
  streamId: v.pipe(v.string(), v.nonEmpty()),
  fingerprint: v.pipe(v.string(), v.regex(/^[\da-f]{64}$/)),
});

/** Attempts when a transaction collides with a concurrent one on the same claim. */
const CONFLICT_ATTEMPTS = 4;

/**
 * Stores the article unless its URL or fingerprint is already claimed. Two imports racing on one
 * story both try; the one whose transaction loses sees the claim and reports a duplicate.
 */
export const storeIfNew = fn(ArticleInput, async (input): Promise<'new' | 'duplicate'> => {
  const importedAt = new Date().toISOString();
  const article = {
    ...input,
    id: ulid(),
    importedAt,
    publishedAt: input.publishedAt ?? importedAt,
  };
  for (let attempt = 1; ; attempt++) {
    const result = await createWriteTransaction(
      {
        article: ArticleEntity,
        imported: ArticleImportEntity,
        url: ArticleUrlEntity,
        fingerprint: ArticleFingerprintEntity,
        counter: ArticleCountEntity,
      },
      (entities) => [
        entities.article.create(article).commit(),
        entities.imported.create({ id: article.id, importedAt }).commit(),
        entities.url.create({ canonicalUrl: article.canonicalUrl, articleId: article.id }).commit(),
        entities.fingerprint
          .create({ fingerprint: article.fingerprint, articleId: article.id })
          .commit(),
        entities.counter.update({ shard: anyCounterShard() }).add({ count: 1 }).commit(),
      ],
    )
      .go()
      .catch((error: unknown) => {
        if (isConditionFailure(error)) return { canceled: true, claimed: true };
        throw error;
      });
    if (!result.canceled) return 'new';
    const codes = 'data' in result ? result.data.map((item) => item.code) : [];
    if ('claimed' in result || codes.includes('ConditionalCheckFailed')) return 'duplicate';
    if (attempt >= CONFLICT_ATTEMPTS) {
      throw new Error(
        `Could not store the article ${article.canonicalUrl}: transaction cancelled (${codes.join(', ')})`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 50 * attempt));
  }
});

/** The ids of the articles stored under these canonical URLs, by URL (unknown URLs left out). */
export async function idsByUrl(canonicalUrls: readonly string[]): Promise<Map<string, string>> {
  if (canonicalUrls.length === 0) return new Map();
  const unique = [...new Set(canonicalUrls)];
  const { data } = await ArticleUrlEntity.get(
    unique.map((canonicalUrl) => ({ canonicalUrl })),
  ).go();
  return new Map(data.map((claim) => [claim.canonicalUrl, claim.articleId]));
}

export async function byId(id: string): Promise<Article | undefined> {
  const { data } = await ArticleEntity.get({ id }).go();
  return data ?? undefined;
}

/** An article by id, for a read of several entities' items in one call (`getTogether`). */
export function articleRead(id: string): ItemRead<Article> {
  return {
    key: ArticleEntity.get({ id }).params().Key,
    parse: (item) => ArticleEntity.parse({ Item: item }).data ?? undefined,
  };
}

/** Articles by id, in the order asked; ids without an article are left out (one BatchGet per 100). */
export async function byIds(ids: readonly string[]): Promise<Article[]> {
  if (ids.length === 0) return [];
  const { data } = await ArticleEntity.get(ids.map((id) => ({ id }))).go();
  const found = new Map(data.map((article) => [article.id, article]));
  return ids.flatMap((id) => found.get(id) ?? []);
}

/** The article stored under a canonical URL. */
export async function byUrl(canonicalUrl: string): Promise<Article | undefined> {
  const { data } = await ArticleUrlEntity.get({ canonicalUrl }).go({ consistent: true });
  return data ? byId(data.articleId) : undefined;
}

/** The newest articles by publication date. */
export async function latest(limit: number): Promise<Article[]> {
  const { data } = await ArticleEntity.query.latest({}).go({ order: 'desc', limit });
  return data;
}

/**
 * The articles imported after `after` (an ISO time; '' for any), newest import first, `limit` at most: one
 * Query of the import index (ADR 0065). Articles stored before that index was kept are not in it.
 */
export async function importedAfter(
  after: string,
  limit: number,
): Promise<{ id: string; importedAt: string }[]> {
  const every = ArticleImportEntity.query.byImport({});
  // Consistent: a planner must see every import committed before it looked.
  const { data } = await (after ? every.gt({ importedAt: after }) : every).go({
    order: 'desc',
    count: limit,
    consistent: true,
  });
  return data.filter((item) => item.importedAt > after);
}

/**
 * The newest articles' texts, `count` at most (paged until then: DynamoDB stops a page at 1 MB),
 * for learning the local ranker's term statistics.
 */
export async function latestTexts(
  count: number,
): Promise<Pick<Article, 'title' | 'summary' | 'source'>[]> {
  const { data } = await ArticleEntity.query
    .latest({})
    .go({ order: 'desc', count, attributes: ['title', 'summary', 'source'] });
  return data;
}

function anyCounterShard(): number {
  return Math.floor(Math.random() * ARTICLE_COUNT_SHARDS);
}

/** How many articles are stored: the sum of the counter's shards (one Query of a few items). */
export async function count(): Promise<number> {
  const { data } = await ArticleCountEntity.query.shards({}).go({ consistent: true });
  return data.reduce((total, shard) => total + (shard.count ?? 0), 0);
}

/** Deletes every article with its claims, a page at a time; returns how many articles went. */
export async function clearAll(): Promise<number> {
  let deleted = 0;
  let cursor: string | null = null;
  do {
    const page: {
      data: Pick<Article, 'id' | 'canonicalUrl' | 'fingerprint' | 'importedAt'>[];
      cursor: string | null;
    } = await ArticleEntity.query.latest({}).go({
      cursor,
      limit: 250,
      attributes: ['id', 'canonicalUrl', 'fingerprint', 'importedAt'],
    });
    await Promise.all([
      deleteAll(
        ArticleEntity,
        page.data.map(({ id }) => ({ id })),
      ),
      deleteAll(
        ArticleUrlEntity,
        page.data.map(({ canonicalUrl }) => ({ canonicalUrl })),
      ),
      deleteAll(
        ArticleFingerprintEntity,
        page.data.map(({ fingerprint }) => ({ fingerprint })),
      ),
      deleteAll(
        ArticleImportEntity,
        page.data.map(({ id, importedAt }) => ({ id, importedAt })),
      ),
    ]);
    // Counted down only once the page is gone, so a failed delete never under-counts.
    if (page.data.length > 0)
      await ArticleCountEntity.update({ shard: anyCounterShard() })
        .add({ count: -page.data.length })
        .go();
    deleted += page.data.length;
    cursor = page.cursor;
  } while (cursor);
  return deleted;
}
