// CSV for downloads an operator opens in a spreadsheet: every cell quoted, and a text cell that a
// spreadsheet would run as a formula (= + - @, tab, carriage return first) defused with a quote.
export type CsvValue = string | number | null | undefined;

/** A cell as CSV: quoted, and never a formula when a spreadsheet opens it. */
export function csvCell(value: CsvValue): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

/** Rows as one CSV text, CRLF line ends (RFC 4180), ending with a line end. */
export function csvText(rows: CsvValue[][]): string {
  return `${rows.map((row) => row.map(csvCell).join(',')).join('\r\n')}\r\n`;
}
