// Loads the subscriber a page's `subscriberHash` names; a bad link becomes the page's error state.
import { data } from '@remix-run/node';
import { isVisibleError } from '#core/common';
import * as Subscribers from '#core/subscribers';
import type { TokenPurpose } from '#core/tokens';

export type SubscriberPage<T> = ({ ok: true } & T) | { ok: false; error: string };

export function tokenOf(request: Request): string {
  return new URL(request.url).searchParams.get('subscriberHash') ?? '';
}

/** Runs `load` for the token's subscriber, or answers the broken-link state with a 400. */
export async function withSubscriber<T>(
  request: Request,
  purposes: TokenPurpose[],
  load: (subscriber: Subscribers.Subscriber, token: string) => Promise<T>,
) {
  const token = tokenOf(request);
  const headers = { 'Cache-Control': 'private, no-store' };
  let subscriber: Subscribers.Subscriber;
  try {
    subscriber = await Subscribers.fromToken(token, purposes);
  } catch (error) {
    if (!isVisibleError(error) || error.code !== 'subscriber.invalid_link') throw error;
    return data({ ok: false, error: error.message } as SubscriberPage<T>, { status: 400, headers });
  }
  return data({ ok: true, ...(await load(subscriber, token)) } as SubscriberPage<T>, { headers });
}
