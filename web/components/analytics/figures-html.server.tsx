// The analytics page's four sections (tables, charts, CSV links) as HTML, rendered once per
// report and kept in this process: views of the same figures reuse the text instead of rendering
// thousands of cells again, and the client gets the HTML, not the report's rows (ADR 0068).
import { createHash } from 'node:crypto';
import { renderToStaticMarkup } from 'react-dom/server';
import { AudiencesSection } from './audiences-section';
import { csvFilename, csvHref, type Section } from './filters';
import { FunnelSection } from './funnel-section';
import { NewslettersSection } from './newsletters-section';
import { ReadersSection } from './readers-section';
import { READER_STEPS, SUBSCRIBER_STEPS, type AnalyticsReport } from '#core/campaign-analytics';

/** Reports whose HTML is kept: each range and filter asked since the last rollup, about 150 KiB each. */
const KEPT = 32;
const kept = new Map<string, string>();

function render(report: AnalyticsReport): string {
  const csv = (section: Section) => ({
    href: csvHref(report, section),
    filename: csvFilename(report, section),
  });
  return renderToStaticMarkup(
    <>
      <FunnelSection
        report={report}
        funnels={{ subscriber: SUBSCRIBER_STEPS, reader: READER_STEPS }}
        csv={csv('funnel')}
      />
      <AudiencesSection report={report} csv={csv('audiences')} />
      <NewslettersSection report={report} csv={csv('newsletters')} />
      <ReadersSection report={report} csv={csv('readers')} />
    </>,
  );
}

/**
 * The sections' HTML for a report. Kept by the report's whole content and today's date (a chart
 * draws today as partial), so a rollup, a renamed audience or a new day renders afresh.
 */
export function figuresHtml(report: AnalyticsReport, now = new Date()): string {
  const key = createHash('sha256')
    .update(now.toISOString().slice(0, 10))
    .update(JSON.stringify(report))
    .digest('base64');
  const found = kept.get(key);
  if (found !== undefined) {
    // Most recently used last, so the oldest is the one dropped.
    kept.delete(key);
    kept.set(key, found);
    return found;
  }
  const html = render(report);
  kept.set(key, html);
  if (kept.size > KEPT) kept.delete(kept.keys().next().value!);
  return html;
}
