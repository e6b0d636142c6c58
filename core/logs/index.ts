// The one logger: JSON lines on stdout (CloudWatch on AWS) and the same lines in the table by day,
// kept 30 days, for the admin log viewer. Writes to the table are batched and never throw; what
// DynamoDB leaves unprocessed is retried. Handlers await `flush` before they return (the worker,
// the crons, and web/entry.server for every page and data request), since a frozen Lambda writes
// nothing.
import type { EntityItem } from 'electrodb';
import { uncounted } from '#core/db';
import { monotonicUlid } from '#core/ids';
import { LOG_SHARDS, LogEntryEntity } from './entity';

export { LogEntryEntity, LOG_SHARDS };
export type LogEntry = EntityItem<typeof LogEntryEntity>;
export type LogLevel = LogEntry['level'];
export type LogFields = Record<string, unknown>;

export const LOG_RETENTION_DAYS = 30;
const FLUSH_AT = 25;
/** Monotonic, so lines written in the same millisecond keep their order. */
const nextId = monotonicUlid();
const FLUSH_AFTER_MS = 500;
/** Tries of a batch write (the first and the retries of what DynamoDB left unprocessed). */
const WRITE_ATTEMPTS = 5;
const RETRY_BASE_MS = 50;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** A logger that adds `fields` to every line (a job's id, a request's path). */
  child(fields: LogFields): Logger;
}

let pending: LogEntry[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;
let writing: Promise<void> = Promise.resolve();
/** Lines go round the shards in turn, which spreads them evenly. */
let nextShard = 0;

function serialise(fields: LogFields): string | undefined {
  const entries = Object.entries(fields).map(([key, value]) => [
    key,
    value instanceof Error
      ? { name: value.name, message: value.message, stack: value.stack }
      : value,
  ]);
  return entries.length > 0 ? JSON.stringify(Object.fromEntries(entries)) : undefined;
}

function write(level: LogLevel, message: string, fields: LogFields) {
  const timestamp = new Date().toISOString();
  const serialised = serialise(fields);
  process.stdout.write(
    `${JSON.stringify({ timestamp, level, message, ...(serialised && JSON.parse(serialised)) })}\n`,
  );
  pending.push({
    day: timestamp.slice(0, 10),
    shard: nextShard++ % LOG_SHARDS,
    id: nextId(),
    timestamp,
    level,
    message,
    fields: serialised,
    expiresAt: Math.floor(Date.now() / 1000) + LOG_RETENTION_DAYS * 86_400,
  });
  if (pending.length >= FLUSH_AT) void flush();
  else if (!timer) {
    timer = setTimeout(() => void flush(), FLUSH_AFTER_MS);
    timer.unref?.();
  }
}

/** Writes buffered lines to the table; handlers await it before they return. */
export function flush(): Promise<void> {
  if (timer) clearTimeout(timer);
  timer = undefined;
  const batch = pending;
  pending = [];
  if (batch.length === 0) return writing;
  writing = writing.then(async () => {
    try {
      await uncounted(() => store(batch));
    } catch (error) {
      process.stderr.write(`Could not store ${batch.length} log line(s): ${String(error)}\n`);
    }
  });
  return writing;
}

/** Batch-writes lines, retrying with backoff what DynamoDB leaves unprocessed under load. */
async function store(lines: LogEntry[]): Promise<void> {
  let left = lines;
  for (let attempt = 1; left.length > 0; attempt++) {
    if (attempt > WRITE_ATTEMPTS) throw new Error(`${left.length} line(s) stayed unprocessed`);
    if (attempt > 1)
      await new Promise((resolve) => setTimeout(resolve, RETRY_BASE_MS * 2 ** (attempt - 2)));
    ({ unprocessed: left } = (await LogEntryEntity.put(left).go()) as { unprocessed: LogEntry[] });
  }
}

function make(base: LogFields): Logger {
  return {
    debug: (message, fields = {}) => write('debug', message, { ...base, ...fields }),
    info: (message, fields = {}) => write('info', message, { ...base, ...fields }),
    error: (message, fields = {}) => write('error', message, { ...base, ...fields }),
    child: (fields) => make({ ...base, ...fields }),
  };
}

export const logger: Logger = make({});

/** The last `limit` lines of a day (YYYY-MM-DD), oldest first: each shard's last lines, merged. */
export async function forDay(day: string, limit: number): Promise<LogEntry[]> {
  if (limit < 1) return [];
  const shards = await Promise.all(
    Array.from({ length: LOG_SHARDS }, (_, shard) =>
      LogEntryEntity.query
        .byDay({ day, shard })
        .go({ order: 'desc', count: limit, pages: 'all' })
        .then(({ data }) => data),
    ),
  );
  const order = (entry: LogEntry) => `${entry.timestamp}#${entry.id}`;
  return shards
    .flat()
    .sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0))
    .slice(-limit);
}
