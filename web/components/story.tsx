// A story (post) in a list: title link, teaser, why it was picked (a picked post), and how long it
// takes.
import { duration } from '#web/lib/format';
import type { StoryView } from '#web/lib/views';
import { TrackedLink } from './tracked-link';

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
    <div className="story" data-story={post.id}>
      <TrackedLink to={`/p/${post.slug}`} raud={raud} className="story__title">
        {post.title}
      </TrackedLink>
      {withTeaser && <p className="story__teaser">{post.teaser}</p>}
      {post.reason && <p className="story__reason">{post.reason}</p>}
      <p className="story__meta">
        {duration(post)} · {post.author.name}
      </p>
    </div>
  );
}
