// Post page /p/:slug: a picked story links to its source; an original one shows its content. It
// ends with its audience's newsletter, which the page's action subscribes to. A public document
// (ADR 35).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import * as Audiences from '#core/audiences';
import * as Posts from '#core/posts';
import { Story } from '#web/components/story';
import { SubscribeBlock } from '#web/components/subscribe-block';
import { TrackedLink } from '#web/components/tracked-link';
import { notFound, publicPageHeaders } from '#web/lib/cache';
import { clientLoader, handle } from '#web/lib/public-document';
import { cachedRead } from '#web/lib/public-cache.server';
import { subscribeTo } from '#web/lib/subscribe.server';
import { storyView } from '#web/lib/views';
import { duration, formatDate, verb } from '#web/lib/format';

export const headers = publicPageHeaders;
export { clientLoader, handle };

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data
    ? [
        { title: `${data.post.title} · Cluefeed` },
        { name: 'description', content: data.post.teaser },
      ]
    : [{ title: 'Page not found · Cluefeed' }];

const MORE_STORIES = 3;

export function loader({ params }: LoaderFunctionArgs) {
  const slug = params.slug ?? '';
  return cachedRead(`post-page:${slug}`, () => loadPost(slug));
}

export async function action({ request, params }: ActionFunctionArgs) {
  const post = await Posts.bySlug(params.slug ?? '');
  return subscribeTo(request, post && (await Audiences.byId(post.audienceId)));
}

async function loadPost(slug: string) {
  const post = await Posts.bySlug(slug);
  if (!post) throw notFound();
  const [audience, latest] = await Promise.all([
    Audiences.byId(post.audienceId),
    Posts.byAudience(post.audienceId, MORE_STORIES + 1),
  ]);
  const { content, ...rest } = post;
  return {
    post: { ...rest, html: content ? Posts.renderMarkdown(content) : undefined },
    audience: audience && {
      title: audience.title,
      slug: audience.slug,
      frequency: audience.frequency,
      state: audience.state,
    },
    more: latest
      .filter((other) => other.id !== post.id)
      .slice(0, MORE_STORIES)
      .map(storyView),
  };
}

export default function PostPage() {
  const { post, audience, more } = useLoaderData<typeof loader>();
  return (
    <article className="page narrow post">
      <header className="post__header">
        {audience && (
          <p className="eyebrow">
            <TrackedLink to={`/a/${audience.slug}`}>For those who {audience.title}</TrackedLink>
          </p>
        )}
        <h1>{post.title}</h1>
        <p className="post__meta">
          <span className={`badge badge--${post.type}`}>{duration(post)}</span>
          <time dateTime={post.date}>{formatDate(post.date)}</time>
          <span>by {post.author.name}</span>
        </p>
      </header>
      {post.cover && (
        <img
          className="post__cover"
          src={post.cover}
          alt=""
          width={1200}
          height={630}
          fetchPriority="high"
        />
      )}
      <p className="post__teaser">{post.teaser}</p>
      {post.reason && <p className="post__reason">{post.reason}</p>}
      {post.link && (
        <p className="post__source">
          <a className="button" href={post.link.url} rel="noopener noreferrer">
            {verb(post.type)[0]!.toUpperCase() + verb(post.type).slice(1)} on {post.link.domain}
          </a>
          {post.link.comments && (
            <a href={post.link.comments} rel="noopener noreferrer">
              Join the discussion
            </a>
          )}
        </p>
      )}
      {post.html && <div className="prose" dangerouslySetInnerHTML={{ __html: post.html }} />}
      <aside className="author" aria-label="About the author">
        <img src={post.author.avatar} alt="" width={64} height={64} />
        <div>
          <p className="author__name">
            {post.author.name} <span className="author__handle">@{post.author.handle}</span>
          </p>
          <p className="author__tagline">{post.author.tagLine}</p>
          <p className="author__bio">{post.author.bio}</p>
        </div>
      </aside>
      {more.length > 0 && audience && (
        <section aria-labelledby="more-stories" className="more">
          <h2 id="more-stories">More for those who {audience.title}</h2>
          <ul className="more__list">
            {more.map((other) => (
              <li key={other.id}>
                <Story post={other} />
              </li>
            ))}
          </ul>
        </section>
      )}
      {audience?.state === 'active' && <SubscribeBlock audience={audience} />}
    </article>
  );
}
