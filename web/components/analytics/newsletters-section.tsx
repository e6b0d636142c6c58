// Newsletters: per issue created in the range, what was sent and failed, the unsubscribes after it
// and its clicks (per story on demand); and the stories clicked most in the range.
import { When } from '#web/components/when';
import { BarChart } from './charts';
import { ChartWithTable, ReportSection, ScrollTable } from './section';
import type { AnalyticsReport } from '#core/campaign-analytics';

export function NewslettersSection({
  report,
  csv,
}: {
  report: AnalyticsReport;
  csv: { href: string; filename: string };
}) {
  const { issues, topStories } = report.newsletters;
  const top = topStories[0];
  return (
    <ReportSection title="Newsletters" csv={csv}>
      <h3>Issues</h3>
      {issues.length === 0 ? (
        <p className="notice">No issue was created in this range.</p>
      ) : (
        <ScrollTable caption="Issues created in this range, newest first">
          <thead>
            <tr>
              {[
                'Issue',
                'Created',
                'Status',
                'Sent',
                'Failed',
                'Unsubscribes after it',
                'Clicks',
                'Unique clicks',
                'Clicks per story',
              ].map((column) => (
                <th scope="col" key={column}>
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {issues.map((issue) => (
              <tr key={issue.id}>
                <th scope="row">{issue.label}</th>
                <td>
                  <When iso={issue.createdAt} />
                </td>
                <td>{issue.status}</td>
                <td>{issue.sent}</td>
                <td>{issue.failed}</td>
                <td>{issue.unsubscribes}</td>
                <td>{issue.clicks}</td>
                <td>{issue.uniqueClicks}</td>
                <td>
                  {issue.stories.length === 0 ? (
                    'No clicks'
                  ) : (
                    <details>
                      <summary>
                        {issue.stories.length} {issue.stories.length === 1 ? 'story' : 'stories'}
                      </summary>
                      <ul className="analytics-stories">
                        {issue.stories.map((story) => (
                          <li key={story.articleId}>
                            {story.title}: {story.clicks} clicks, {story.uniqueClicks} unique
                          </li>
                        ))}
                      </ul>
                    </details>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
      <h3>Stories clicked most</h3>
      {topStories.length === 0 ? (
        <p className="notice">No story in an issue was clicked in this range.</p>
      ) : (
        <ChartWithTable
          chart={
            <BarChart
              title="Stories clicked most"
              summary={`The ${topStories.length} stories clicked most in newsletters from ${report.from} to ${report.to}${
                top ? `; ${top.title} leads with ${top.clicks} clicks` : ''
              }.`}
              bars={topStories.map((story) => ({ label: story.title, value: story.clicks }))}
            />
          }
          table={
            <ScrollTable caption="Stories clicked most">
              <thead>
                <tr>
                  <th scope="col">Story</th>
                  <th scope="col">Clicks</th>
                </tr>
              </thead>
              <tbody>
                {topStories.map((story) => (
                  <tr key={story.articleId}>
                    <th scope="row">{story.title}</th>
                    <td>{story.clicks}</td>
                  </tr>
                ))}
              </tbody>
            </ScrollTable>
          }
        />
      )}
    </ReportSection>
  );
}
