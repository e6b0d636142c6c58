// UpcomingNiches: 'I am one of those who...' — each niche toggled is saved at once (a form post per
// toggle, so it works without JavaScript too). Submit needs a selection (disabled until then, and
// saying why, in full ink: ADR 0053); Skip shows only while nothing is selected.
import {
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { Form, useActionData, useFetcher, useFetchers, useLoaderData } from '@remix-run/react';
import * as Audiences from '#core/audiences';
import { VisibleError } from '#core/common';
import * as Subscribers from '#core/subscribers';
import { LinkError } from '#web/components/link-error';
import { TrackedLink } from '#web/components/tracked-link';
import { privatePageHeaders } from '#web/lib/cache';
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
    if (form.get('intent') === 'niche') {
      return Subscribers.setShadowAudience(subscriber, {
        audienceId: form.get('audienceId') ?? '',
        subscribed: form.get('subscribed') === 'true',
      });
    }
    if (form.get('intent') !== 'submit')
      throw new VisibleError('input.invalid', 'Unknown action', 400);
    if ((subscriber.shadowAudienceIds ?? []).length === 0) {
      throw new VisibleError('niches.none', 'Please select at least one niche', 400);
    }
    const next = new URLSearchParams({
      subscriberHash: new URL(request.url).searchParams.get('subscriberHash') ?? '',
    });
    return redirect(`/thank-you-for-voting?${next}`);
  });
}

/** The niche's state, counting a toggle still on its way to the server. */
function useChosen(niches: { id: string; subscribed: boolean }[]): Set<string> {
  const chosen = new Set(niches.filter((n) => n.subscribed).map((n) => n.id));
  for (const fetcher of useFetchers()) {
    const id = fetcher.formData?.get('audienceId');
    if (fetcher.formData?.get('intent') !== 'niche' || typeof id !== 'string') continue;
    if (fetcher.formData.get('subscribed') === 'true') chosen.add(id);
    else chosen.delete(id);
  }
  return chosen;
}

function NicheToggle({ niche, on }: { niche: { id: string; title: string }; on: boolean }) {
  const fetcher = useFetcher();
  return (
    <fetcher.Form method="post" className="toggle" preventScrollReset>
      <input type="hidden" name="intent" value="niche" />
      <input type="hidden" name="audienceId" value={niche.id} />
      <input type="hidden" name="subscribed" value={String(!on)} />
      <button type="submit" className="cloud__item cloud__toggle" aria-pressed={on}>
        {niche.title}
      </button>
    </fetcher.Form>
  );
}

export default function UpcomingNiches() {
  const page = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const chosen = useChosen(page.ok ? page.niches : []);
  if (!page.ok) return <LinkError message={page.error} />;
  const hash = encodeURIComponent(page.token);

  return (
    <section className="page narrow">
      <h1>I am one of those who...</h1>
      <p className="lede">
        Select the niches you belong to, and we will open them sooner. Each one you select is saved
        at once; Submit when you have chosen, or Skip if none of them is you.
      </p>
      <ul className="cloud cloud--large" aria-label="Upcoming niches">
        {page.niches.map((niche) => (
          <li key={niche.id}>
            <NicheToggle niche={niche} on={chosen.has(niche.id)} />
          </li>
        ))}
      </ul>
      {result && !result.ok && (
        <p className="field__error" role="alert">
          {result.error}
        </p>
      )}
      <Form method="post" className="actions">
        <input type="hidden" name="intent" value="submit" />
        <button
          type="submit"
          className="button niches__submit"
          disabled={chosen.size === 0}
          aria-describedby={chosen.size === 0 ? 'niches-why' : undefined}
        >
          Submit
        </button>
        {chosen.size === 0 && (
          <TrackedLink
            to={`/we-should-have-known?subscriberHash=${hash}`}
            className="button button--ghost"
          >
            Skip
          </TrackedLink>
        )}
        {chosen.size === 0 && (
          <p id="niches-why" className="niches__why">
            Select a niche to submit.
          </p>
        )}
      </Form>
    </section>
  );
}
