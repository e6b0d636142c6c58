// POST /api/events: first-party analytics beacons. A page view counts only with its page's token
// (core/analytics/page-view-token.ts), once, and never for a known bot.
import type { ActionFunctionArgs } from '@remix-run/node';
import { isbot } from 'isbot';
import * as Analytics from '#core/analytics';
import * as RateLimit from '#core/rate-limit';
import { clientIp, handleApi, methodNotAllowed, readJson } from '#web/lib/api.server';
import { storingLogs } from '#web/lib/resource-route.server';

const MAX_BODY_BYTES = 4096;

export const loader = storingLogs(function loader() {
  return methodNotAllowed('POST');
});

export const action = storingLogs(function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed('POST');
  return handleApi(async () => {
    await RateLimit.hit(RateLimit.LIMITS.analyticsPerIp, clientIp(request));
    // Browsers report page views only; funnel events are recorded by the server itself.
    const event = await readJson(request, MAX_BODY_BYTES);
    // A crawler's visit is no visitor's: answered like any view, so it learns nothing, not stored.
    if (isbot(request.headers.get('user-agent'))) return new Response(null, { status: 204 });
    await Analytics.recordPageView(event as Parameters<typeof Analytics.recordPageView>[0]);
    return new Response(null, { status: 204 });
  });
});
