// The analytics page's charts, drawn on the server as SVG: small multiples for figures over days,
// horizontal bars for a funnel's steps or the stories clicked most. Each is a picture of the table beside it:
// its accessible name says what it shows and its summary gives the figures that matter.
import { chartColour } from '#web/components/chart-colours';

const INK = '#4a4763';
const INK_STRONG = '#14122b';
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

/** Small multiples are drawn at this size, never scaled down, so their text stays 13 px. */
const PANEL_WIDTH = 320;
const PANEL_HEIGHT = 92;
const FONT = 13;

/**
 * Figures over days as small multiples: one panel per line, each on its own scale (visits in the
 * hundreds do not flatten confirms in the tens), named on the panel with its last value. A last
 * day that is not over yet (`partialLast`) is drawn dashed and hollow, and said so.
 */
export function LineChart({
  title,
  summary,
  days,
  lines,
  partialLast = false,
}: {
  title: string;
  summary: string;
  days: string[];
  lines: Line[];
  partialLast?: boolean;
}) {
  const [left, right, head, plot] = [40, 12, 22, 52];
  const plotWidth = PANEL_WIDTH - left - right;
  const height = lines.length * PANEL_HEIGHT + 22;
  const x = (index: number) =>
    left + (days.length <= 1 ? plotWidth / 2 : (index * plotWidth) / (days.length - 1));
  const last = days.length - 1;
  const dayText = (index: number) =>
    index === last && partialLast ? `${days[index]} (so far)` : (days[index] ?? '');
  return (
    <div className="chart-box">
      <svg
        role="img"
        aria-label={nameOf(title, partialLast ? `${summary} ${PARTIAL_NOTE}` : summary)}
        viewBox={`0 0 ${PANEL_WIDTH} ${height}`}
        width={PANEL_WIDTH}
        height={height}
        className="chart chart--actual-size"
      >
        <title>{title}</title>
        <desc>{summary}</desc>
        {lines.map((line, panel) => {
          const top = panel * PANEL_HEIGHT;
          const most = axisTop(Math.max(0, ...line.values));
          const y = (value: number) => top + head + plot - (value / most) * plot;
          const points = line.values.map((value, day) => `${x(day)},${y(value)}`);
          const closed = partialLast && days.length > 1 ? points.slice(0, -1) : points;
          const lastValue = line.values[last] ?? 0;
          return (
            <g key={line.name}>
              <text x={0} y={top + 15} fontSize={FONT} fontWeight="600" fill={INK_STRONG}>
                {`${line.name}: ${lastValue}${partialLast ? ' so far today' : ` on ${days[last] ?? ''}`}`}
              </text>
              {[0, most].map((tick) => (
                <g key={tick}>
                  <line
                    x1={left}
                    x2={PANEL_WIDTH - right}
                    y1={y(tick)}
                    y2={y(tick)}
                    stroke={GRID}
                  />
                  <text x={left - 6} y={y(tick) + 4} fontSize={FONT} fill={INK} textAnchor="end">
                    {tick}
                  </text>
                </g>
              ))}
              {days.length > 1 && (
                <polyline
                  points={closed.join(' ')}
                  fill="none"
                  stroke={chartColour(panel)}
                  strokeWidth={2}
                  strokeLinejoin="round"
                />
              )}
              {partialLast && days.length > 1 && (
                <polyline
                  points={points.slice(-2).join(' ')}
                  fill="none"
                  stroke={chartColour(panel)}
                  strokeWidth={2}
                  strokeDasharray="4 3"
                />
              )}
              <circle
                cx={x(last)}
                cy={y(lastValue)}
                r={4}
                fill={partialLast ? '#ffffff' : chartColour(panel)}
                stroke={chartColour(panel)}
                strokeWidth={2}
              />
            </g>
          );
        })}
        {[...new Set([0, last])].map((index) => (
          <text
            key={index}
            x={x(index)}
            y={height - 6}
            fontSize={FONT}
            fill={INK}
            textAnchor={days.length > 1 ? (index === 0 ? 'start' : 'end') : 'middle'}
          >
            {dayText(index)}
          </text>
        ))}
      </svg>
      {partialLast && <p className="chart-note">{PARTIAL_NOTE}</p>}
    </div>
  );
}

/** Said under a chart whose last day is today. */
export const PARTIAL_NOTE = 'Today is not over: its figures are partial (drawn dashed and hollow).';

export type Bar = { label: string; value: number; note?: string };

/** A label cut to fit the space beside the bars; the table beside the chart has it whole. */
const fitted = (label: string) => (label.length > 18 ? `${label.slice(0, 17)}…` : label);

export function BarChart({
  title,
  summary,
  bars,
}: {
  title: string;
  summary: string;
  bars: Bar[];
}) {
  const [labelWidth, row, gap] = [140, 30, 8];
  const height = bars.length * row + gap;
  const most = Math.max(1, ...bars.map((bar) => bar.value));
  const scale = (PANEL_WIDTH - labelWidth - 80) / most;
  return (
    <div className="chart-box">
      <svg
        role="img"
        aria-label={nameOf(title, summary)}
        viewBox={`0 0 ${PANEL_WIDTH} ${height}`}
        width={PANEL_WIDTH}
        height={height}
        className="chart chart--actual-size"
      >
        <title>{title}</title>
        <desc>{summary}</desc>
        {bars.map((bar, index) => {
          const y = gap + index * row;
          const width = bar.value > 0 ? Math.max(bar.value * scale, 2) : 0;
          return (
            <g key={`${index}-${bar.label}`}>
              <text x={0} y={y + 16} fontSize={FONT} fill={INK}>
                {fitted(bar.label)}
              </text>
              <rect x={labelWidth} y={y} width={width} height={row - gap} fill={chartColour(0)} />
              <text x={labelWidth + width + 6} y={y + 16} fontSize={FONT} fill={INK}>
                {bar.note ? `${bar.value} (${bar.note})` : bar.value}
              </text>
            </g>
          );
        })}
      </svg>
    </div>
  );
}
