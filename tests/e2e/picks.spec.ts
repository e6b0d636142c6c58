import { createHash } from 'node:crypto';
import { ulid } from 'ulid';
import { labelOf } from '#core/ai';
import { ArticleEntity } from '#core/articles';
import * as Audiences from '#core/audiences';
import * as Curation from '#core/curation';
import { logger } from '#core/logs';
import * as Scoring from '#core/scoring';
import { expect, test } from './fixtures';

const STORIES = [
  {
    title: 'Five invariants every lending protocol should fuzz',
    score: 0.91,
    reason: 'Very relevant because you audit lending protocols: it covers every lending protocol.',
  },
  {
    title: 'Oracle latency is a design parameter for perpetual exchanges',
    score: 0.82,
    reason: 'Very relevant because you audit lending protocols: it covers oracle latency.',
  },
  {
    title: 'Isolated lending markets and the return of the risk curator',
    score: 0.74,
    reason:
      'Quite relevant because you audit lending protocols: it covers isolated lending markets.',
  },
  {
    title: 'A celebrity NFT drop returns to the charts',
    score: 0.1,
    reason: 'Not relevant: it is about a celebrity NFT drop, while you audit lending protocols.',
  },
];

/** An active audience whose imported articles were scored, as an import and a scoring run leave them. */
async function scoredAudience() {
  const key = ulid().toLowerCase();
  const audience = await Audiences.create({
    title: `audit lending protocols ${key.slice(-6)}`,
    slug: `lending-auditors-${key}`,
    tag: 'aud-lending',
    frequency: 'daily',
    state: 'active',
  });
  const articles = [];
  for (const [index, story] of STORIES.entries()) {
    const id = ulid();
    // Long ago, and past the article counter: the admin journey, running alongside, counts and
    // lists the newest articles around its imports and must not see these.
    const publishedAt = new Date(Date.UTC(2020, 0, 1, 8 + index)).toISOString();
    const article = {
      id,
      canonicalUrl: `https://news.example.org/${id.toLowerCase()}`,
      title: story.title,
      summary: `${story.title}: what it means for auditors.`,
      publishedAt,
      importedAt: new Date().toISOString(),
      source: 'Example News',
      streamId: 'stream-e2e',
      fingerprint: createHash('sha256').update(id).digest('hex'),
    };
    await ArticleEntity.create(article).go();
    await Scoring.storeScore(id, Scoring.audienceTarget(audience), await Scoring.productionKeys(), {
      label: labelOf(story.score),
      score: story.score,
      reason: story.reason,
      relevantClues: ['audit lending protocols'],
      publishedAt,
      processId: ulid(),
      inputTokens: 0,
      outputTokens: 0,
    });
    articles.push(article);
  }
  return { audience, articles };
}

test('picked stories appear on the audience page as a card, each with why it was picked, and a picked post links to the original', async ({
  page,
}) => {
  const { audience, articles } = await scoredAudience();
  const result = await Curation.pickForAudience(audience, { processId: ulid(), log: logger });
  expect(result.outcome).toBe('picked');

  await page.goto(`/a/${audience.slug}`);
  const card = page.locator('article.card');
  await expect(card).toHaveCount(1);
  await expect(card.locator('.card__title')).toContainText(`those who ${audience.title}`);
  const titles = card.locator('.story__title');
  await expect(titles).toHaveText(articles.slice(0, 3).map((article) => article.title));
  await expect(card).not.toContainText(STORIES[3]!.title);
  // Each picked story says why it is there: the reason of the score that picked it.
  const reasons = STORIES.slice(0, 3).map((story) => story.reason);
  await expect(card.locator('.story__reason')).toHaveText(reasons);

  await card.locator('.card__title a').click();
  await expect(page.locator('.content-card .story__reason')).toHaveText(reasons);

  await page.goto(`/a/${audience.slug}`);
  await titles.first().click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(articles[0]!.title);
  await expect(page.getByText(`${articles[0]!.title}: what it means for auditors.`)).toBeVisible();
  await expect(page.locator('.post__reason')).toHaveText(STORIES[0]!.reason);
  const source = page.getByRole('link', { name: 'Read on news.example.org' });
  await expect(source).toHaveAttribute('href', articles[0]!.canonicalUrl);
  await expect(page.getByRole('complementary', { name: 'About the author' })).toContainText(
    Curation.CURATOR.name,
  );
});
