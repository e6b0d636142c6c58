import { describe, expect, it } from 'vitest';
import { csvCell, csvText } from './csv';

describe('csv', () => {
  it('quotes every cell and doubles quotes inside', () => {
    expect(csvCell('say "hi", then go')).toBe('"say ""hi"", then go"');
    expect(csvCell(12)).toBe('"12"');
    expect(csvCell(null)).toBe('""');
    expect(csvCell(undefined)).toBe('""');
  });

  it('defuses text a spreadsheet would run as a formula, and leaves numbers alone', () => {
    for (const text of ['=1+1', '+31 6', '-2', '@SUM(A1)', '\tx', '\rx']) {
      expect(csvCell(text)).toBe(`"'${text}"`);
    }
    expect(csvCell(-2)).toBe('"-2"');
  });

  it('joins rows with CRLF and ends with one', () => {
    expect(
      csvText([
        ['a', 1],
        ['b', null],
      ]),
    ).toBe('"a","1"\r\n"b",""\r\n');
  });
});
