// One-click unsubscribe (RFC 8058): mail clients POST 'List-Unsubscribe=One-Click' to the https
// URL of the List-Unsubscribe header, URL-encoded or as multipart/form-data (RFC 8058 allows
// both). A GET (a person following the URL) gets the unsubscribe page.
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import { VisibleError } from '#core/common';
import * as Subscribers from '#core/subscribers';
import { handleApi, json, mediaType, readBody } from '#web/lib/api.server';
import { tokenOf } from '#web/lib/subscriber.server';
import { storingLogs } from '#web/lib/resource-route.server';

const MAX_BODY_BYTES = 4096;

export const loader = storingLogs(function loader({ request }: LoaderFunctionArgs) {
  return redirect(`/unsubscribe?${new URLSearchParams({ subscriberHash: tokenOf(request) })}`);
});

/** The posted form, from either encoding RFC 8058 senders use. */
async function oneClickForm(request: Request): Promise<URLSearchParams | FormData> {
  const type = request.headers.get('content-type') ?? '';
  const body = await readBody(request, MAX_BODY_BYTES);
  if (mediaType(request) === 'application/x-www-form-urlencoded') return new URLSearchParams(body);
  if (mediaType(request) === 'multipart/form-data') {
    const copy = new Request(request.url, {
      method: 'POST',
      body,
      headers: { 'content-type': type },
    });
    return copy.formData().catch(() => {
      throw new VisibleError('unsubscribe.bad_request', 'The multipart body is malformed', 400);
    });
  }
  throw new VisibleError(
    'request.unsupported_type',
    'Send application/x-www-form-urlencoded or multipart/form-data',
    415,
  );
}

export const action = storingLogs(function action({ request }: ActionFunctionArgs) {
  return handleApi(async () => {
    if (request.method !== 'POST')
      throw new VisibleError('request.method_not_allowed', 'Use POST', 405);
    const form = await oneClickForm(request);
    if (form.get('List-Unsubscribe') !== 'One-Click') {
      throw new VisibleError('unsubscribe.bad_request', 'Expected List-Unsubscribe=One-Click', 400);
    }
    await Subscribers.unsubscribeOneClick(tokenOf(request));
    return json({ ok: true });
  });
});
