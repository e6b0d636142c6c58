// Fixed-window rate limits kept in the table, so every Lambda and every local process agrees.
// A request is counted first (one atomic ADD) and decided on the count DynamoDB returns, so
// parallel requests cannot all pass a check made before any of them was counted.
import { VisibleError } from '#core/common';
import { config } from '#core/config';
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

/** One counted request: whether it fits the window, and a way to give its place back. */
export type Attempt = { allowed: boolean; count: number; release(): Promise<void> };

function windowOf(limit: Limit, now: number) {
  const windowMs = limit.windowSeconds * 1000;
  const windowStart = Math.floor(now / windowMs) * windowMs;
  return {
    key: { bucket: limit.bucket, windowStart },
    expiresAt: Math.ceil((windowStart + windowMs) / 1000) + 60,
  };
}

/** Counts one request of `key` atomically; allowed while the returned count is within the maximum. */
export async function attempt(limit: Limit, key: string, now = Date.now()): Promise<Attempt> {
  const window = windowOf(limit, now);
  const { data } = await RateLimitWindowEntity.update({ ...window.key, key })
    .add({ count: 1 })
    .set({ expiresAt: window.expiresAt })
    .go({ response: 'all_new' });
  const count = data.count ?? 0;
  return {
    allowed: count <= limit.max * (limit.unscaled ? 1 : config().RATE_LIMIT_FACTOR),
    count,
    // Same window as the count, even if the clock has moved on since.
    release: async () => {
      await RateLimitWindowEntity.update({ ...window.key, key })
        .add({ count: -1 })
        .set({ expiresAt: window.expiresAt })
        .go();
    },
  };
}

/** Counts one request of `key`; throws a 429 VisibleError once the window's maximum is passed. */
export async function hit(limit: Limit, key: string, now = Date.now()): Promise<void> {
  if ((await attempt(limit, key, now)).allowed) return;
  throw new VisibleError(
    'rate_limited',
    'Too many requests. Please wait a minute and try again.',
    429,
  );
}
