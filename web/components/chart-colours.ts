// The colours of the admin charts' series, each at least 3:1 against white (WCAG non-text
// contrast); line charts add a dash pattern per series so colour is never the only difference.
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

const DASHES = ['', '6 3', '2 3', '8 3 2 3', '', '6 3', '2 3', '8 3 2 3'];
export const chartDash = (index: number) => DASHES[index % DASHES.length] || undefined;
