// POST /api/audience-name-assessment (body {prefix, pointer?, clue}): the signup funnel's
// 'Evaluate' of a clue, answered with its score text, rank, reasoning and suggestions.
import type { ActionFunctionArgs } from '@remix-run/node';
import * as Assessment from '#core/assessment';
import { VisibleError } from '#core/common';
import * as RateLimit from '#core/rate-limit';
import { clientIp, handleApi, json, methodNotAllowed, readJson } from '#web/lib/api.server';
import { storingLogs } from '#web/lib/resource-route.server';

/** Room for the three bounded fields even in multi-byte scripts, and no more. */
const MAX_BODY_BYTES = 4 * 1024;

export const loader = storingLogs(function loader() {
  return methodNotAllowed('POST');
});

export const action = storingLogs(function action({ request }: ActionFunctionArgs) {
  if (request.method !== 'POST') return methodNotAllowed('POST');
  return handleApi(async () => {
    const counted = await RateLimit.attempt(Assessment.LIMIT_PER_IP, clientIp(request));
    if (!counted.allowed) {
      throw new VisibleError(
        'rate_limited',
        'Too many assessments. Please wait a few minutes and try again.',
        429,
      );
    }
    const body = (await readJson(request, MAX_BODY_BYTES)) as Record<string, unknown>;
    const { score, rank, reasoning, suggestions } = await Assessment.assess(
      {
        prefix: body.prefix as string,
        pointer: body.pointer as string | undefined,
        audienceName: body.clue as string,
      },
      // A visitor who went away stops the model call too; every visitor's calls share one budget.
      { signal: request.signal, budget: Assessment.PUBLIC_BUDGET },
    );
    return json({ score, rank, reasoning, suggestions });
  });
});
