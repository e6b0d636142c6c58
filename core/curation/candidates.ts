// An audience's candidates for a card: its articles scored by production's scoring setup for its
// current phrase (experiments and prompt tests never score into that store), from 'Moderately
// Relevant' up, not picked for it before, best first, one per story (its best-scored member) and
// no story a member of which was picked for it before. One Query of the ranked read model, then a
// few batch reads.
import type { RelevanceLabel } from '#core/ai';
import { ArticleEntity, type Article } from '#core/articles';
import * as Audiences from '#core/audiences';
import { isWebLink } from '#core/common';
import * as Scoring from '#core/scoring';
import * as Stories from '#core/stories';
import { PickedArticleEntity } from './picked-article-entity';

/** How many of an audience's best-ranked scores are read (one page of one Query). */
export const RECENT_SCORES = 200;
/** How many candidates the model chooses from. */
export const CANDIDATES = 8;
/** Best-ranked articles read to find CANDIDATES stories: some are members of one story. */
const ARTICLES_READ = CANDIDATES * 3;
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

  const claimed = await claimedOf(audienceId, [...best.keys()]);
  for (const articleId of claimed) best.delete(articleId);

  const ranked = [...best.values()]
    .sort((a, b) => b.score - a.score || b.publishedAt.localeCompare(a.publishedAt))
    .slice(0, ARTICLES_READ);
  const articles = await articlesByIds(ranked.map((story) => story.articleId));
  const stories = await Stories.ofArticles([...articles.values()]);
  const unread = [...stories.values()]
    .flatMap((story) => story.sources.map((source) => source.articleId))
    .filter((articleId) => !claimed.has(articleId) && !best.has(articleId));
  for (const articleId of await claimedOf(audienceId, unread)) claimed.add(articleId);

  const storiesTaken = new Set<string>();
  const candidates: Candidate[] = [];
  for (const story of ranked) {
    const article = articles.get(story.articleId);
    if (!article || !isWebLink(article.canonicalUrl)) continue;
    const grouped = stories.get(story.articleId);
    const storyId = grouped?.id ?? story.articleId;
    const pickedBefore = grouped?.sources.some((source) => claimed.has(source.articleId));
    if (storiesTaken.has(storyId) || pickedBefore) continue;
    storiesTaken.add(storyId);
    candidates.push({ ...story, article });
    if (candidates.length === CANDIDATES) break;
  }
  return candidates;
}

/** Which of the articles were picked for the audience (one batch read of their claims). */
async function claimedOf(audienceId: string, articleIds: string[]): Promise<Set<string>> {
  if (articleIds.length === 0) return new Set();
  const { data } = await PickedArticleEntity.get(
    [...new Set(articleIds)].map((articleId) => ({ audienceId, articleId })),
  ).go({ consistent: true });
  return new Set(data.map((claim) => claim.articleId));
}

/** Articles by id (a cleared article is simply missing). */
export async function articlesByIds(ids: string[]): Promise<Map<string, Article>> {
  if (ids.length === 0) return new Map();
  const { data } = await ArticleEntity.get(ids.map((id) => ({ id }))).go();
  return new Map(data.map((article) => [article.id, article]));
}
