// POST /api/submit-email (header X-API-Token, body {email}): joins the waiting list.
import type { ActionFunctionArgs } from '@remix-run/node';
import { VisibleError } from '#core/common';
import * as RateLimit from '#core/rate-limit';
import * as Tokens from '#core/tokens';
import * as Waitlist from '#core/waitlist';
import { clientIp, handleApi, json, methodNotAllowed, readJson } from '#web/lib/api.server';
import { storingLogs } from '#web/lib/resource-route.server';

const MAX_BODY_BYTES = 1024;

export const loader = storingLogs(function loader() {
  return methodNotAllowed('POST');
});

export const action = storingLogs(function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed('POST');
  return handleApi(async () => {
    const token = Tokens.verify('waitlist', request.headers.get('x-api-token'));
    if (!token.ok) {
      throw new VisibleError(
        `token.${token.reason}`,
        'Your session expired. Please reload the page and try again.',
        401,
      );
    }
    await RateLimit.hit(RateLimit.LIMITS.waitlistPerIp, clientIp(request));
    const body = (await readJson(request, MAX_BODY_BYTES)) as Record<string, unknown>;
    await Waitlist.join({ ...body, email: body.email as string });
    return json({ ok: true });
  });
});
