import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHART_PALETTE, chartSwatchClass } from './chart-colours';

const css = readFileSync(new URL('../styles/app.css', import.meta.url), 'utf8');

describe('chart swatches', () => {
  it('are classes, each with its colour of the palette in app.css (the policy refuses inline styles)', () => {
    CHART_PALETTE.forEach((colour, index) => {
      const modifier = chartSwatchClass(index).split(' ')[1]!;
      const rule = new RegExp(`\\.${modifier} \\{\\s*background: ${colour};\\s*\\}`);
      expect(css, modifier).toMatch(rule);
    });
    expect(chartSwatchClass(CHART_PALETTE.length)).toBe(chartSwatchClass(0));
  });
});
