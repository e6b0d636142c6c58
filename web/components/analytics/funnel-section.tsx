// Funnel by campaign: the subscriber funnel (visit -> subscribe -> confirm) and the reader funnel
// (invited -> funnel started -> onboarded -> first feed visit) as bars, visits, subscribes and
// confirms per day as lines, and both funnels per campaign and per referring audience.
import { BarChart, LineChart } from './charts';
import {
  campaignName,
  isPartialDay,
  percentText,
  ratioLabel,
  referrerName,
  STEP_LABELS,
  stepRatio,
  variantName,
} from './figures';
import { ChartWithTable, ReportSection, ScrollTable } from './section';
import type { AnalyticsReport, FunnelStep, StepCounts } from '#core/campaign-analytics';

type Steps = readonly FunnelStep[];

function funnelSummary(counts: StepCounts, steps: Steps): string {
  return `${steps
    .map((step, index) =>
      index === 0
        ? `${STEP_LABELS[step]} ${counts[step]}`
        : `${STEP_LABELS[step].toLowerCase()} ${counts[step]} (${percentText(stepRatio(counts, steps, index))} of ${STEP_LABELS[steps[index - 1]!].toLowerCase()})`,
    )
    .join(', ')}.`;
}

function FunnelFigure({
  title,
  counts,
  steps,
}: {
  title: string;
  counts: StepCounts;
  steps: Steps;
}) {
  return (
    <ChartWithTable
      chart={
        <BarChart
          title={title}
          summary={funnelSummary(counts, steps)}
          bars={steps.map((step, index) => ({
            label: STEP_LABELS[step],
            value: counts[step],
            note: index === 0 ? undefined : percentText(stepRatio(counts, steps, index)),
          }))}
        />
      }
      table={
        <ScrollTable caption={title}>
          <thead>
            <tr>
              <th scope="col">Step</th>
              <th scope="col">Count</th>
              <th scope="col">Ratio to the step before</th>
            </tr>
          </thead>
          <tbody>
            {steps.map((step, index) => (
              <tr key={step}>
                <th scope="row">{STEP_LABELS[step]}</th>
                <td>{counts[step]}</td>
                <td>{index === 0 ? '' : percentText(stepRatio(counts, steps, index))}</td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      }
    />
  );
}

type Row = { key: string; names: string[]; counts: StepCounts };

function FunnelTable({
  caption,
  columns,
  rows,
  steps,
}: {
  caption: string;
  columns: string[];
  rows: Row[];
  steps: Steps;
}) {
  return (
    <ScrollTable caption={caption}>
      <thead>
        <tr>
          {columns.map((column) => (
            <th scope="col" key={column}>
              {column}
            </th>
          ))}
          {steps.map((step) => (
            <th scope="col" key={step}>
              {STEP_LABELS[step]}
            </th>
          ))}
          {steps.slice(1).map((step, index) => (
            <th scope="col" key={`ratio-${step}`}>
              {ratioLabel(steps, index + 1)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            {row.names.map((name, index) =>
              index === 0 ? (
                <th scope="row" key={index}>
                  {name}
                </th>
              ) : (
                <td key={index}>{name}</td>
              ),
            )}
            {steps.map((step) => (
              <td key={step}>{row.counts[step]}</td>
            ))}
            {steps.slice(1).map((step, index) => (
              <td key={`ratio-${step}`}>{percentText(stepRatio(row.counts, steps, index + 1))}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </ScrollTable>
  );
}

function trendSummary(report: AnalyticsReport): string {
  const total = (step: FunnelStep) =>
    report.funnel.trend.reduce((sum, row) => sum + row.counts[step], 0);
  const busiest = report.funnel.trend.reduce<{ day: string; visits: number } | undefined>(
    (best, row) =>
      !best || row.counts.visit > best.visits ? { day: row.day, visits: row.counts.visit } : best,
    undefined,
  );
  return `From ${report.from} to ${report.to}: ${total('visit')} visits, ${total('subscribe')} subscribes, ${total('confirm')} confirms${
    busiest && busiest.visits > 0 ? `; most visits on ${busiest.day} (${busiest.visits})` : ''
  }.`;
}

/** The report's two funnels, in order: core's lists, as figures-html.server passes them. */
export type Funnels = { subscriber: readonly FunnelStep[]; reader: readonly FunnelStep[] };

export function FunnelSection({
  report,
  funnels,
  csv,
}: {
  report: AnalyticsReport;
  funnels: Funnels;
  csv: { href: string; filename: string };
}) {
  const { funnel } = report;
  const { subscriber: subscriberSteps, reader: readerSteps } = funnels;
  const byCampaign: Row[] = funnel.byCampaign.map((row) => ({
    key: `${row.utm}\u0000${row.vus}`,
    names: [campaignName(row.utm), variantName(row.vus)],
    counts: row.counts,
  }));
  const byReferrer: Row[] = funnel.byReferrer.map((row) => ({
    key: row.raud,
    names: [referrerName(row.raud)],
    counts: row.counts,
  }));
  return (
    <ReportSection title="Funnel by campaign" csv={csv}>
      <p className="hint">
        Ratios divide one step&apos;s count by the previous step&apos;s count in the same row. They
        are ratios of counts, not of people: no visitor is followed from one step to the next, so a
        ratio can pass 100% (a confirm today of a subscribe from last week).
      </p>
      <h3>Subscribers: visit → subscribe → confirm</h3>
      <FunnelFigure title="Subscriber funnel" counts={funnel.totals} steps={subscriberSteps} />
      <h3>Invited readers: invited → funnel started → onboarded → first feed visit</h3>
      <FunnelFigure title="Reader funnel" counts={funnel.totals} steps={readerSteps} />
      <h3>Per day</h3>
      <ChartWithTable
        chart={
          <LineChart
            title="Visits, subscribes and confirms per day"
            summary={trendSummary(report)}
            days={funnel.trend.map((row) => row.day)}
            partialLast={isPartialDay(funnel.trend.at(-1)?.day)}
            lines={subscriberSteps.map((step) => ({
              name: STEP_LABELS[step],
              values: funnel.trend.map((row) => row.counts[step]),
            }))}
          />
        }
        table={
          <ScrollTable caption="Visits, subscribes and confirms per day" tall>
            <thead>
              <tr>
                <th scope="col">Day</th>
                {subscriberSteps.map((step) => (
                  <th scope="col" key={step}>
                    {STEP_LABELS[step]}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {funnel.trend.map((row) => (
                <tr key={row.day}>
                  <th scope="row" className="analytics-day">
                    {row.day}
                  </th>
                  {subscriberSteps.map((step) => (
                    <td key={step}>{row.counts[step]}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </ScrollTable>
        }
      />
      <h3>By campaign and landing variant</h3>
      {byCampaign.length === 0 ? (
        <p className="notice">No visits, subscriptions or invitations in this range.</p>
      ) : (
        <>
          <FunnelTable
            caption="Subscriber funnel by campaign"
            columns={['Campaign (utm)', 'Landing variant (vus)']}
            rows={byCampaign}
            steps={subscriberSteps}
          />
          <FunnelTable
            caption="Reader funnel by campaign"
            columns={['Campaign (utm)', 'Landing variant (vus)']}
            rows={byCampaign}
            steps={readerSteps}
          />
        </>
      )}
      <h3>By referring audience</h3>
      <p className="hint">
        Counted across every campaign and landing variant: the filters above do not narrow these
        tables.
      </p>
      {byReferrer.length === 0 ? (
        <p className="notice">No visits, subscriptions or invitations in this range.</p>
      ) : (
        <>
          <FunnelTable
            caption="Subscriber funnel by referring audience"
            columns={['Referring audience (raud)']}
            rows={byReferrer}
            steps={subscriberSteps}
          />
          <FunnelTable
            caption="Reader funnel by referring audience"
            columns={['Referring audience (raud)']}
            rows={byReferrer}
            steps={readerSteps}
          />
        </>
      )}
    </ReportSection>
  );
}
