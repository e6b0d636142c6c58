// Fixed-window rate limits kept in the table, so every Lambda and every local process agrees.
import { VisibleError } from '#core/common';
import { config } from '#core/config';
import { RateLimitWindowEntity } from './entity';

export type Limit = { bucket: string; max: number; windowSeconds: number };

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
} satisfies Record<string, Limit>;

function windowOf(limit: Limit, now: number) {
  const windowMs = limit.windowSeconds * 1000;
  return { windowMs, windowStart: Math.floor(now / windowMs) * windowMs };
}

/** Whether `key` has used up the current window, without counting a request. */
export async function isLimited(limit: Limit, key: string, now = Date.now()): Promise<boolean> {
  const { windowStart } = windowOf(limit, now);
  const { data } = await RateLimitWindowEntity.get({ bucket: limit.bucket, key, windowStart }).go();
  return (data?.count ?? 0) >= limit.max * config().RATE_LIMIT_FACTOR;
}

/** Counts one request of `key`; throws a 429 VisibleError once the window's maximum is passed. */
export async function hit(limit: Limit, key: string, now = Date.now()): Promise<void> {
  const { windowMs, windowStart } = windowOf(limit, now);
  const { data } = await RateLimitWindowEntity.update({ bucket: limit.bucket, key, windowStart })
    .add({ count: 1 })
    .set({ expiresAt: Math.ceil((windowStart + windowMs) / 1000) + 60 })
    .go({ response: 'all_new' });
  if ((data.count ?? 0) > limit.max * config().RATE_LIMIT_FACTOR) {
    throw new VisibleError(
      'rate_limited',
      'Too many requests. Please wait a minute and try again.',
      429,
    );
  }
}
