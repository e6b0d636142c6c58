// Content card page /cc/{slug}-{id}: the card's stories. The id is the last dash-separated piece;
// a URL with an outdated slug part answers 301 to the card's own path. It ends with its audience's
// newsletter, which the page's action subscribes to. A public document (ADR 35).
import {
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import * as Audiences from '#core/audiences';
import * as ContentCards from '#core/content-cards';
import { Story } from '#web/components/story';
import { SubscribeBlock } from '#web/components/subscribe-block';
import { TrackedLink } from '#web/components/tracked-link';
import { notFound, publicPageHeaders } from '#web/lib/cache';
import { clientLoader, handle } from '#web/lib/public-document';
import { cachedRead } from '#web/lib/public-cache.server';
import { subscribeTo } from '#web/lib/subscribe.server';
import { cardView } from '#web/lib/views';
import { formatDate } from '#web/lib/format';

export const headers = publicPageHeaders;
export { clientLoader, handle };

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data
    ? [
        { title: `${data.card.verbalDescriptor} · Cluefeed` },
        { name: 'description', content: data.card.primaryStory.teaser },
      ]
    : [{ title: 'Page not found · Cluefeed' }];

export async function loader({ params, request }: LoaderFunctionArgs) {
  const segment = params.slug ?? '';
  const id = ContentCards.idFromPathSlug(segment);
  const page = await cachedRead(`card-page:${id}`, async () => {
    const card = await ContentCards.byId(id);
    const audience = card && (await Audiences.byId(card.audienceId));
    return (
      card && {
        card: cardView(card),
        slug: card.slug,
        audience: audience && {
          title: audience.title,
          slug: audience.slug,
          frequency: audience.frequency,
          state: audience.state,
        },
      }
    );
  });
  if (!page) throw notFound();
  const canonical = ContentCards.pathSlug({ slug: page.slug, id: page.card.id });
  if (segment !== canonical) throw redirect(`/cc/${canonical}${new URL(request.url).search}`, 301);
  return page;
}

export async function action({ request, params }: ActionFunctionArgs) {
  const card = await ContentCards.byId(ContentCards.idFromPathSlug(params.slug ?? ''));
  return subscribeTo(request, card && (await Audiences.byId(card.audienceId)));
}

export default function ContentCardPage() {
  const { card, audience } = useLoaderData<typeof loader>();
  const raud = audience?.slug;
  return (
    <article className="page narrow content-card">
      <header>
        {audience && (
          <p className="eyebrow">
            <TrackedLink to={`/a/${audience.slug}`}>For those who {audience.title}</TrackedLink>
          </p>
        )}
        <h1>{card.verbalDescriptor}</h1>
        <p className="card__date">
          <time dateTime={card.date}>{formatDate(card.date)}</time>
        </p>
      </header>
      <section aria-labelledby="primary-stories">
        <h2 id="primary-stories" className="card__header">
          {card.primaryStoriesHeader}
        </h2>
        {card.primaryStory.cover && (
          <img
            className="post__cover"
            src={card.primaryStory.cover}
            alt=""
            width={1200}
            height={630}
          />
        )}
        <Story post={card.primaryStory} raud={raud} />
      </section>
      {card.secondaryStories.length > 0 && (
        <section aria-labelledby="secondary-stories">
          <h2 id="secondary-stories" className="card__header">
            {card.secondaryStoriesHeader}
          </h2>
          <ul className="card__secondary">
            {card.secondaryStories.map((post) => (
              <li key={post.id}>
                <Story post={post} raud={raud} />
              </li>
            ))}
          </ul>
        </section>
      )}
      {audience?.state === 'active' && <SubscribeBlock audience={audience} />}
    </article>
  );
}
