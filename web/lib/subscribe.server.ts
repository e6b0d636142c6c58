// Subscribing a visitor to an audience from a page of it (its own page, a post, a content card):
// e-mail -> pending subscriber + confirmation e-mail -> SelectMoreAudiences with a short-lived
// token. Each page's action finds its audience and hands it here.
import { data, redirect } from '@remix-run/node';
import * as Audiences from '#core/audiences';
import { isVisibleError, trackingFrom, withTracking } from '#core/common';
import * as Subscribers from '#core/subscribers';
import type { SubscribeActionData } from '#web/components/subscribe-form';
import { clientIp, readForm } from '#web/lib/api.server';
import { notFound } from '#web/lib/cache';
import { cachedRead } from '#web/lib/public-cache.server';

/** The audience page's action: its slug names the audience (a past slug is not followed). */
export async function subscribeBySlug(request: Request, slug: string) {
  const lookup = await cachedRead(`audience:${slug}`, () => Audiences.bySlug(slug));
  if (lookup.kind !== 'found') throw notFound();
  return subscribeTo(request, lookup.audience);
}

/** Subscribes the form's address to `audience`, or answers the form's message with a 4xx. */
export async function subscribeTo(
  request: Request,
  audience: Pick<Audiences.Audience, 'id' | 'slug'> | undefined,
) {
  if (!audience) throw notFound();
  const tracking = trackingFrom(new URL(request.url).searchParams);
  let placement: SubscribeActionData['placement'] = 'hero';
  let email = '';
  try {
    const form = await readForm(request);
    placement = form.get('placement') === 'bar' ? 'bar' : 'hero';
    email = form.get('email') ?? '';
    const { assembleToken } = await Subscribers.subscribe({
      email,
      audienceId: audience.id,
      ...tracking,
      ip: clientIp(request),
    });
    const withRaud = { ...tracking, raud: audience.slug };
    // Only the visitor who just created the subscription may assemble it; anyone else typing a
    // pending address gets the 'check your inbox' page, which reveals nothing about it.
    if (!assembleToken)
      return redirect(withTracking(`/subscribed-to-newsletter/${audience.slug}`, withRaud));
    const next = new URLSearchParams({
      slug: audience.slug,
      useSuggestions: 'true',
      subscriberHash: assembleToken,
    });
    return redirect(withTracking(`/assemble-your-newsletter?${next}`, withRaud));
  } catch (error) {
    if (!isVisibleError(error)) throw error;
    return data({ placement, email, error: error.message } satisfies SubscribeActionData, {
      status: error.status,
      headers: { 'Cache-Control': 'no-store' },
    });
  }
}
