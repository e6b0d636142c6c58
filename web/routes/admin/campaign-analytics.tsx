// Campaign analytics: the page an operator opens first each morning. For a range of days (and,
// for the funnel, a campaign and a landing variant): the funnels by campaign and by referring
// audience, audiences' growth and churn, each newsletter's sends and clicks, and readers' activity,
// as charts with their tables and CSV downloads. The filters live in the address (a GET form), so
// the page works without JavaScript and Back returns to the previous choice.
import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, useLoaderData } from '@remix-run/react';
import * as CampaignAnalytics from '#core/campaign-analytics';
import { isVisibleError } from '#core/common';
import { AudiencesSection } from '#web/components/analytics/audiences-section';
import { variantName } from '#web/components/analytics/figures';
import {
  csvFilename,
  csvHref,
  reportInput,
  vusOption,
  type Section,
} from '#web/components/analytics/filters';
import { FunnelSection } from '#web/components/analytics/funnel-section';
import { NewslettersSection } from '#web/components/analytics/newsletters-section';
import { ReadersSection } from '#web/components/analytics/readers-section';
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
    return {
      report: await CampaignAnalytics.report(reportInput(query)),
      funnels: {
        subscriber: CampaignAnalytics.SUBSCRIBER_STEPS,
        reader: CampaignAnalytics.READER_STEPS,
      },
      asked,
    };
  } catch (error) {
    if (!isVisibleError(error)) throw error;
    return data({ problem: error.message, asked }, { status: error.status });
  }
}

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
    <Form method="get" className="analytics-filters" aria-label="Filters" autoComplete="off">
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
  const { report } = page;
  const asked = { ...page.asked, from: report.from, to: report.to };
  const csv = (section: Section) => ({
    href: csvHref(report, section),
    filename: csvFilename(report, section),
  });
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
      <FunnelSection report={report} funnels={page.funnels} csv={csv('funnel')} />
      <AudiencesSection report={report} csv={csv('audiences')} />
      <NewslettersSection report={report} csv={csv('newsletters')} />
      <ReadersSection report={report} csv={csv('readers')} />
    </section>
  );
}
