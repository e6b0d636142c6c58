// One article as scoring sees it: every score it got (audience, label, score, reason, matched
// clues, prompt, model, tokens and cost) and the pairs the model could not score yet; and the
// story it is part of as production built it (ADR 0062), so an operator sees what readers get.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import * as Articles from '#core/articles';
import * as Audiences from '#core/audiences';
import * as Scoring from '#core/scoring';
import * as Stories from '#core/stories';
import { When } from '#web/components/when';
import { requireAdmin } from '#web/lib/admin.server';
import { notFound, privatePageHeaders } from '#web/lib/cache';
import { cost } from '#web/lib/run-summary';

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.article.title ?? 'Article'} · Cluefeed admin` },
];
export const headers = privatePageHeaders;

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const id = params.id ?? '';
  const article = /^[0-9A-Za-z]{1,64}$/.test(id) ? await Articles.byId(id) : undefined;
  if (!article) throw notFound();
  const [audiences, stories] = await Promise.all([Audiences.list(), Stories.ofArticles([article])]);
  const { scores, failures } = await Scoring.forArticle(article.id, audiences);
  const story = stories.get(article.id) ?? Stories.storyOfOne(article);
  const titles = new Map(audiences.map((audience) => [audience.id, audience.title]));
  const audience = (id: string) => titles.get(id) ?? 'a removed audience';
  // Model ids are '{provider}:{model}'; the admin shows models as 'provider - model'.
  const model = (id: string) => id.replace(':', ' - ');
  return {
    article: {
      title: article.title,
      source: article.source,
      publishedAt: article.publishedAt,
      canonicalUrl: article.canonicalUrl,
      summary: article.summary ?? '',
    },
    story: {
      headline: story.headline,
      summary: story.summary,
      sourceCount: story.sourceCount,
      /** Members kept by name (the newest); older ones are only counted. */
      kept: story.sources.length,
      firstAt: story.firstAt,
      latestAt: story.latestAt,
      others: story.sources
        .filter((source) => source.articleId !== article.id)
        .map(({ articleId, source, title, link }) => ({ articleId, source, title, link })),
    },
    scores: scores
      .sort((a, b) => b.score - a.score)
      .map((score) => ({
        key: `${score.promptId}#${score.modelId}#${score.matchingId}`,
        audience: audience(score.matchingId),
        label: score.label,
        score: score.score,
        reason: score.reason,
        relevantClues: score.relevantClues ?? [],
        prompt: score.promptId,
        model: model(score.modelId),
        tokens: (score.inputTokens ?? 0) + (score.outputTokens ?? 0),
        cost: score.costUsd === undefined ? 'unknown' : cost(score.costUsd),
      })),
    failures: failures.map((failure) => ({
      key: `${failure.promptId}#${failure.modelId}#${failure.matchingId}`,
      audience: audience(failure.matchingId),
      error: failure.error,
      attempts: failure.attempts ?? 0,
      lastTriedAt: failure.lastTriedAt,
    })),
  };
}

export default function ArticleScores() {
  const { article, story, scores, failures } = useLoaderData<typeof loader>();
  return (
    <section className="admin-page">
      <p>
        <Link to="/admin-panel/content-automations">Back to Content Automations</Link>
      </p>
      <h1>{article.title}</h1>
      <p>
        {article.source}, published <When iso={article.publishedAt} /> ·{' '}
        <a href={article.canonicalUrl} rel="noopener noreferrer">
          Open the article
        </a>
      </p>
      {article.summary && <p>{article.summary}</p>}

      <h2 id="story-heading">Its story</h2>
      {story.sourceCount === 1 ? (
        <p className="notice">No other source tells this story yet.</p>
      ) : (
        <>
          <p>
            <strong>{story.headline}</strong>
          </p>
          {story.summary && <p>{story.summary}</p>}
          <p>
            {story.sourceCount} sources, from <When iso={story.firstAt} /> to{' '}
            <When iso={story.latestAt} />.
            {story.kept < story.sourceCount && ` The newest ${story.kept} are kept by name.`}
          </p>
          <ul aria-labelledby="story-heading">
            {story.others.map((other) => (
              <li key={other.articleId}>
                {other.source}:{' '}
                <Link to={`/admin-panel/articles/${other.articleId}`}>{other.title}</Link>
              </li>
            ))}
          </ul>
        </>
      )}

      <h2 id="scores-heading">Scores ({scores.length})</h2>
      {scores.length === 0 ? (
        <p className="notice">Not scored yet.</p>
      ) : (
        <div className="table-scroll" tabIndex={0}>
          <table className="admin-table" aria-labelledby="scores-heading">
            <thead>
              <tr>
                <th scope="col">Audience</th>
                <th scope="col">Label</th>
                <th scope="col">Score</th>
                <th scope="col">Reason</th>
                <th scope="col">Matched clues</th>
                <th scope="col">Prompt</th>
                <th scope="col">Model</th>
                <th scope="col">Tokens</th>
                <th scope="col">Cost</th>
              </tr>
            </thead>
            <tbody>
              {scores.map((score) => (
                <tr key={score.key}>
                  <td>those who {score.audience}</td>
                  <td>{score.label}</td>
                  <td>{score.score.toFixed(2)}</td>
                  <td>{score.reason}</td>
                  <td>
                    {score.relevantClues.length > 0 ? score.relevantClues.join('; ') : 'None'}
                  </td>
                  <td>{score.prompt}</td>
                  <td>{score.model}</td>
                  <td>{score.tokens}</td>
                  <td>{score.cost}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {failures.length > 0 && (
        <>
          <h2 id="failures-heading">Not scored: tried again on the next run ({failures.length})</h2>
          <div className="table-scroll" tabIndex={0}>
            <table className="admin-table" aria-labelledby="failures-heading">
              <thead>
                <tr>
                  <th scope="col">Audience</th>
                  <th scope="col">Error</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Last tried</th>
                </tr>
              </thead>
              <tbody>
                {failures.map((failure) => (
                  <tr key={failure.key}>
                    <td>those who {failure.audience}</td>
                    <td>{failure.error}</td>
                    <td>{failure.attempts}</td>
                    <td>
                      <When iso={failure.lastTriedAt} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
