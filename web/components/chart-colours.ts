// The colours of the admin charts' series, each at least 3:1 against white (WCAG non-text
// contrast); colour is never the only difference: series are named where they are drawn.
const PALETTE = [
  '#4c2fd6',
  '#0b6b3a',
  '#a3122a',
  '#8a4b00',
  '#14122b',
  '#1d5fa8',
  '#7a1f7a',
  '#0f6b6b',
];
export const chartColour = (index: number) => PALETTE[index % PALETTE.length]!;
export const CHART_PALETTE: readonly string[] = PALETTE;

/**
 * A swatch of a series' colour in HTML (a legend), as classes: the pages' Content-Security-Policy
 * refuses inline styles, so app.css has one rule per colour of the palette.
 */
export const chartSwatchClass = (index: number) =>
  `chart-swatch chart-swatch--${index % PALETTE.length}`;
