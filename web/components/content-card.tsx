// A content card on an audience page: why it matters, the primary story, then the others.
import { formatDate } from '#web/lib/format';
import type { CardView } from '#web/lib/views';
import { Story } from './story';
import { TrackedLink } from './tracked-link';

export function ContentCardView({
  card,
  href,
  raud,
}: {
  card: CardView;
  href: string;
  raud?: string;
}) {
  return (
    <article className="card">
      <p className="card__date">
        <time dateTime={card.date}>{formatDate(card.date)}</time>
      </p>
      <h2 className="card__title">
        <TrackedLink to={href} raud={raud}>
          {card.verbalDescriptor}
        </TrackedLink>
      </h2>
      <h3 className="card__header">{card.primaryStoriesHeader}</h3>
      <Story post={card.primaryStory} raud={raud} />
      {card.secondaryStories.length > 0 && (
        <>
          <h3 className="card__header">{card.secondaryStoriesHeader}</h3>
          <ul className="card__secondary">
            {card.secondaryStories.map((post) => (
              <li key={post.id}>
                <Story post={post} raud={raud} withTeaser={false} />
              </li>
            ))}
          </ul>
        </>
      )}
    </article>
  );
}
