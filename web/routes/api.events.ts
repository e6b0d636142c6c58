// POST /api/events: first-party analytics beacons (page views with utm, raud, vus).
import type { ActionFunctionArgs } from '@remix-run/node';
import * as Analytics from '#core/analytics';
import * as RateLimit from '#core/rate-limit';
import { clientIp, handleApi, methodNotAllowed, readJson } from '#web/lib/api.server';
import { storingLogs } from '#web/lib/resource-route.server';

const MAX_BODY_BYTES = 2048;

export const loader = storingLogs(function loader() {
  return methodNotAllowed('POST');
});

export const action = storingLogs(function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed('POST');
  return handleApi(async () => {
    await RateLimit.hit(RateLimit.LIMITS.analyticsPerIp, clientIp(request));
    // Browsers report page views only; funnel events are recorded by the server itself.
    const event = await readJson(request, MAX_BODY_BYTES);
    await Analytics.recordPageView(event as Parameters<typeof Analytics.recordPageView>[0]);
    return new Response(null, { status: 204 });
  });
});
