// Calls a route module's loader or action in-process and reduces whatever it returns or throws to
// the status Remix would answer with: a Response's status, data()'s init status, 200 for plain
// data, and 500 for any other thrown error (which Remix turns into an error page).
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { db } from '#core/db';
import { sessionCookie } from '#web/lib/admin.server';
import { userSessionCookie } from '#web/lib/user.server';
import type { RouteModule } from './route-table';

export type Answer = {
  status: number;
  location?: string;
  error?: unknown;
  data?: unknown;
  /** A Response's own Cache-Control (what a resource route sends; pages get theirs from `headers`). */
  cacheControl?: string;
};

type DataWithInit = { type: 'DataWithResponseInit'; data: unknown; init: ResponseInit | null };

function isDataWithInit(value: unknown): value is DataWithInit {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { type?: unknown }).type === 'DataWithResponseInit'
  );
}

function reduce(value: unknown, thrown: boolean): Answer {
  if (value instanceof Response) {
    return {
      status: value.status,
      location: value.headers.get('Location') ?? undefined,
      cacheControl: value.headers.get('Cache-Control') ?? undefined,
    };
  }
  if (isDataWithInit(value)) {
    const headers = new Headers(value.init?.headers);
    return {
      status: value.init?.status ?? 200,
      location: headers.get('Location') ?? undefined,
      data: value.data,
    };
  }
  return thrown ? { status: 500, error: value } : { status: 200, data: value };
}

/** Runs `handler` as Remix would and answers the status the client would see. */
export async function call(
  handler: NonNullable<RouteModule['loader'] | RouteModule['action']>,
  request: Request,
  params: Record<string, string> = {},
): Promise<Answer> {
  try {
    return reduce(await handler({ request, params, context: {} }), false);
  } catch (error) {
    return reduce(error, true);
  }
}

let ip = 0;
/** A fresh caller address per request, so per-IP limits never hide what the input would do. */
export function freshIp(): string {
  ip += 1;
  return `10.${(ip >> 16) & 255}.${(ip >> 8) & 255}.${ip & 255}`;
}

/** A request from a fresh address with the given method, body and headers. */
export function request(
  url: string,
  init: { method?: string; body?: BodyInit | null; headers?: Record<string, string> } = {},
): Request {
  const method = init.method ?? 'GET';
  return new Request(new URL(url, 'http://localhost'), {
    method,
    body: method === 'GET' || method === 'HEAD' ? null : (init.body ?? null),
    headers: { 'X-Forwarded-For': freshIp(), ...init.headers },
  });
}

/** The Cookie header an admin's browser would send for a session token. */
export async function adminCookie(token: string): Promise<string> {
  const serialized = await sessionCookie().serialize(token);
  return serialized.split(';')[0]!;
}

/** The Cookie header a reader's browser would send for a session token. */
export async function readerCookie(token: string): Promise<string> {
  const serialized = await userSessionCookie().serialize(token);
  return serialized.split(';')[0]!;
}

/**
 * Every stored item of this worker's test table except the counters bad requests are allowed to
 * move (rate-limit windows) and the log lines they may write, keyed by pk and sk. A scan is fine
 * here: it is a test, on a table of a few thousand items.
 */
export async function storedItems(
  ignore: (pk: string) => boolean = (pk) => pk.startsWith('rateLimit#') || pk.startsWith('logs#'),
): Promise<Map<string, string>> {
  const { client, table } = db();
  const items = new Map<string, string>();
  let start: Record<string, unknown> | undefined;
  do {
    const page = await client.send(
      new ScanCommand({ TableName: table, ExclusiveStartKey: start as never }),
    );
    for (const item of page.Items ?? []) {
      const pk = item.pk?.S ?? '';
      if (ignore(pk)) continue;
      items.set(`${pk} | ${item.sk?.S ?? ''}`, JSON.stringify(item));
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/** What changed between two snapshots, as readable lines (empty when nothing did). */
export function changes(before: Map<string, string>, after: Map<string, string>): string[] {
  const lines: string[] = [];
  for (const [key, value] of after) {
    if (!before.has(key)) lines.push(`added ${key}: ${value}`);
    else if (before.get(key) !== value) lines.push(`changed ${key}: ${value}`);
  }
  for (const key of before.keys()) if (!after.has(key)) lines.push(`removed ${key}`);
  return lines;
}
