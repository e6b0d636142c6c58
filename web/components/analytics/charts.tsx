// The analytics page's charts, drawn on the server as SVG: lines for figures over days, horizontal
// bars for a funnel's steps or the stories clicked most. Each is a picture of the table beside it:
// its accessible name says what it shows and its summary gives the figures that matter.
import { chartColour, chartDash } from '#web/components/chart-colours';

const WIDTH = 560;
const INK = '#4a4763';
const GRID = '#e3e1ef';

/** A round top for an axis: 1, 2 or 5 times a power of ten, at least `most` (and at least 1). */
export function axisTop(most: number): number {
  if (most <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(most));
  return [1, 2, 5, 10].map((step) => step * power).find((top) => top >= most)!;
}

/** The name a chart is read by: its title, then its summary. */
const nameOf = (title: string, summary: string) => `${title}. ${summary}`;

export type Line = { name: string; values: number[] };

export function LineChart({
  title,
  summary,
  days,
  lines,
}: {
  title: string;
  summary: string;
  days: string[];
  lines: Line[];
}) {
  const [left, right, top, bottom] = [44, 16, 12, 30];
  const height = 220;
  const plotWidth = WIDTH - left - right;
  const plotHeight = height - top - bottom;
  const most = axisTop(Math.max(0, ...lines.flatMap((line) => line.values)));
  const x = (index: number) =>
    left + (days.length <= 1 ? plotWidth / 2 : (index * plotWidth) / (days.length - 1));
  const y = (value: number) => top + plotHeight - (value / most) * plotHeight;
  const ticks = most % 2 === 0 ? [0, most / 2, most] : [0, most];
  const labelled = [...new Set([0, Math.floor((days.length - 1) / 2), days.length - 1])].filter(
    (index) => index >= 0,
  );
  return (
    <div className="chart-box">
      <svg
        role="img"
        aria-label={nameOf(title, summary)}
        viewBox={`0 0 ${WIDTH} ${height}`}
        className="chart"
      >
        <title>{title}</title>
        <desc>{summary}</desc>
        {ticks.map((tick) => (
          <g key={tick}>
            <line x1={left} x2={WIDTH - right} y1={y(tick)} y2={y(tick)} stroke={GRID} />
            <text x={left - 6} y={y(tick) + 5} fontSize="13" fill={INK} textAnchor="end">
              {tick}
            </text>
          </g>
        ))}
        {labelled.map((index) => (
          <text
            key={index}
            x={x(index)}
            y={height - 8}
            fontSize="13"
            fill={INK}
            textAnchor={
              index === 0 && days.length > 1
                ? 'start'
                : index === days.length - 1 && days.length > 1
                  ? 'end'
                  : 'middle'
            }
          >
            {days[index]}
          </text>
        ))}
        {lines.map((line, index) =>
          days.length === 1 ? (
            <circle
              key={line.name}
              cx={x(0)}
              cy={y(line.values[0] ?? 0)}
              r={4}
              fill={chartColour(index)}
            />
          ) : (
            <polyline
              key={line.name}
              points={line.values.map((value, day) => `${x(day)},${y(value)}`).join(' ')}
              fill="none"
              stroke={chartColour(index)}
              strokeWidth={2}
              strokeDasharray={chartDash(index)}
              strokeLinejoin="round"
            />
          ),
        )}
      </svg>
      <ul className="chart-legend">
        {lines.map((line, index) => (
          <li key={line.name}>
            <svg aria-hidden="true" width="24" height="10" viewBox="0 0 24 10">
              <line
                x1={0}
                x2={24}
                y1={5}
                y2={5}
                stroke={chartColour(index)}
                strokeWidth={3}
                strokeDasharray={chartDash(index)}
              />
            </svg>
            {line.name}
          </li>
        ))}
      </ul>
    </div>
  );
}

export type Bar = { label: string; value: number; note?: string };

/** A label cut to fit the space beside the bars; the table beside the chart has it whole. */
const fitted = (label: string) => (label.length > 24 ? `${label.slice(0, 23)}…` : label);

export function BarChart({
  title,
  summary,
  bars,
}: {
  title: string;
  summary: string;
  bars: Bar[];
}) {
  const [labelWidth, row, gap] = [200, 32, 8];
  const height = bars.length * row + gap;
  const most = Math.max(1, ...bars.map((bar) => bar.value));
  const scale = (WIDTH - labelWidth - 130) / most;
  return (
    <div className="chart-box">
      <svg
        role="img"
        aria-label={nameOf(title, summary)}
        viewBox={`0 0 ${WIDTH} ${height}`}
        className="chart"
      >
        <title>{title}</title>
        <desc>{summary}</desc>
        {bars.map((bar, index) => {
          const y = gap + index * row;
          const width = bar.value > 0 ? Math.max(bar.value * scale, 2) : 0;
          return (
            <g key={`${index}-${bar.label}`}>
              <text x={0} y={y + 17} fontSize="15" fill={INK}>
                {fitted(bar.label)}
              </text>
              <rect x={labelWidth} y={y} width={width} height={row - gap} fill={chartColour(0)} />
              <text x={labelWidth + width + 6} y={y + 17} fontSize="15" fill={INK}>
                {bar.note ? `${bar.value} (${bar.note})` : bar.value}
              </text>
            </g>
          );
        })}
      </svg>
    </div>
  );
}
