// UpcomingNiches: 'I am one of those who...' — pick the niches we should open next. Submit needs a
// selection; Skip shows only while nothing is selected.
import {
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useState } from 'react';
import * as Audiences from '#core/audiences';
import * as Subscribers from '#core/subscribers';
import { LinkError } from '#web/components/link-error';
import { TrackedLink } from '#web/components/tracked-link';
import { privatePageHeaders } from '#web/lib/cache';
import { useHydrated } from '#web/lib/hydrated';
import { subscriberAction } from '#web/lib/subscriber-actions.server';
import { withSubscriber } from '#web/lib/subscriber.server';

export const meta: MetaFunction = () => [{ title: 'Upcoming niches · Cluefeed' }];
export const headers = privatePageHeaders;

export function loader({ request }: LoaderFunctionArgs) {
  return withSubscriber(request, ['manage'], async (subscriber, token) => ({
    token,
    niches: (await Audiences.list())
      .filter((audience) => audience.state === 'upcoming')
      .map(({ id, title }) => ({
        id,
        title,
        subscribed: (subscriber.shadowAudienceIds ?? []).includes(id),
      })),
  }));
}

export function action({ request }: ActionFunctionArgs) {
  return subscriberAction(request, ['manage'], async (subscriber, form) => {
    await Subscribers.addShadowAudiences(subscriber, form.getAll('niche').map(String));
    const next = new URLSearchParams({
      subscriberHash: new URL(request.url).searchParams.get('subscriberHash') ?? '',
    });
    return redirect(`/thank-you-for-voting?${next}`);
  });
}

export default function UpcomingNiches() {
  const page = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const [chosen, setChosen] = useState<string[]>(() =>
    page.ok ? page.niches.filter((n) => n.subscribed).map((n) => n.id) : [],
  );
  if (!page.ok) return <LinkError message={page.error} />;
  const hash = encodeURIComponent(page.token);
  const toggle = (id: string) =>
    setChosen((ids) => (ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id]));

  return (
    <section className="page narrow">
      <h1>I am one of those who...</h1>
      <p className="lede">Pick the niches you belong to, and we will open them sooner.</p>
      <Form method="post" className="niches">
        <fieldset>
          <legend className="visually-hidden">Upcoming niches</legend>
          <ul className="cloud cloud--large">
            {page.niches.map((niche) => (
              <li key={niche.id}>
                <label className="cloud__item cloud__check">
                  <input
                    type="checkbox"
                    name="niche"
                    value={niche.id}
                    checked={chosen.includes(niche.id)}
                    onChange={() => toggle(niche.id)}
                  />
                  {niche.title}
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
        {result && !result.ok && (
          <p className="field__error" role="alert">
            {result.error}
          </p>
        )}
        <div className="actions">
          <button
            type="submit"
            className="button"
            disabled={(hydrated && chosen.length === 0) || navigation.state !== 'idle'}
          >
            Submit
          </button>
          {chosen.length === 0 && (
            <TrackedLink
              to={`/we-should-have-known?subscriberHash=${hash}`}
              className="button button--ghost"
            >
              Skip
            </TrackedLink>
          )}
        </div>
      </Form>
    </section>
  );
}
