// SuccessfulSubscription: 'Awesome!', the active audiences, and a way to the upcoming niches.
import { redirect, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import * as Subscribers from '#core/subscribers';
import { LinkError } from '#web/components/link-error';
import { TrackedLink } from '#web/components/tracked-link';
import { privatePageHeaders } from '#web/lib/cache';
import { withSubscriber } from '#web/lib/subscriber.server';

export const meta: MetaFunction = () => [{ title: 'Subscription confirmed · Cluefeed' }];
export const headers = privatePageHeaders;

export function loader({ request }: LoaderFunctionArgs) {
  return withSubscriber(request, ['manage'], async (subscriber, token) => {
    // A manage link of an unconfirmed or unsubscribed address must not claim a confirmation: the
    // preferences page says where the subscription stands.
    if (subscriber.status !== 'subscribed') {
      throw redirect(`/subscription?${new URLSearchParams({ subscriberHash: token })}`);
    }
    const { audiences } = await Subscribers.withAudiences(subscriber);
    return { token, titles: audiences.filter((a) => a.state === 'active').map((a) => a.title) };
  });
}

/** 'a, b and c' */
export function listOf(items: string[]): string {
  return items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

export default function SubscriptionConfirmed() {
  const page = useLoaderData<typeof loader>();
  if (!page.ok) return <LinkError message={page.error} />;
  return (
    <section className="page narrow center">
      <h1>Awesome!</h1>
      <p className="lede">Your newsletter includes stories for those who {listOf(page.titles)}.</p>
      <TrackedLink
        to={`/upcoming-niches?subscriberHash=${encodeURIComponent(page.token)}`}
        className="button"
      >
        View Upcoming Niches
      </TrackedLink>
    </section>
  );
}
