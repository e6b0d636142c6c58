// The page's filters in its address: from, to, utm and vus as a GET form sends them. An empty
// select means every value; the report's '' vus (the default landing) travels as a word no real
// vus can be. Links without a campaign are one row of the funnel's table, not a filter.
import type { AnalyticsReport, ReportInput } from '#core/campaign-analytics';

export const DEFAULT_LANDING = '(default)';

export const SECTIONS = ['funnel', 'audiences', 'newsletters', 'readers'] as const;
export type Section = (typeof SECTIONS)[number];

const param = (query: URLSearchParams, name: string) => (query.get(name) ?? '').slice(0, 100);

/** What the address asks the report for; an empty or missing value takes the report's default. */
export function reportInput(query: URLSearchParams): ReportInput {
  const [from, to, utm, vus] = ['from', 'to', 'utm', 'vus'].map((name) => param(query, name));
  return {
    ...(from && { from }),
    ...(to && { to }),
    ...(utm && { utm }),
    // Any other value is the report's to refuse, with its message and a 400.
    ...(vus && { vus: (vus === DEFAULT_LANDING ? '' : vus) as ReportInput['vus'] }),
  };
}

/** A vus value as the select's option value. */
export const vusOption = (vus: string) => (vus === '' ? DEFAULT_LANDING : vus);

/** The address of a section's CSV: the range the report covered and the filters it applied. */
export function csvHref(report: AnalyticsReport, section: Section): string {
  const query = new URLSearchParams({ section, from: report.from, to: report.to });
  if (report.filters.utm) query.set('utm', report.filters.utm);
  if (report.filters.vus !== null) query.set('vus', vusOption(report.filters.vus));
  return `/admin-panel/campaign-analytics.csv?${query}`;
}

/** The download's file name: the section and the range, e.g. campaign-analytics-funnel-2026-11-01-to-2026-11-30.csv. */
export const csvFilename = (report: AnalyticsReport, section: Section) =>
  `campaign-analytics-${section}-${report.from}-to-${report.to}.csv`;
