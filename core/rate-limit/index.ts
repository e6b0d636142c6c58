// Rate limits kept in the table, so every Lambda and every local process agrees. Each limit is a
// sliding window approximated from two fixed windows, as Cloudflare and nginx count: the previous
// window's count, weighted by how much of it the sliding window still overlaps, plus the current
// window's. A fixed window alone lets twice the maximum through in a moment across its boundary.
// A request is counted by one transaction that raises the current window's counter only if it has
// the room the previous window leaves, and only if the previous window still holds the count this
// request read and the next window has not begun: requests straddling a boundary at the same
// moment see each other, so together they never pass the maximum. A refused request counts nothing.
import { VisibleError } from '#core/common';
import { config } from '#core/config';
import { createWriteTransaction } from 'electrodb';
import { isConditionFailure } from '#core/db';
import { RateLimitWindowEntity } from './entity';

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
} satisfies Record<string, Limit>;

/** One request: whether the limit let it through, and a way to give its place back. */
export type Attempt = { allowed: boolean; release(): Promise<void> };

const REFUSED: Attempt = { allowed: false, release: async () => undefined };

/** What a request no limit applies to gets. */
export const NOT_LIMITED: Attempt = { allowed: true, release: async () => undefined };

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

/** How often a request reads again when a neighbouring window changed under it, before refusing. */
const RACED_RETRIES = 5;

/** Counts one request of `key` if the sliding window has room for it; a refusal counts nothing. */
export async function attempt(limit: Limit, key: string, now = Date.now()): Promise<Attempt> {
  const windowMs = limit.windowSeconds * 1000;
  const windowStart = Math.floor(now / windowMs) * windowMs;
  const current = { bucket: limit.bucket, key, windowStart };
  const previousKey = { ...current, windowStart: windowStart - windowMs };
  const nextKey = { ...current, windowStart: windowStart + windowMs };
  const max = limit.max * (limit.unscaled ? 1 : config().RATE_LIMIT_FACTOR);
  // Read as the previous window until the end of the next one; a minute's grace for clock skew.
  const expiresAt = (windowStart + 2 * windowMs) / 1000 + 60;
  for (let tries = 0; tries < RACED_RETRIES; tries++) {
    const { data: previous } = await RateLimitWindowEntity.get(previousKey).go({
      consistent: true,
    });
    const previousCount = previous?.count;
    const room = roomIn(max, previousCount ?? 0, windowMs, now - windowStart);
    if (room <= 0) return REFUSED;
    const outcome = await count(current, previousKey, nextKey, previousCount, room, expiresAt);
    if (outcome === 'counted') {
      return {
        allowed: true,
        // Same window as the count, even if the clock has moved on since.
        release: async () => {
          await RateLimitWindowEntity.update(current).add({ count: -1 }).set({ expiresAt }).go();
        },
      };
    }
    if (outcome === 'full') return REFUSED;
  }
  return REFUSED;
}

type WindowKey = { bucket: string; key: string; windowStart: number };

/**
 * Raises the current window's counter in one transaction with the state it was decided from:
 * 'full' when the window has no room left (or a later window has begun, so this request's clock
 * is behind), 'raced' when the previous window changed since it was read.
 */
async function count(
  current: WindowKey,
  previousKey: WindowKey,
  nextKey: WindowKey,
  previousCount: number | undefined,
  room: number,
  expiresAt: number,
): Promise<'counted' | 'full' | 'raced'> {
  try {
    const result = await createWriteTransaction({ window: RateLimitWindowEntity }, ({ window }) => [
      window
        .update(current)
        .add({ count: 1 })
        .set({ expiresAt })
        .where((attr, op) => `${op.notExists(attr.count)} OR ${op.lt(attr.count, room)}`)
        .commit(),
      window
        .check(previousKey)
        .where((attr, op) =>
          previousCount === undefined ? op.notExists(attr.count) : op.eq(attr.count, previousCount),
        )
        .commit(),
      window
        .check(nextKey)
        .where((attr, op) => op.notExists(attr.count))
        .commit(),
    ]).go();
    if (!result.canceled) return 'counted';
    const [own, , next] = result.data;
    return own?.rejected || next?.rejected ? 'full' : 'raced';
  } catch (error) {
    if (isConditionFailure(error)) return 'raced';
    throw error;
  }
}

/** Counts one request of `key`; throws a 429 VisibleError once the sliding window is full. */
export async function hit(limit: Limit, key: string, now = Date.now()): Promise<void> {
  if ((await attempt(limit, key, now)).allowed) return;
  throw refusal();
}
