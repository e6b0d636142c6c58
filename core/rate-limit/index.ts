// Rate limits kept in the table, so every Lambda and every local process agrees. Each limit is a
// sliding window approximated from two fixed windows, as Cloudflare and nginx count: the previous
// window's count, weighted by how much of it the sliding window still overlaps, plus the current
// window's. A fixed window alone lets twice the maximum through in a moment across its boundary.
//
// One item per caller holds both counts, so a request is one consistent read and one conditional
// write of one item, and concurrent requests of one caller queue on that item instead of
// cancelling each other's transactions (which a window per item needed, and which made 20
// subscriptions at once from one address take seconds). Within a window the write raises the
// count only while it is under the room the previous count leaves. The first request of the next
// window moves the count to `previousCount` in the same write (DynamoDB reads it as it is then), so
// a request counted at the boundary is never lost, and the write holds only while that count still
// leaves the new request room: requests of the old window landing meanwhile do not cancel it. A
// request whose clock is just behind the window that has begun (by a moment's lag, not a clock that
// is off) counts in it, at its start. A refused request counts nothing.
import { VisibleError } from '#core/common';
import { config } from '#core/config';
import type {
  DataUpdateCallback,
  Entity,
  EntityItem,
  Item,
  TransactWriteEntity,
  WhereCallback,
} from 'electrodb';
import { isConditionFailure, type ItemRead } from '#core/db';
import { RateLimitWindowEntity } from './entity';
export { RateLimitWindowEntity };

export type Limit = {
  bucket: string;
  max: number;
  windowSeconds: number;
  /** A limit of something other than requests (the SMTP send rate): RATE_LIMIT_FACTOR leaves it. */
  unscaled?: true;
};

export const LIMITS = {
  waitlistPerIp: { bucket: 'waitlist-ip', max: 5, windowSeconds: 60 },
  tokenPerIp: { bucket: 'token-ip', max: 30, windowSeconds: 60 },
  analyticsPerIp: { bucket: 'analytics-ip', max: 120, windowSeconds: 60 },
  subscribePerIp: { bucket: 'subscribe-ip', max: 10, windowSeconds: 60 },
  confirmationsPerAddress: { bucket: 'confirmation-address', max: 3, windowSeconds: 3600 },
  subscriberFormPerIp: { bucket: 'subscriber-form-ip', max: 30, windowSeconds: 60 },
  suggestionsPerIp: { bucket: 'suggestions-ip', max: 5, windowSeconds: 60 },
  // One-click unsubscribes come from mail providers' shared addresses: count per subscriber.
  oneClickPerSubscriber: { bucket: 'one-click-subscriber', max: 10, windowSeconds: 60 },
  // Newsletter link clicks: generous, since readers behind one office or one mail provider's link
  // checker share an address; past it a click still redirects but is not counted.
  clicksPerIp: { bucket: 'clicks-ip', max: 120, windowSeconds: 60 },
  // The reader API (ADR 0040): every request per address before it is authenticated (so bad
  // tokens cost a caller its room too), then per reader, whichever address or token they use.
  readerApiPerIp: { bucket: 'reader-api-ip', max: 120, windowSeconds: 60 },
  readerApiPerReader: { bucket: 'reader-api-reader', max: 60, windowSeconds: 60 },
  // Creating access tokens: a person's pace, far below what a script churning tokens would need.
  readerTokensPerReader: { bucket: 'reader-tokens-reader', max: 10, windowSeconds: 3600 },
} satisfies Record<string, Limit>;

/** One request: whether the limit let it through, and a way to give its place back. */
export type Attempt = {
  allowed: boolean;
  /** How many places it counted: `places`, or fewer when it asked for up to that many. */
  granted: number;
  release(): Promise<void>;
};

const REFUSED: Attempt = { allowed: false, granted: 0, release: async () => undefined };

/** What a request no limit applies to gets. */
export const NOT_LIMITED: Attempt = { allowed: true, granted: 1, release: async () => undefined };

/** The answer to a request a limit refused. */
export const refusal = () =>
  new VisibleError('rate_limited', 'Too many requests. Please wait a minute and try again.', 429);

/**
 * The most requests the window holding `now` may count: the maximum less the previous window's
 * count weighted by the part of it the sliding window still covers. Whole numbers throughout
 * (the weight as milliseconds), so the room is exact.
 */
