// Loader and action of the three pages that follow the upcoming niches (and the pre-success page):
// they show the suggest-audiences form once the subscriber's status is 'subscribed'.
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import { isVisibleError } from '#core/common';
import * as RateLimit from '#core/rate-limit';
import * as Subscribers from '#core/subscribers';
import * as Suggestions from '#core/suggestions';
import { clientIp, readForm } from './api.server';
import { tokenOf, withSubscriber } from './subscriber.server';

export function suggestionsLoader({ request }: LoaderFunctionArgs) {
  return withSubscriber(request, ['manage'], async (subscriber) => ({ status: subscriber.status }));
}

/** Stores the suggestions; with a subscriber token, they are kept with the subscriber. */
export async function suggestionsAction({ request }: ActionFunctionArgs, withToken: boolean) {
  try {
    const form = await readForm(request);
    await RateLimit.hit(RateLimit.LIMITS.suggestionsPerIp, clientIp(request));
    const subscriber = withToken
      ? await Subscribers.fromToken(tokenOf(request), ['manage'])
      : undefined;
    await Suggestions.suggest({
      text: String(form.get('audiences') ?? ''),
      source: withToken ? 'after-niches' : 'pre-success',
      subscriberId: subscriber?.id,
    });
    return redirect('/subscribed-to-newsletter-completed');
  } catch (error) {
    if (!isVisibleError(error)) throw error;
    return data(
      { error: error.message },
      { status: error.status, headers: { 'Cache-Control': 'no-store' } },
    );
  }
}
