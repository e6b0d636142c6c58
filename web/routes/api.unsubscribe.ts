// One-click unsubscribe (RFC 8058): mail clients POST 'List-Unsubscribe=One-Click' to the https
// URL of the List-Unsubscribe header. A GET (a person following the URL) gets the unsubscribe page.
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import { VisibleError } from '#core/common';
import * as RateLimit from '#core/rate-limit';
import * as Subscribers from '#core/subscribers';
import { clientIp, handleApi, json, readBody } from '#web/lib/api.server';
import { tokenOf } from '#web/lib/subscriber.server';

export function loader({ request }: LoaderFunctionArgs) {
  return redirect(`/unsubscribe?${new URLSearchParams({ subscriberHash: tokenOf(request) })}`);
}

export function action({ request }: ActionFunctionArgs) {
  return handleApi(async () => {
    if (request.method !== 'POST')
      throw new VisibleError('request.method_not_allowed', 'Use POST', 405);
    await RateLimit.hit(RateLimit.LIMITS.subscriberFormPerIp, clientIp(request));
    const body = await readBody(request, 1024);
    if (!new URLSearchParams(body).has('List-Unsubscribe')) {
      throw new VisibleError('unsubscribe.bad_request', 'Expected List-Unsubscribe=One-Click', 400);
    }
    await Subscribers.unsubscribe(await Subscribers.fromToken(tokenOf(request), ['manage']));
    return json({ ok: true });
  });
}
