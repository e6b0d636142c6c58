// Rate limits kept in the table, so every Lambda and every local process agrees. Each limit is a
// sliding window approximated from two fixed windows, as Cloudflare and nginx count: the previous
// window's count, weighted by how much of it the sliding window still overlaps, plus the current
// window's. A fixed window alone lets twice the maximum through in a moment across its boundary.
// The previous window no longer takes requests, so reading it first is safe; the current window's
// counter is raised by one atomic ADD conditioned on the room the previous one leaves, so parallel
// requests can never push it past what the check allows, and a refused request is not counted.
import { VisibleError } from '#core/common';
import { config } from '#core/config';
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

/**
 * The most requests the window holding `now` may count: the maximum less the previous window's
 * count weighted by the part of it the sliding window still covers. Whole numbers throughout
 * (the weight as milliseconds), so the room is exact.
 */
function roomIn(max: number, previousCount: number, windowMs: number, elapsedMs: number) {
  return Math.floor((max * windowMs - previousCount * (windowMs - elapsedMs)) / windowMs);
}

/** Counts one request of `key` if the sliding window has room for it; a refusal counts nothing. */
export async function attempt(limit: Limit, key: string, now = Date.now()): Promise<Attempt> {
  const windowMs = limit.windowSeconds * 1000;
  const windowStart = Math.floor(now / windowMs) * windowMs;
  const current = { bucket: limit.bucket, key, windowStart };
  const { data: previous } = await RateLimitWindowEntity.get({
    ...current,
    windowStart: windowStart - windowMs,
  }).go({ consistent: true });
  const max = limit.max * (limit.unscaled ? 1 : config().RATE_LIMIT_FACTOR);
  const room = roomIn(max, previous?.count ?? 0, windowMs, now - windowStart);
  if (room <= 0) return REFUSED;
  // Read as the previous window until the end of the next one; a minute's grace for clock skew.
  const expiresAt = (windowStart + 2 * windowMs) / 1000 + 60;
  try {
    await RateLimitWindowEntity.update(current)
      .add({ count: 1 })
      .set({ expiresAt })
      .where((attr, op) => `${op.notExists(attr.count)} OR ${op.lt(attr.count, room)}`)
      .go();
  } catch (error) {
    if (isConditionFailure(error)) return REFUSED;
    throw error;
  }
  return {
    allowed: true,
    // Same window as the count, even if the clock has moved on since.
    release: async () => {
      await RateLimitWindowEntity.update(current).add({ count: -1 }).set({ expiresAt }).go();
    },
  };
}

/** Counts one request of `key`; throws a 429 VisibleError once the sliding window is full. */
export async function hit(limit: Limit, key: string, now = Date.now()): Promise<void> {
  if ((await attempt(limit, key, now)).allowed) return;
  throw new VisibleError(
    'rate_limited',
    'Too many requests. Please wait a minute and try again.',
    429,
  );
}
