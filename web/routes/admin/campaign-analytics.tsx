// Campaign analytics: the page an operator opens first each morning. For a range of days (and,
// for the funnel, a campaign and a landing variant): the funnels by campaign and by referring
// audience, audiences' growth and churn, each newsletter's sends and clicks, and readers' activity,
// as charts with their tables and CSV downloads. The filters live in the address (a GET form), so
// the page works without JavaScript and Back returns to the previous choice. The sections are HTML
// rendered on the server and sent only with a document (ADR 0068): nothing in them changes in the
// browser, so every visit of the page, the filters' too, loads it as a document.
import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import {
  Form,
  redirectDocument,
  useLoaderData,
  type ClientLoaderFunctionArgs,
} from '@remix-run/react';
import * as CampaignAnalytics from '#core/campaign-analytics';
import { isVisibleError } from '#core/common';
import { variantName } from '#web/components/analytics/figures';
import { figuresHtml } from '#web/components/analytics/figures-html.server';
import { reportInput, vusOption } from '#web/components/analytics/filters';
import { figuresHtmlOf, withFiguresHtml } from '#web/components/analytics/page-figures';
import { When } from '#web/components/when';
import { requireAdmin } from '#web/lib/admin.server';
import { privatePageHeaders } from '#web/lib/cache';

export const meta: MetaFunction = () => [{ title: 'Campaign analytics · Cluefeed admin' }];
export const headers = privatePageHeaders;

type Asked = { from: string; to: string; utm: string; vus: string };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const query = new URL(request.url).searchParams;
  const asked: Asked = {
    from: (query.get('from') ?? '').slice(0, 100),
    to: (query.get('to') ?? '').slice(0, 100),
    utm: (query.get('utm') ?? '').slice(0, 100),
    vus: (query.get('vus') ?? '').slice(0, 100),
  };
  try {
    const report = await CampaignAnalytics.report(reportInput(query));
    const { from, to, updatedAt, filters, choices } = report;
    return withFiguresHtml(
      { head: { from, to, updatedAt, filters, choices }, asked },
      figuresHtml(report),
    );
  } catch (error) {
    if (!isVisibleError(error)) throw error;
    return data({ problem: error.message, asked }, { status: error.status });
  }
}

/** A visit from a link on another page loads this one as a document: its sections come only so. */
export const clientLoader = ({ request }: ClientLoaderFunctionArgs) =>
  redirectDocument(request.url);

function Filters({
  asked,
  choices,
}: {
  asked: Asked;
  choices: CampaignAnalytics.AnalyticsReport['choices'];
}) {
  // A value in the address the range has not seen stays choosable, so the form shows what applies.
  const utms = [...new Set([...choices.utms, asked.utm].filter(Boolean))];
  const vuses = [...new Set([...choices.vuses.map(vusOption), asked.vus].filter(Boolean))];
  const vusLabel = (option: string) => variantName(option === vusOption('') ? '' : option);
  return (
    // autoComplete off: after Back the browser would otherwise refill what was typed last, not
    // the range whose figures the page shows.
    <Form
      method="get"
      reloadDocument
      className="analytics-filters"
      aria-label="Filters"
      autoComplete="off"
    >
      <label>
        From
        <input type="date" name="from" defaultValue={asked.from} />
      </label>
      <label>
        To
        <input type="date" name="to" defaultValue={asked.to} />
      </label>
      <label>
        Campaign (utm)
        <select name="utm" defaultValue={asked.utm}>
          <option value="">All campaigns</option>
          {utms.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      </label>
      <label>
        Landing variant (vus)
        <select name="vus" defaultValue={asked.vus}>
          <option value="">All variants</option>
          {vuses.map((option) => (
            <option key={option} value={option}>
              {vusLabel(option)}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="button">
        Apply
      </button>
    </Form>
  );
}

export default function CampaignAnalyticsPage() {
  const page = useLoaderData<typeof loader>();
  // The form is keyed by the address, so Back shows the filters of the page it returns to.
  const key = JSON.stringify(page.asked);
  if ('problem' in page) {
    return (
      <section className="admin-page analytics">
        <h1>Campaign analytics</h1>
        <Filters key={key} asked={page.asked} choices={{ utms: [], vuses: [] }} />
        <p className="error-box" role="alert">
          {page.problem}
        </p>
      </section>
    );
  }
  const { head: report } = page;
  const asked = { ...page.asked, from: report.from, to: report.to };
  return (
    <section className="admin-page analytics">
      <h1>Campaign analytics</h1>
      <Filters key={key} asked={asked} choices={report.choices} />
      <p className="hint">
        {report.updatedAt ? (
          <>
            Figures last updated <When iso={report.updatedAt} />.
          </>
        ) : (
          'Figures not rolled up yet.'
        )}{' '}
        Days are UTC days, {report.from} to {report.to}.
        {report.filters.utm !== null || report.filters.vus !== null
          ? ' The campaign and variant filters narrow the funnel; the other sections cover everyone.'
          : ''}
      </p>
      {/* Hydrating, the browser has no HTML here and keeps the document's: React leaves the inner
          HTML of an element alone until the value given changes. */}
      <div
        dangerouslySetInnerHTML={{ __html: figuresHtmlOf(page) ?? '' }}
        suppressHydrationWarning
      />
    </section>
  );
}
