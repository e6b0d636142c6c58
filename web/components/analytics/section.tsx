// The frame every analytics section shares: its heading, its CSV download, and tables that scroll
// inside their own box (focusable, so a keyboard can scroll them) instead of widening the page.
import type { ReactNode } from 'react';
import { slugify } from '#core/common';

export function ReportSection({
  title,
  csv,
  children,
}: {
  title: string;
  csv: { href: string; filename: string };
  children: ReactNode;
}) {
  const id = `section-${slugify(title)}`;
  return (
    <section className="analytics-section" aria-labelledby={id}>
      <div className="analytics-section__head">
        <h2 id={id}>{title}</h2>
        <a href={csv.href} download={csv.filename}>
          Download {title.toLowerCase()} CSV
        </a>
      </div>
      {children}
    </section>
  );
}

export function ScrollTable({
  caption,
  tall,
  children,
}: {
  caption: string;
  tall?: boolean;
  children: ReactNode;
}) {
  return (
    <div
      className={`table-scroll${tall ? ' table-scroll--tall' : ''}`}
      role="region"
      aria-label={caption}
      tabIndex={0}
    >
      <table className="admin-table">
        <caption>{caption}</caption>
        {children}
      </table>
    </div>
  );
}

/** A figure: the chart, and beside it (below it on a phone) the table with the same numbers. */
export function ChartWithTable({ chart, table }: { chart: ReactNode; table: ReactNode }) {
  return (
    <figure className="chart-figure">
      {chart}
      {table}
    </figure>
  );
}
