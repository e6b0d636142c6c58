// GET /admin-panel/outbox/:id: one sent e-mail's HTML, framed only by the Outbox page, with a
// policy that lets its inline styles apply, its links open in new tabs, and nothing run.
import type { LoaderFunctionArgs } from '@remix-run/node';
import { config } from '#core/config';
import { readMessage } from '#core/mail';
import { requireAdmin } from '#web/lib/admin.server';
import { notFound, privatePageHeaders } from '#web/lib/cache';
import { readOnly, storingLogs } from '#web/lib/resource-route.server';

export const headers = privatePageHeaders;

export const loader = storingLogs(async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const dir = config().MAIL_DIR;
  const message = dir && params.id ? await readMessage(dir, params.id) : undefined;
  if (!message) throw notFound();
  const body =
    message.html ||
    `<pre>${message.text.replace(/[<&]/g, (c) => (c === '<' ? '&lt;' : '&amp;'))}</pre>`;
  return new Response(linksOpenNewTabs(body), {
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': MESSAGE_POLICY,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'private, no-store',
    },
  });
});

/**
 * Inline styles apply and nothing runs. The sandbox matches the Outbox's frame, so the message
 * is as confined when opened on its own: links may open (as new tabs, outside the sandbox, so the
 * confirmation page works), nothing else.
 */
const MESSAGE_POLICY = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  'img-src data: https:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
  'sandbox allow-popups allow-popups-to-escape-sandbox',
].join('; ');

/** Every link of the message opens a new tab: the frame itself may not be navigated away. */
function linksOpenNewTabs(html: string): string {
  const base = '<base target="_blank">';
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (!head) return `${base}${html}`;
  const at = head.index + head[0].length;
  return `${html.slice(0, at)}${base}${html.slice(at)}`;
}

export const action = readOnly(requireAdmin);
