// SubscriptionConfirmation: the e-mail link opens this page; a GET never changes state (mail
// scanners follow links), so the page confirms with a POST it sends itself, or with a button
// when there is no JavaScript.
import { data, redirect, type ActionFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, useActionData, useNavigation, useSubmit } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import { isVisibleError } from '#core/common';
import * as Subscribers from '#core/subscribers';
import { LinkError } from '#web/components/link-error';
import { privatePageHeaders } from '#web/lib/cache';
import { tokenOf } from '#web/lib/subscriber.server';

export const meta: MetaFunction = () => [{ title: 'Confirm your subscription · Cluefeed' }];
export const headers = privatePageHeaders;

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST')
    throw new Response('Use POST', { status: 405, headers: { Allow: 'POST' } });
  try {
    const subscriber = await Subscribers.confirm(tokenOf(request));
    const next = new URLSearchParams({ subscriberHash: Subscribers.manageToken(subscriber) });
    return redirect(`/subscription-confirmed?${next}`);
  } catch (error) {
    if (!isVisibleError(error)) throw error;
    return data(
      { error: error.message },
      { status: error.status, headers: { 'Cache-Control': 'no-store' } },
    );
  }
}

export default function ConfirmSubscription() {
  const result = useActionData<typeof action>();
  const submit = useSubmit();
  const form = useRef<HTMLFormElement>(null);
  const navigation = useNavigation();
  const sent = useRef(false);

  useEffect(() => {
    if (sent.current || !form.current) return;
    sent.current = true;
    submit(form.current, { replace: true });
  }, [submit]);

  if (result?.error) return <LinkError message={result.error} />;
  return (
    <section className="page narrow center">
      <h1>Verifying your subscription...</h1>
      <p>This takes a second.</p>
      <Form method="post" ref={form}>
        <button type="submit" className="button" disabled={navigation.state !== 'idle'}>
          Confirm my subscription
        </button>
      </Form>
    </section>
  );
}
