// GET /api/token -> {token}: a short-lived signed token the waiting-list form must send back.
import type { LoaderFunctionArgs } from '@remix-run/node';
import * as RateLimit from '#core/rate-limit';
import * as Tokens from '#core/tokens';
import { clientIp, handleApi, json, methodNotAllowed } from '#web/lib/api.server';
import { storingLogs } from '#web/lib/resource-route.server';

export const WAITLIST_TOKEN_TTL_SECONDS = 10 * 60;

export const loader = storingLogs(function loader({ request }: LoaderFunctionArgs) {
  return handleApi(async () => {
    await RateLimit.hit(RateLimit.LIMITS.tokenPerIp, clientIp(request));
    return json({ token: Tokens.sign('waitlist', WAITLIST_TOKEN_TTL_SECONDS) });
  });
});

export const action = storingLogs(function action() {
  return methodNotAllowed('GET');
});
