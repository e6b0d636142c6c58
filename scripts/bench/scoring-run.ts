// What bench:scoring and bench:experiments both score and how: articles made from the seed posts,
// and production's scoring of them for some targets, a chunk of ARTICLES_PER_CHUNK articles per
// worker, `parallel` chunks at a time. Load it with import() once the environment is set: it loads
// core.
import { performance } from 'node:perf_hooks';
import { ulid } from 'ulid';
import { mapPool } from '#core/common';
import * as Scoring from '#core/scoring';
import { posts } from '#scripts/seed/data';

/** Articles per chunk, as the scoring job and an experiment's scoring units have them. */
export const ARTICLES_PER_CHUNK = 10;

/** `count` articles, a minute apart, from the seed posts (varied by their number). */
export function benchArticles(count: number) {
  return Array.from({ length: count }, (_, i) => {
    const post = posts[i % posts.length]!;
    return {
      id: ulid(),
      title: `${post.title} (${i})`,
      summary: post.teaser,
      publishedAt: new Date(Date.UTC(2026, 10, 1) + i * 60_000).toISOString(),
    };
  });
}

type ArticleForScoring = Parameters<typeof Scoring.scoreArticle>[0];

/** Scores every article for every target, stored, `parallel` chunks at a time; times it. */
export async function scoreInChunks(
  articles: ArticleForScoring[],
  targets: Scoring.MatchingTarget[],
  setup: Scoring.ScoringSetup,
  parallel: number,
): Promise<{ totals: Scoring.ScoringTotals; ms: number }> {
  const chunks = Array.from({ length: Math.ceil(articles.length / ARTICLES_PER_CHUNK) }, (_, i) =>
    articles.slice(i * ARTICLES_PER_CHUNK, (i + 1) * ARTICLES_PER_CHUNK),
  );
  const totals = Scoring.noTotals();
  const began = performance.now();
  await mapPool(chunks, parallel, async (chunk) => {
    for (const article of chunk) {
      const done = await Scoring.scoreArticle(article, targets, setup);
      Scoring.addTotals(totals, done);
    }
  });
  return { totals, ms: performance.now() - began };
}
