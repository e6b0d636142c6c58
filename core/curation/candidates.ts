// An audience's candidates for a card: its articles scored by production's scoring setup for its
// current phrase (experiments and prompt tests never score into that store), from 'Moderately
// Relevant' up, not picked for it before, best first. One Query of the ranked read model.
import type { RelevanceLabel } from '#core/ai';
import { ArticleEntity, type Article } from '#core/articles';
import * as Audiences from '#core/audiences';
import * as Scoring from '#core/scoring';
import { PickedArticleEntity } from './picked-article-entity';

/** How many of an audience's best-ranked scores are read (one page of one Query). */
export const RECENT_SCORES = 200;
/** How many candidates the model chooses from. */
export const CANDIDATES = 8;
export const LOWEST_PICKED_LABEL: RelevanceLabel = 'Moderately Relevant';

/** What a pick keeps of the score that earned it. */
export type ScoredStory = {
  articleId: string;
  score: number;
  label: RelevanceLabel;
  reason: string;
  relevantClues: string[];
  publishedAt: string;
};

export type Candidate = ScoredStory & { article: Article };

const isWebLink = (url: string) => /^https?:\/\//i.test(url);

export async function candidatesFor(
  audience: Pick<Audiences.Audience, 'id' | 'title'>,
): Promise<Candidate[]> {
  const audienceId = audience.id;
  const { scores } = await Scoring.ranked(
    Scoring.audienceTarget(audience),
    await Scoring.productionKeys(),
    { limit: RECENT_SCORES, lowest: LOWEST_PICKED_LABEL },
  );
  const best = new Map<string, ScoredStory>(
    scores.map((score) => [
      score.articleId,
      {
        articleId: score.articleId,
        score: score.score,
        label: score.label,
        reason: score.reason,
        relevantClues: score.relevantClues ?? [],
        publishedAt: score.publishedAt,
      },
    ]),
  );
  if (best.size === 0) return [];

  const { data: claims } = await PickedArticleEntity.get(
    [...best.keys()].map((articleId) => ({ audienceId, articleId })),
  ).go({ consistent: true });
  for (const claim of claims) best.delete(claim.articleId);

  const ranked = [...best.values()]
    .sort((a, b) => b.score - a.score || b.publishedAt.localeCompare(a.publishedAt))
    .slice(0, CANDIDATES);
  const articles = await articlesByIds(ranked.map((story) => story.articleId));
  return ranked.flatMap((story) => {
    const article = articles.get(story.articleId);
    return article && isWebLink(article.canonicalUrl) ? [{ ...story, article }] : [];
  });
}

/** Articles by id (a cleared article is simply missing). */
export async function articlesByIds(ids: string[]): Promise<Map<string, Article>> {
  if (ids.length === 0) return new Map();
  const { data } = await ArticleEntity.get(ids.map((id) => ({ id }))).go();
  return new Map(data.map((article) => [article.id, article]));
}
