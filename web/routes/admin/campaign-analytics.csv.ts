// GET /admin-panel/campaign-analytics.csv?section=funnel|audiences|newsletters|readers&from&to&utm&vus:
// one section of the analytics page as a CSV download, for the same range and filters.
import type { LoaderFunctionArgs } from '@remix-run/node';
import * as v from 'valibot';
import * as CampaignAnalytics from '#core/campaign-analytics';
import { isVisibleError, parse } from '#core/common';
import { sectionCsv } from '#web/components/analytics/csv';
import { csvFilename, reportInput, SECTIONS } from '#web/components/analytics/filters';
import { requireAdmin } from '#web/lib/admin.server';
import { privatePageHeaders } from '#web/lib/cache';
import { securityHeaders } from '#web/lib/security-headers.server';
import { readOnly, storingLogs } from '#web/lib/resource-route.server';

export const headers = privatePageHeaders;

const SectionSchema = v.picklist(
  SECTIONS,
  'Choose a section: funnel, audiences, newsletters or readers',
);

export const loader = storingLogs(async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const query = new URL(request.url).searchParams;
  const base = { ...securityHeaders(), 'Cache-Control': 'private, no-store' };
  try {
    const section = parse(SectionSchema, query.get('section'));
    const report = await CampaignAnalytics.report(reportInput(query));
    return new Response(sectionCsv(report, section), {
      headers: {
        ...base,
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${csvFilename(report, section)}"`,
      },
    });
  } catch (error) {
    if (!isVisibleError(error)) throw error;
    return new Response(error.message, {
      status: error.status,
      headers: { ...base, 'Content-Type': 'text/plain; charset=utf-8' },
    });
  }
});

export const action = readOnly(requireAdmin);
