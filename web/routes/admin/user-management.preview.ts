// POST /admin-panel/user-management/preview: the invitation e-mail as it would be sent, for the
// invitation form's sandboxed frame (the form targets the frame). Inline styles apply; nothing runs.
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { escapeHtml } from '#core/html';
import * as Users from '#core/users';
import { requireAdmin } from '#web/lib/admin.server';
import { methodNotAllowed, readForm } from '#web/lib/api.server';
import { privatePageHeaders } from '#web/lib/cache';
import { refusalMessage } from '#web/lib/refusal.server';
import { storingLogs } from '#web/lib/resource-route.server';
import { landingUrlOf } from './user-management.server';

export const headers = privatePageHeaders;

const PREVIEW_POLICY = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  'img-src data: https:',
  "frame-ancestors 'self'",
  "form-action 'none'",
  "base-uri 'none'",
].join('; ');

const page = (html: string, status = 200) =>
  new Response(html, {
    status,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': PREVIEW_POLICY,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'private, no-store',
    },
  });

/** A GET learns that the preview is posted, once signed in: nothing about it before. */
export const loader = storingLogs(async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return methodNotAllowed('POST');
});

export const action = storingLogs(async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  try {
    const form = await readForm(request);
    const { html } = await Users.previewInvitation({
      userId: String(form.get('id') ?? ''),
      body: String(form.get('body') ?? ''),
      landingUrl: landingUrlOf(form),
    });
    return page(html);
  } catch (error) {
    const { message, status } = refusalMessage(error);
    return page(`<p role="alert">${escapeHtml(message)}</p>`, status);
  }
});
