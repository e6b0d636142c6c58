// GET /admin-panel/experiments/compare.csv?runs=a&runs=b: the comparison as a CSV download.
import type { LoaderFunctionArgs } from '@remix-run/node';
import { isVisibleError } from '#core/common';
import * as Experiments from '#core/experiments';
import { requireAdmin } from '#web/lib/admin.server';
import { privatePageHeaders } from '#web/lib/cache';
import { securityHeaders } from '#web/lib/security-headers.server';
import { readOnly, storingLogs } from '#web/lib/resource-route.server';

export const headers = privatePageHeaders;

export const loader = storingLogs(async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const ids = new URL(request.url).searchParams
    .getAll('runs')
    .slice(0, 10)
    .map((id) => id.slice(0, 100));
  const base = { ...securityHeaders(), 'Cache-Control': 'private, no-store' };
  try {
    // Every differing item, not only the first ones the page shows.
    const comparison = await Experiments.compare(ids, { differences: Number.POSITIVE_INFINITY });
    const csv = Experiments.comparisonCsv(comparison);
    return new Response(csv, {
      headers: {
        ...base,
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': 'attachment; filename="experiment-comparison.csv"',
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