function roomIn(max: number, previousCount: number, windowMs: number, elapsedMs: number) {
  return Math.floor((max * windowMs - previousCount * (windowMs - elapsedMs)) / windowMs);
}

/**
 * The most a request's clock may be behind the window another request began, for it to count
 * there (a tenth of a short window at most): the time between reading the clock and writing.
 */
const MOST_CLOCK_LAG_MS = 5_000;

/** How often a request reads again when the item changed under it, before refusing. */
const RACED_RETRIES = 5;

type Stored = EntityItem<typeof RateLimitWindowEntity>;
type Caller = { bucket: string; key: string };

/**
 * How one request of `key` is counted, decided from its windows as read: one more in the current
 * window while there is room (`add`); the window's first request after the previous one, which
 * moves what that window counted to `previousCount` (`move`), while it counted at most
 * `maxPrevious`; or the first request after no window or an older one (`start`). Undefined when
 * the limit refuses it.
 */
type Counting = { caller: Caller; expiresAt: number; places: number } & (
  | { add: { windowStart: number; room: number } }
  | { move: { from: number; windowStart: number; maxPrevious: number } }
  | { start: { windowStart: number; stored?: Stored } }
);

function counting(
  limit: Limit,
  key: string,
  stored: Stored | undefined,
  now: number,
  places = 1,
  /** Count as many of `places` as there is room for, at least one. */
  upTo = false,
): Counting | undefined {
  const windowMs = limit.windowSeconds * 1000;
  const ownWindow = Math.floor(now / windowMs) * windowMs;
  // Another request began the next window: this request's clock is just behind it. It is counted
  // in that window at its start, where the room is least, rather than refused for a moment's lag.
  // A window begun further ahead of this clock than a lag explains was begun by a clock that is
  // off: refused, so that clock cannot open a window, with nothing in the last, for the others.
  const behind = stored?.windowStart === ownWindow + windowMs;
  if (behind && stored.windowStart - now > Math.min(windowMs / 10, MOST_CLOCK_LAG_MS)) {
    return undefined;
  }
  const windowStart = behind ? ownWindow + windowMs : ownWindow;
  const elapsedMs = behind ? 0 : now - windowStart;
  const caller = { bucket: limit.bucket, key };
  const max = limit.max * (limit.unscaled ? 1 : config().RATE_LIMIT_FACTOR);
  // Read as the previous count until the end of the next window; a minute's grace for clock skew.
  const expiresAt = (windowStart + 2 * windowMs) / 1000 + 60;
  const current = stored?.windowStart === windowStart;
  const following = stored?.windowStart === windowStart - windowMs;
  // Any other window (history, or a clock that is off by more than a window) is replaced by
  // this one, so one far-off clock never holds every other writer back.
  const count = current ? (stored.count ?? 0) : 0;
  const previousCount = current ? (stored.previousCount ?? 0) : following ? (stored.count ?? 0) : 0;
  const room = roomIn(max, previousCount, windowMs, elapsedMs);
  const free = room - count;
  const counted = upTo ? Math.min(places, free) : places;
  if (counted < 1 || counted > free) return undefined;
  const decided = { caller, expiresAt, places: counted };
  if (current) return { ...decided, add: { windowStart, room } };
  if (following) {
    // The most the previous window may have counted by the time this write lands, for the room
    // it leaves now to still hold `counted`.
    const maxPrevious = Math.floor(((max - counted) * windowMs) / (windowMs - elapsedMs));
    return { ...decided, move: { from: stored.windowStart, windowStart, maxPrevious } };
  }
  return { ...decided, start: { windowStart, stored } };
}

/** The condition a counting write holds to: the windows still leave the room it was decided on. */
function countingCondition(decided: Counting): RateLimitCondition {
  return (attr, op) => {
    if ('add' in decided) {
      const { windowStart, room } = decided.add;
      return `${op.eq(attr.windowStart, windowStart)} AND ${op.lte(attr.count, room - decided.places)}`;
    }
    if ('move' in decided) {
      const { from, maxPrevious } = decided.move;
      return `${op.eq(attr.windowStart, from)} AND ${op.lte(attr.count, maxPrevious)}`;
    }
    const { stored } = decided.start;
    return stored ? op.eq(attr.windowStart, stored.windowStart) : op.notExists(attr.windowStart);
  };
}

