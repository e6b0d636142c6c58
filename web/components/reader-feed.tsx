// What a reader's feed is made from, under their edit form in User Management: the clues they gave
// and the articles scored for those clues (best label first, newest within a label) with how many
// carry each label, or, when there are none, why, so an operator can tell why a feed is empty.
import { Link } from '@remix-run/react';
import { When } from './when';

export type ReaderFeedView = {
  clues: { id: string; clue: string }[];
  /** How many of the reader's scores carry each label. */
  counts: Record<string, number>;
  scores: {
    articleId: string;
    title: string;
    source: string;
    publishedAt: string;
    label: string;
    relevantClues: string[];
  }[];
  /** How many scores are read at most. */
  shown: number;
};

export function ReaderFeed({ reader }: { reader: ReaderFeedView }) {
  const { clues, scores, counts } = reader;
  const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
  const labels = Object.entries(counts).filter(([, n]) => n > 0);
  return (
    <section aria-labelledby="reader-feed-heading">
      <h3 id="reader-feed-heading">What their feed is made from</h3>
      <h4 id="reader-clues-heading">Clues ({clues.length})</h4>
      {clues.length === 0 ? (
        <p className="notice">
          No clues yet: nothing can be scored for them until they give some when they sign up.
        </p>
      ) : (
        <ul aria-labelledby="reader-clues-heading">
          {clues.map((clue) => (
            <li key={clue.id}>{clue.clue}</li>
          ))}
        </ul>
      )}
      <h4 id="reader-scores-heading">
        Scored articles ({total > reader.shown ? `best ${reader.shown} of ${total}` : total})
      </h4>
      {labels.length > 0 && <p>{labels.map(([label, n]) => `${label}: ${n}`).join(' · ')}</p>}
      {scores.length === 0 ? (
        <p className="notice">
          {clues.length === 0
            ? 'No articles are scored for them: they have no clues.'
            : 'No articles are scored for their clues yet. The newest articles are scored for a reader right after they sign up.'}
        </p>
      ) : (
        <ul aria-labelledby="reader-scores-heading">
          {scores.map((score) => (
            <li key={score.articleId}>
              <Link to={`/admin-panel/articles/${score.articleId}`}>{score.title}</Link> (
              {score.source}, <When iso={score.publishedAt} />
              ): <strong>{score.label}</strong>
              {score.relevantClues.length > 0 && `, matching ${score.relevantClues.join('; ')}`}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
