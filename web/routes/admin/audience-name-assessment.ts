// POST /admin-panel/audience-name-assessment (form: audienceName, prefix): the Content Automations
// page's 'Audience name assessment', answered as data for its fetcher with score, rank,
// reasoning, suggestions and the model's raw text (or a visible error).
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import * as Assessment from '#core/assessment';
import { isVisibleError } from '#core/common';
import { requireAdmin } from '#web/lib/admin.server';
import { json, methodNotAllowed, readForm } from '#web/lib/api.server';
import { privatePageHeaders } from '#web/lib/cache';
import { storingLogs } from '#web/lib/resource-route.server';

/** Admin data is never kept by a browser or a CDN (the root's public page cache must not apply). */
export const headers = privatePageHeaders;

export type AssessmentResult =
  | { score: string; rank: string; reasoning: string; suggestions: string[]; raw: string }
  | { error: string };

export const loader = storingLogs(async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return methodNotAllowed('POST');
});

export const action = storingLogs(async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  try {
    const form = await readForm(request);
    const { score, rank, reasoning, suggestions, raw } = await Assessment.assess(
      { prefix: form.get('prefix') ?? '', audienceName: form.get('audienceName') ?? '' },
      { signal: request.signal },
    );
    return json({ score, rank, reasoning, suggestions, raw } satisfies AssessmentResult);
  } catch (error) {
    if (!isVisibleError(error)) throw error;
    return json({ error: error.message } satisfies AssessmentResult, error.status);
  }
});
