// One matching entity's label distribution across runs, drawn on the server as an SVG bar chart
// (a group of bars per label, one bar per run) with a legend of its runs, and the same figures in
// a table beside it, so the chart is only a picture of what the table says. The chart is drawn at
// its own size, never scaled down, so its text stays 13 px on a phone.
import { chartColour, chartSwatchClass } from '#web/components/chart-colours';

const BAR = 16;
const GAP = 10;
const FONT = 13;
const LABEL_WIDTH = 150;
/** Fits a phone's column (390 px less the page's margins). */
const CHART_WIDTH = 320;

export function DistributionChart({
  entity,
  labels,
  runs,
  perRun,
}: {
  entity: string;
  labels: string[];
  runs: { id: string; name: string }[];
  perRun: Record<string, Record<string, number>>;
}) {
  const count = (runId: string, label: string) => perRun[runId]?.[label] ?? 0;
  const most = Math.max(1, ...runs.flatMap((run) => labels.map((label) => count(run.id, label))));
  const group = runs.length * BAR + GAP;
  const height = labels.length * group + GAP;
  const scale = (CHART_WIDTH - LABEL_WIDTH - 40) / most;
  const titleId = `chart-${entity.replace(/[^a-z0-9]+/gi, '-')}`;
  return (
    <figure className="chart-figure">
      <div className="chart-scroll">
        <svg
          role="img"
          aria-labelledby={titleId}
          viewBox={`0 0 ${CHART_WIDTH} ${height}`}
          width={CHART_WIDTH}
          height={height}
          className="chart chart--actual-size"
        >
          <title id={titleId}>{`Labels for ${entity}, per run`}</title>
          {labels.map((label, row) => {
            const top = GAP + row * group;
            return (
              <g key={label}>
                <text x={0} y={top + (runs.length * BAR) / 2 + 4} fontSize={FONT} fill="#14122b">
                  {label}
                </text>
                {runs.map((run, index) => {
                  const value = count(run.id, label);
                  const y = top + index * BAR;
                  return (
                    <g key={run.id}>
                      <rect
                        x={LABEL_WIDTH}
                        y={y}
                        width={Math.max(value * scale, value > 0 ? 2 : 0)}
                        height={BAR - 2}
                        fill={chartColour(index)}
                      />
                      <text
                        x={LABEL_WIDTH + value * scale + 4}
                        y={y + BAR - 4}
                        fontSize={FONT}
                        fill="#14122b"
                      >
                        {value}
                      </text>
                    </g>
                  );
                })}
              </g>
            );
          })}
        </svg>
        <ul className="chart-legend" aria-label={`Runs in the chart for ${entity}`}>
          {runs.map((run, index) => (
            <li key={run.id}>
              <span className={chartSwatchClass(index)} aria-hidden="true" />
              {run.name}
            </li>
          ))}
        </ul>
      </div>
      <div className="table-scroll" tabIndex={0}>
        <table className="admin-table">
          <caption>{entity}</caption>
          <thead>
            <tr>
              <th scope="col">Label</th>
              {runs.map((run) => (
                <th scope="col" key={run.id}>
                  {run.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {labels.map((label) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                {runs.map((run) => (
                  <td key={run.id}>{count(run.id, label)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
