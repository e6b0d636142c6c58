// Form actions shared by the subscriber pages; each answers a clear 4xx for bad input.
import { data } from '@remix-run/node';
import { isVisibleError } from '#core/common';
import * as RateLimit from '#core/rate-limit';
import * as Subscribers from '#core/subscribers';
import type { TokenPurpose } from '#core/tokens';
import { clientIp, readForm } from './api.server';
import { tokenOf } from './subscriber.server';

export type ActionResult =
  { ok: true; intent: string } | { ok: false; intent: string; error: string };

const headers = { 'Cache-Control': 'no-store' };

/** Runs one subscriber action behind the per-IP limit; VisibleErrors become the form's message. */
export async function subscriberAction(
  request: Request,
  purposes: TokenPurpose[],
  run: (subscriber: Subscribers.Subscriber, form: URLSearchParams) => Promise<Response | void>,
) {
  let intent = '';
  try {
    const form = await readForm(request);
    intent = form.get('intent') ?? '';
    await RateLimit.hit(RateLimit.LIMITS.subscriberFormPerIp, clientIp(request));
    const subscriber = await Subscribers.fromToken(tokenOf(request), purposes);
    const response = await run(subscriber, form);
    return response ?? data({ ok: true, intent } as ActionResult, { headers });
  } catch (error) {
    if (!isVisibleError(error)) throw error;
    return data({ ok: false, intent, error: error.message } as ActionResult, {
      status: error.status,
      headers,
    });
  }
}

/** An audience toggle of the cloud: subscribe or unsubscribe at once. */
export function toggle(subscriber: Subscribers.Subscriber, form: URLSearchParams) {
  return Subscribers.setAudience(subscriber, {
    audienceId: form.get('audienceId') ?? '',
    subscribed: form.get('subscribed') === 'true',
  });
}

export function toggleAction(request: Request, purposes: TokenPurpose[]) {
  return subscriberAction(request, purposes, toggle);
}
