// Readers: how many read their feed each day, and what they liked, disliked and changed in their
// clues.
import { LineChart } from './charts';
import { isPartialDay } from './figures';
import { ChartWithTable, ReportSection, ScrollTable } from './section';
import type { AnalyticsReport } from '#core/campaign-analytics';

const COLUMNS = [
  ['active', 'Active readers'],
  ['likes', 'Likes'],
  ['dislikes', 'Dislikes'],
  ['clueChanges', 'Clue changes'],
] as const;

export function ReadersSection({
  report,
  csv,
}: {
  report: AnalyticsReport;
  csv: { href: string; filename: string };
}) {
  const { trend } = report.readers;
  const total = (key: (typeof COLUMNS)[number][0]) => trend.reduce((sum, row) => sum + row[key], 0);
  const most = Math.max(0, ...trend.map((row) => row.active));
  return (
    <ReportSection title="Readers" csv={csv}>
      <ChartWithTable
        chart={
          <LineChart
            title="Active readers, likes, dislikes and clue changes per day"
            summary={`At most ${most} active readers on a day from ${report.from} to ${report.to}; ${total('likes')} likes, ${total('dislikes')} dislikes and ${total('clueChanges')} clue changes in all.`}
            days={trend.map((row) => row.day)}
            partialLast={isPartialDay(trend.at(-1)?.day)}
            lines={COLUMNS.map(([key, name]) => ({ name, values: trend.map((row) => row[key]) }))}
          />
        }
        table={
          <ScrollTable caption="Readers per day" tall>
            <thead>
              <tr>
                <th scope="col">Day</th>
                {COLUMNS.map(([key, name]) => (
                  <th scope="col" key={key}>
                    {name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {trend.map((row) => (
                <tr key={row.day}>
                  <th scope="row" className="analytics-day">
                    {row.day}
                  </th>
                  {COLUMNS.map(([key]) => (
                    <td key={key}>{row[key]}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </ScrollTable>
        }
      />
    </ReportSection>
  );
}