/** What a counting write sets on the caller's item (with `add`, besides adding to the count). */
function countingData(decided: Counting): RateLimitData {
  return (attr, op) => {
    op.set(attr.expiresAt, decided.expiresAt);
    if ('add' in decided) return;
    const { windowStart } = 'move' in decided ? decided.move : decided.start;
    op.set(attr.windowStart, windowStart);
    // Both read the item as it was before this write: the count it ended with moves over.
    op.set(attr.previousCount, 'move' in decided ? op.name(attr.count) : 0);
    op.set(attr.count, decided.places);
  };
}

type RateLimitCondition =
  typeof RateLimitWindowEntity extends Entity<infer A, infer F, infer C, infer S>
    ? WhereCallback<A, F, C, S, Item<A, F, C, S, S['attributes']>>
    : never;

type RateLimitData =
  typeof RateLimitWindowEntity extends Entity<infer A, infer F, infer C, infer S>
    ? DataUpdateCallback<A, F, C, S, Item<A, F, C, S, S['attributes']>>
    : never;

type RateLimitTransaction =
  typeof RateLimitWindowEntity extends Entity<infer A, infer F, infer C, infer S>
    ? TransactWriteEntity<A, F, C, S>
    : never;

/** A caller's windows, read together with others (core/db's getTogether). */
export function windowsRead(limit: Limit, key: string): ItemRead<Stored> {
  return {
    key: RateLimitWindowEntity.get({ bucket: limit.bucket, key }).params().Key,
    parse: (item) => RateLimitWindowEntity.parse({ Item: item }).data ?? undefined,
  };
}

/**
 * Counts one request of `key` inside the caller's own transaction, from its windows as read
 * (`windowsRead`): answers the write to add to it (entity `RateLimitWindowEntity`), conditioned on
 * those windows, or throws the 429 refusal. If, by the time it lands, the windows no longer leave it
 * room (or another request began a later window), the condition cancels the transaction and
 * nothing is counted.
 */
export function countIn(limit: Limit, key: string, stored: Stored | undefined, now = Date.now()) {
  const decided = counting(limit, key, stored, now);
  if (!decided) throw refusal();
  return (rate: RateLimitTransaction) => {
    const item = rate.update(decided.caller);
    return ('add' in decided ? item.add({ count: decided.places }) : item)
      .data(countingData(decided))
      .where(countingCondition(decided))
      .commit();
  };
}

/**
 * Counts one request of `key` (or `places` of them at once; with `upTo`, as many of them as there
 * is room for) if the sliding window has room for it; a refusal counts nothing.
 */
export async function attempt(
  limit: Limit,
  key: string,
  now = Date.now(),
  /** The caller's windows, when they were just read with other items (`windowsRead`). */
  read?: { windows: Stored | undefined },
  { places = 1, upTo = false }: { places?: number; upTo?: boolean } = {},
): Promise<Attempt> {
  const caller = { bucket: limit.bucket, key };
  for (let tries = 0; tries < RACED_RETRIES; tries++) {
    const stored =
      tries === 0 && read
        ? read.windows
        : ((await RateLimitWindowEntity.get(caller).go({ consistent: true })).data ?? undefined);
    const decided = counting(limit, key, stored, now, places, upTo);
    if (!decided) return REFUSED;
    const granted = decided.places;
    const { windowStart } =
      'add' in decided ? decided.add : 'move' in decided ? decided.move : decided.start;
    const item = RateLimitWindowEntity.update(caller);
    const counted = await committed(
      ('add' in decided ? item.add({ count: granted }) : item)
        .data(countingData(decided))
        .where(countingCondition(decided)),
    );
    if (counted) {
      return {
        allowed: true,
        granted: granted,
        // Only while its window is the current one: afterwards the count is history.
        release: async () => {
          await committed(
            RateLimitWindowEntity.update(caller)
              .add({ count: -granted })
              .where(
                (attr, op) =>
                  `${op.eq(attr.windowStart, windowStart)} AND ${op.gte(attr.count, granted)}`,
              ),
          );
        },
      };
    }
  }
  return REFUSED;
}

/** Runs a conditional write; false when its condition did not hold and nothing was written. */
async function committed(write: { go(): Promise<unknown> }): Promise<boolean> {
  try {
    await write.go();
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Counts one request of `key`; throws a 429 VisibleError once the sliding window is full. */
export async function hit(limit: Limit, key: string, now = Date.now()): Promise<void> {
  if ((await attempt(limit, key, now)).allowed) return;
  throw refusal();
}
