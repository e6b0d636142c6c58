// /unsubscribe?subscriberHash=...: the link in every e-mail. The GET only asks; the button POSTs.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import * as Subscribers from '#core/subscribers';
import { LinkError } from '#web/components/link-error';
import { Unsubscribed } from '#web/components/unsubscribed';
import { TrackedLink } from '#web/components/tracked-link';
import { privatePageHeaders } from '#web/lib/cache';
import { subscriberAction } from '#web/lib/subscriber-actions.server';
import { withSubscriber } from '#web/lib/subscriber.server';

export const meta: MetaFunction = () => [{ title: 'Unsubscribe · Cluefeed' }];
export const headers = privatePageHeaders;

export function loader({ request }: LoaderFunctionArgs) {
  return withSubscriber(request, ['manage'], async (subscriber, token) => ({
    email: subscriber.email,
    unsubscribed: !Subscribers.canReceiveMail(subscriber),
    token,
  }));
}

export function action({ request }: ActionFunctionArgs) {
  return subscriberAction(request, ['manage'], (subscriber) => Subscribers.unsubscribe(subscriber));
}

export default function Unsubscribe() {
  const page = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  if (!page.ok) return <LinkError message={page.error} />;
  if (result && !result.ok) return <LinkError message={result.error} />;
  if (page.unsubscribed || result?.ok) {
    return <Unsubscribed email={page.email} />;
  }
  return (
    <section className="page narrow center">
      <h1>Unsubscribe?</h1>
      <p className="lede">{page.email} will stop receiving every Cluefeed e-mail.</p>
      <Form method="post">
        <button type="submit" className="button" disabled={navigation.state !== 'idle'}>
          Unsubscribe
        </button>
      </Form>
      <p>
        <TrackedLink to={`/subscription?subscriberHash=${encodeURIComponent(page.token)}`}>
          Change my audiences instead
        </TrackedLink>
      </p>
    </section>
  );
}
