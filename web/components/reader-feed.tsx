// What a reader's feed is made from, under their edit form in User Management: the clues they gave
// and the articles scored for those clues (newest first), or, when there are none, why, so an
// operator can tell why a feed is empty.
import { Link } from '@remix-run/react';
import { When } from './when';

export type ReaderFeedView = {
  clues: { id: string; clue: string }[];
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
  const { clues, scores } = reader;
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
        Scored articles ({scores.length < reader.shown ? scores.length : `newest ${reader.shown}`})
      </h4>
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
