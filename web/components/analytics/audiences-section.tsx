// Audiences: subscribers per audience over the days of the range (the audiences with the most at
// its end), each audience's growth and churn, the upcoming niches by votes, and what visitors
// suggested.
import { LineChart } from './charts';
import { isPartialDay, percentText } from './figures';
import { ChartWithTable, ReportSection, ScrollTable } from './section';
import type { AnalyticsReport } from '#core/campaign-analytics';

/** How many audiences the chart draws: more lines than this cannot be told apart. */
export const CHARTED_AUDIENCES = 8;

const STATES = { active: 'Active', upcoming: 'Upcoming', gone: 'Removed' } as const;
const signed = (value: number) => (value > 0 ? `+${value}` : String(value));

export function AudiencesSection({
  report,
  csv,
}: {
  report: AnalyticsReport;
  csv: { href: string; filename: string };
}) {
  const { rows, niches, suggestions } = report.audiences;
  const charted = [...rows].sort((a, b) => b.end - a.end).slice(0, CHARTED_AUDIENCES);
  const leader = charted[0];
  const left = rows.filter((row) => !charted.includes(row));
  return (
    <ReportSection title="Audiences" csv={csv}>
      <h3>Subscribers per audience</h3>
      {rows.length === 0 ? (
        <p className="notice">No audiences yet.</p>
      ) : (
        <>
          {left.length > 0 && (
            <p className="hint">
              Drawn: the {charted.length} audiences with the most subscribers on {report.to}. Not
              drawn: {left.length} more ({left.map((row) => row.title).join(', ')}); each is in
              Growth and churn per audience below.
            </p>
          )}
          <ChartWithTable
            chart={
              <LineChart
                title="Subscribers per audience"
                summary={`Confirmed subscribers at the end of each day, for the ${charted.length} audiences with the most on ${report.to}${
                  leader ? `; ${leader.title} has the most (${leader.end})` : ''
                }.`}
                days={report.days}
                partialLast={isPartialDay(report.days.at(-1))}
                lines={charted.map((row) => ({ name: row.title, values: row.series }))}
              />
            }
            table={
              <ScrollTable caption="Subscribers per audience, per day" tall>
                <thead>
                  <tr>
                    <th scope="col">Day</th>
                    {charted.map((row) => (
                      <th scope="col" key={row.id}>
                        {row.title}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {report.days.map((day, index) => (
                    <tr key={day}>
                      <th scope="row" className="analytics-day">
                        {day}
                      </th>
                      {charted.map((row) => (
                        <td key={row.id}>{row.series[index] ?? 0}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </ScrollTable>
            }
          />
          <p className="hint">
            Churn is the subscribers who left divided by those at the start plus those who joined.
          </p>
          <ScrollTable caption="Growth and churn per audience">
            <thead>
              <tr>
                {['Audience', 'State', 'Start', 'End', 'Joined', 'Left', 'Growth', 'Churn'].map(
                  (column) => (
                    <th scope="col" key={column}>
                      {column}
                    </th>
                  ),
                )}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id}>
                  <th scope="row">{row.title}</th>
                  <td>{STATES[row.state]}</td>
                  <td>{row.start}</td>
                  <td>{row.end}</td>
                  <td>{row.joined}</td>
                  <td>{row.left}</td>
                  <td>{signed(row.growth)}</td>
                  <td>{percentText(row.churn)}</td>
                </tr>
              ))}
            </tbody>
          </ScrollTable>
        </>
      )}
      <h3>Upcoming niches by votes</h3>
      {niches.length === 0 ? (
        <p className="notice">No upcoming niches.</p>
      ) : (
        <ScrollTable caption="Upcoming niches by votes">
          <thead>
            <tr>
              <th scope="col">Rank</th>
              <th scope="col">Niche</th>
              <th scope="col">Votes</th>
              <th scope="col">Votes in this range</th>
            </tr>
          </thead>
          <tbody>
            {niches.map((niche, index) => (
              <tr key={niche.id}>
                <td>{index + 1}</td>
                <th scope="row">{niche.title}</th>
                <td>{niche.votes}</td>
                <td>{niche.votesInRange}</td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
      <h3>Suggested audiences</h3>
      {suggestions.length === 0 ? (
        <p className="notice">Nobody suggested an audience in this range.</p>
      ) : (
        <ScrollTable caption="Suggested audiences">
          <thead>
            <tr>
              <th scope="col">Suggestion</th>
              <th scope="col">Times suggested</th>
            </tr>
          </thead>
          <tbody>
            {suggestions.map((suggestion) => (
              <tr key={suggestion.text}>
                <th scope="row">{suggestion.text}</th>
                <td>{suggestion.count}</td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
    </ReportSection>
  );
}
