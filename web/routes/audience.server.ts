// The audience page's subscribe action: e-mail -> pending subscriber + confirmation e-mail ->
// SelectMoreAudiences with a short-lived token.
import { data, redirect, type ActionFunctionArgs } from '@remix-run/node';
import * as Audiences from '#core/audiences';
import { isVisibleError, trackingFrom, withTracking } from '#core/common';
import * as RateLimit from '#core/rate-limit';
import * as Subscribers from '#core/subscribers';
import type { SubscribeActionData } from '../components/subscribe-form';
import { clientIp } from '../lib/api.server';
import { notFound } from '../lib/cache';
import { cachedRead } from '../lib/public-cache.server';

export async function subscribeAction({ request, params }: ActionFunctionArgs) {
  const url = new URL(request.url);
  const form = await request.formData();
  const placement: SubscribeActionData['placement'] =
    form.get('placement') === 'bar' ? 'bar' : 'hero';
  const slug = params.slug ?? '';
  const lookup = await cachedRead(`audience:${slug}`, () => Audiences.bySlug(slug));
  if (lookup.kind !== 'found') throw notFound();
  const tracking = trackingFrom(url.searchParams);
  try {
    await RateLimit.hit(RateLimit.LIMITS.subscribePerIp, clientIp(request));
    const { assembleToken } = await Subscribers.subscribe({
      email: String(form.get('email') ?? ''),
      audienceId: lookup.audience.id,
      ...tracking,
    });
    const next = new URLSearchParams({
      slug: lookup.audience.slug,
      useSuggestions: 'true',
      subscriberHash: assembleToken,
    });
    return redirect(
      withTracking(`/assemble-your-newsletter?${next}`, {
        ...tracking,
        raud: lookup.audience.slug,
      }),
    );
  } catch (error) {
    if (!isVisibleError(error)) throw error;
    return data({ placement, error: error.message } satisfies SubscribeActionData, {
      status: error.status,
      headers: { 'Cache-Control': 'no-store' },
    });
  }
}
