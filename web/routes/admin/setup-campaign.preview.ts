// GET /admin-panel/setup-campaign/preview?from=…&to=…&frequency=…&audienceId=…&subscriberEmail=…:
// the campaign's issue as that subscriber would get it, as a document of its own for the setup
// page's sandboxed frame. Its own policy lets the e-mail's inline styles apply (the admin page's
// policy would refuse them in an srcdoc frame) and nothing run, load or navigate.
import type { LoaderFunctionArgs } from '@remix-run/node';
import * as Newsletter from '#core/newsletter';
import { requireAdmin } from '#web/lib/admin.server';
import { privatePageHeaders } from '#web/lib/cache';
import { refusalMessage } from '#web/lib/refusal.server';
import { readOnly, storingLogs } from '#web/lib/resource-route.server';
import { valuesOf, windowOf } from './setup-campaign.server';

export const headers = privatePageHeaders;

const PREVIEW_POLICY = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  'img-src data: https:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
  'sandbox',
].join('; ');

const escape = (text: string) =>
  text.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);

function page(body: string, status: number): Response {
  return new Response(body, {
    status,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': PREVIEW_POLICY,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'private, no-store',
    },
  });
}

export const loader = storingLogs(async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const values = valuesOf(new URL(request.url).searchParams);
  try {
    const campaign = await Newsletter.checkCampaign(windowOf(values));
    const preview = await Newsletter.previewCampaign(campaign, {
      subscriberEmail: values.subscriberEmail,
    });
    if (!preview.email)
      return page(`<p>No issue for ${escape(preview.subscriber.email)}.</p>`, 200);
    return page(preview.email.html, 200);
  } catch (error) {
    const { message, status } = refusalMessage(error);
    return page(`<p>${escape(message)}</p>`, status);
  }
});

export const action = readOnly(requireAdmin);
