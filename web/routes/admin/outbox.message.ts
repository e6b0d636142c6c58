// GET /admin-panel/outbox/:id: one sent e-mail's HTML, framed only by the Outbox page, with a
// policy that lets its inline styles apply and nothing run.
import type { LoaderFunctionArgs } from '@remix-run/node';
import { config } from '#core/config';
import { readMessages } from '#core/mail';
import { requireAdmin } from '#web/lib/admin.server';
import { notFound } from '#web/lib/cache';

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const dir = config().MAIL_DIR;
  const message = dir
    ? (await readMessages(dir)).find((candidate) => candidate.id === params.id)
    : undefined;
  if (!message) throw notFound();
  return new Response(
    message.html ||
      `<pre>${message.text.replace(/[<&]/g, (c) => (c === '<' ? '&lt;' : '&amp;'))}</pre>`,
    {
      headers: {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy':
          "default-src 'none'; style-src 'unsafe-inline'; img-src data: https:; frame-ancestors 'self'",
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'private, no-store',
      },
    },
  );
}
