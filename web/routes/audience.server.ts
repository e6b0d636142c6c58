// The audience page's subscribe action: e-mail -> pending subscriber + confirmation e-mail ->
// SelectMoreAudiences with a short-lived token.
import { data, redirect, type ActionFunctionArgs } from '@remix-run/node';
import * as Audiences from '#core/audiences';
import { isVisibleError, trackingFrom, withTracking } from '#core/common';
import * as RateLimit from '#core/rate-limit';
import * as Subscribers from '#core/subscribers';
import type { SubscribeActionData } from '#web/components/subscribe-form';
import { clientIp, readForm } from '#web/lib/api.server';
import { notFound } from '#web/lib/cache';
import { cachedRead } from '#web/lib/public-cache.server';

export async function subscribeAction({ request, params }: ActionFunctionArgs) {
  const url = new URL(request.url);
  const slug = params.slug ?? '';
  const lookup = await cachedRead(`audience:${slug}`, () => Audiences.bySlug(slug));
  if (lookup.kind !== 'found') throw notFound();
  const tracking = trackingFrom(url.searchParams);
  let placement: SubscribeActionData['placement'] = 'hero';
  try {
    const form = await readForm(request);
    placement = form.get('placement') === 'bar' ? 'bar' : 'hero';
    await RateLimit.hit(RateLimit.LIMITS.subscribePerIp, clientIp(request));
    const { assembleToken } = await Subscribers.subscribe({
      email: form.get('email') ?? '',
      audienceId: lookup.audience.id,
      ...tracking,
    });
    const withRaud = { ...tracking, raud: lookup.audience.slug };
    // Only the visitor who just created the subscription may assemble it; anyone else typing a
    // pending address gets the 'check your inbox' page, which reveals nothing about it.
    if (!assembleToken)
      return redirect(withTracking(`/subscribed-to-newsletter/${lookup.audience.slug}`, withRaud));
    const next = new URLSearchParams({
      slug: lookup.audience.slug,
      useSuggestions: 'true',
      subscriberHash: assembleToken,
    });
    return redirect(withTracking(`/assemble-your-newsletter?${next}`, withRaud));
  } catch (error) {
    if (!isVisibleError(error)) throw error;
    return data({ placement, error: error.message } satisfies SubscribeActionData, {
      status: error.status,
      headers: { 'Cache-Control': 'no-store' },
    });
  }
}
