// The log viewer's data: a day's last N lines (default 1000), for the page and its 1-second refresh.
import * as Logs from '#core/logs';
import { requireAdmin } from '#web/lib/admin.server';

export const DEFAULT_LINES = 1000;

export type LogLine = Pick<Logs.LogEntry, 'id' | 'timestamp' | 'level' | 'message' | 'fields'>;

export async function loadLines(
  request: Request,
): Promise<{ date: string; lines: number; entries: LogLine[] }> {
  await requireAdmin(request);
  const url = new URL(request.url);
  const date = /^\d{4}-\d{2}-\d{2}$/.test(url.searchParams.get('date') ?? '')
    ? url.searchParams.get('date')!
    : new Date().toISOString().slice(0, 10);
  const requested = Number.parseInt(url.searchParams.get('lines') ?? '', 10);
  const lines =
    Number.isFinite(requested) && requested > 0 ? Math.min(requested, 10_000) : DEFAULT_LINES;
  const entries = await Logs.forDay(date, lines);
  return {
    date,
    lines,
    entries: entries.map(({ id, timestamp, level, message, fields }) => ({
      id,
      timestamp,
      level,
      message,
      fields,
    })),
  };
}
