// A story (post) in a list: title link, teaser, why it was picked (a picked post), and how long it
// takes.
import { STORY_TEXTS } from '#core/common';
import { duration } from '#web/lib/format';
import type { StoryView } from '#web/lib/views';
import { TrackedLink } from './tracked-link';

/** 'also covered by N sources' and links to them (the originals, off Cluefeed). */
function AlsoCovered({ count, sources }: NonNullable<StoryView['alsoCovered']>) {
  return (
    <p className="story__also">
      {STORY_TEXTS.alsoCoveredBy(count)}
      {sources.map((source, index) => (
        <span key={source.url}>
          {index === 0 ? ': ' : ' · '}
          <a href={source.url} rel="noopener noreferrer">
            {source.source}
          </a>
        </span>
      ))}
    </p>
  );
}

export function Story({
  post,
  raud,
  withTeaser = true,
}: {
  post: StoryView;
  raud?: string;
  withTeaser?: boolean;
}) {
  return (
    <div className="story" data-story={post.storyKey ?? post.id}>
      <TrackedLink to={`/p/${post.slug}`} raud={raud} className="story__title">
        {post.title}
      </TrackedLink>
      {withTeaser && <p className="story__teaser">{post.teaser}</p>}
      {post.reason && <p className="story__reason">{post.reason}</p>}
      <p className="story__meta">
        {duration(post)} · {post.author.name}
      </p>
      {post.alsoCovered && <AlsoCovered {...post.alsoCovered} />}
    </div>
  );
}
