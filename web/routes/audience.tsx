// Audience page /a/:slug: its content cards (5, then more with each 'View more'), WhatToExpect,
// and the bottom bar. 'View more' is a link to the next page (`?after={cursor}`); with JavaScript
// the next page is fetched and added below the cards already shown (web/browser/audience-page.ts).
// A public document (ADR 35). Each page is one bounded Query. A past slug answers 301 to the current one; an unknown slug is a 404.
import {
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import * as Audiences from '#core/audiences';
import * as ContentCards from '#core/content-cards';
import { BottomBar } from '#web/components/bottom-bar';
import { ContentCardView } from '#web/components/content-card';
import { TrackedLink } from '#web/components/tracked-link';
import { newsletterPromise } from '#web/components/subscribe-block';
import { SubscribeForm, type SubscribeActionData } from '#web/components/subscribe-form';
import { WHAT_TO_EXPECT_ID, WhatToExpect } from '#web/components/what-to-expect';
import { notFound, publicPageHeaders } from '#web/lib/cache';
import { clientLoader, handle } from '#web/lib/public-document';
import { cachedRead } from '#web/lib/public-cache.server';
import { cardView } from '#web/lib/views';
import { subscribeBySlug } from '#web/lib/subscribe.server';

export const headers = publicPageHeaders;
export { clientLoader, handle };

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data
    ? [
        { title: `For those who ${data.audience.title} · Cluefeed` },
        {
          name: 'description',
          content: `Stories for people who ${data.audience.title}, picked and explained, ${data.audience.frequency}.`,
        },
      ]
    : [{ title: 'Page not found · Cluefeed' }];

export const action = ({ request, params }: ActionFunctionArgs) =>
  subscribeBySlug(request, params.slug ?? '');

export async function loader({ params, request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const slug = params.slug ?? '';
  const lookup = await cachedRead(`audience:${slug}`, () => Audiences.bySlug(slug));
  if (lookup.kind === 'missing') throw notFound();
  if (lookup.kind === 'moved') throw redirect(`/a/${lookup.slug}${url.search}`, 301);
  const { audience } = lookup;
  const after = url.searchParams.get('after') ?? '';
  const laterPage = ContentCards.isCursor(after);
  const [page, related] = await cachedRead(
    `audience-page:${audience.id}:${laterPage ? after : ''}`,
    () =>
      Promise.all([
        laterPage
          ? ContentCards.pageForAudience(audience.id, { limit: ContentCards.CARDS_PER_PAGE, after })
          : ContentCards.pageForAudience(audience.id, {
              limit: ContentCards.CARDS_BEFORE_VIEW_MORE,
            }),
        Audiences.byIds(audience.relatedAudienceIds ?? []),
      ]),
  );
  return {
    audience: {
      title: audience.title,
      slug: audience.slug,
      frequency: audience.frequency,
      state: audience.state,
    },
    // 'View more' with script adds these cards to a page that shows some stories already.
    cards: (laterPage
      ? ContentCards.oneCardPerStory(
          page.cards,
          ContentCards.shownStoryIds(url.searchParams.get('shown')),
        )
      : page.cards
    ).map((card) => ({
      ...cardView(card),
      path: `/cc/${ContentCards.pathSlug(card)}`,
    })),
    next: page.next,
    related: related.map(({ title, slug }) => ({ title, slug })),
    expectOpen: url.searchParams.has('expect'),
  };
}

export default function AudiencePage() {
  const { audience, cards, next, related, expectOpen } = useLoaderData<typeof loader>();
  const refused = useActionData<SubscribeActionData>();
  const expectLink = (
    <TrackedLink to="?expect=1" className="button button--ghost" data-opens={WHAT_TO_EXPECT_ID}>
      What to expect
    </TrackedLink>
  );

  return (
    <>
      <div className="page audience">
        <header className="audience__hero" id="subscribe">
          <p className="eyebrow">
            {audience.frequency === 'daily' ? 'Daily newsletter' : 'Weekly newsletter'}
          </p>
          <h1>For those who {audience.title}</h1>
          <p className="audience__lede">{newsletterPromise(audience.frequency)}</p>
          {audience.state === 'active' && <SubscribeForm placement="hero" />}
          {expectLink}
        </header>

        {audience.state === 'upcoming' ? (
          <p className="notice">
            This niche is coming soon. Its first stories are being picked right now.
          </p>
        ) : (
          <section aria-labelledby="latest-stories">
            <h2 id="latest-stories" className="section-title">
              Latest stories
            </h2>
            <ul className="cards" id="cards">
              {cards.map((card) => (
                <li key={card.id}>
                  <ContentCardView card={card} href={card.path} raud={audience.slug} />
                </li>
              ))}
            </ul>
            {next && (
              <TrackedLink
                to={`?after=${encodeURIComponent(next)}`}
                className="button button--wide"
                data-view-more
              >
                View more
              </TrackedLink>
            )}
          </section>
        )}

        {related.length > 0 && (
          <section aria-labelledby="related-audiences" className="related">
            <h2 id="related-audiences" className="section-title">
              Related audiences
            </h2>
            <ul className="cloud">
              {related.map((item) => (
                <li key={item.slug}>
                  <TrackedLink to={`/a/${item.slug}`} raud={audience.slug} className="cloud__item">
                    {item.title}
                  </TrackedLink>
                </li>
              ))}
            </ul>
          </section>
        )}

        <WhatToExpect
          title={audience.title}
          frequency={audience.frequency}
          initiallyOpen={expectOpen}
        />
      </div>
      {/* After the page, not in it: the bar sticks to the window's bottom only as far as the
          page goes, so it never covers the footer. */}
      {audience.state === 'active' && (
        <BottomBar shown={refused?.placement === 'bar'}>
          <p>
            <strong>For those who {audience.title}</strong>
            <span>
              {audience.frequency === 'daily' ? 'Every morning, 5 minutes' : 'Once a week'}
            </span>
          </p>
          <SubscribeForm placement="bar" />
          <button type="button" className="button button--ghost" data-opens={WHAT_TO_EXPECT_ID}>
            What to expect
          </button>
        </BottomBar>
      )}
    </>
  );
}
