// SelectMoreAudiences: after subscribing, the visitor toggles more audiences (related ones first
// with useSuggestions); each toggle subscribes or unsubscribes at once.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import * as Audiences from '#core/audiences';
import { AudienceCloud } from '#web/components/audience-toggle';
import { LinkError } from '#web/components/link-error';
import { TrackedLink } from '#web/components/tracked-link';
import { privatePageHeaders } from '#web/lib/cache';
import { toggleAction } from '#web/lib/subscriber-actions.server';
import { withSubscriber } from '#web/lib/subscriber.server';

export const meta: MetaFunction = () => [{ title: 'Assemble your newsletter · Cluefeed' }];
export const headers = privatePageHeaders;

export function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  return withSubscriber(request, ['assemble', 'manage'], async (subscriber) => {
    const active = (await Audiences.list()).filter((audience) => audience.state === 'active');
    const origin = active.find((audience) => audience.slug === url.searchParams.get('slug'));
    const related = new Set(
      url.searchParams.get('useSuggestions') === 'true' ? (origin?.relatedAudienceIds ?? []) : [],
    );
    const ordered = [
      ...active.filter((a) => related.has(a.id)),
      ...active.filter((a) => !related.has(a.id)),
    ];
    return {
      email: subscriber.email,
      slug: origin?.slug,
      selected: [...(subscriber.audienceIds ?? [])],
      audiences: ordered.map(({ id, title, frequency }) => ({ id, title, frequency })),
    };
  });
}

export function action({ request }: ActionFunctionArgs) {
  return toggleAction(request, ['assemble', 'manage']);
}

export default function AssembleYourNewsletter() {
  const page = useLoaderData<typeof loader>();
  if (!page.ok) return <LinkError message={page.error} />;
  return (
    <section className="page narrow">
      <h1>Assemble your newsletter</h1>
      <p className="lede">
        We sent a confirmation link to <strong>{page.email}</strong>. Meanwhile, pick every audience
        you belong to: each one you select is added to your newsletter at once.
      </p>
      <AudienceCloud audiences={page.audiences} selected={page.selected} />
      <TrackedLink
        to={`/subscribed-to-newsletter${page.slug ? `/${page.slug}` : ''}`}
        className="button button--wide"
      >
        Continue
      </TrackedLink>
    </section>
  );
}
