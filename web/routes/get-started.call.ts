// POST /get-started/{call}: the funnel's calls (check-signup-status, read-draft, save-draft, signup,
// initialize-thread, send-message, retrieve-clues), each authorised by the invitation token in its
// JSON body.
import type { ActionFunctionArgs } from '@remix-run/node';
import { methodNotAllowed } from '#web/lib/api.server';
import { storingLogs } from '#web/lib/resource-route.server';
import { funnelCall } from './get-started.server';

export const loader = storingLogs(function loader() {
  return methodNotAllowed('POST');
});

export const action = storingLogs(function action({ request, params }: ActionFunctionArgs) {
  return funnelCall(request, params.call);
});
