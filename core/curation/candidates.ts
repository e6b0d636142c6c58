// An audience's candidates for a card: its newest articles scored by the production scoring prompt
// and model (experiments and prompt tests score with others), not picked for it before, from
// 'Moderately Relevant' up, best first.
import { RELEVANCE_LABELS, type RelevanceLabel } from '#core/ai';
import { ArticleEntity, type Article } from '#core/articles';
import * as Scoring from '#core/scoring';
import { PickedArticleEntity } from './picked-article-entity';

/** How many of an audience's newest scores are read (one page of one Query). */
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

const rank = (label: RelevanceLabel) => RELEVANCE_LABELS.indexOf(label);
const isWebLink = (url: string) => /^https?:\/\//i.test(url);

export async function candidatesFor(audienceId: string): Promise<Candidate[]> {
  const { prompt, model } = await Scoring.productionSetup();
  const scores = await Scoring.recentFor(
    { type: 'audience', id: audienceId },
    { promptId: prompt.id, modelId: model.id },
    RECENT_SCORES,
  );

  const best = new Map<string, ScoredStory>();
  for (const score of scores) {
    if (rank(score.label) < rank(LOWEST_PICKED_LABEL)) continue;
    const known = best.get(score.articleId);
    if (known && known.score >= score.score) continue;
    best.set(score.articleId, {
      articleId: score.articleId,
      score: score.score,
      label: score.label,
      reason: score.reason,
      relevantClues: score.relevantClues ?? [],
      publishedAt: score.publishedAt,
    });
  }
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
