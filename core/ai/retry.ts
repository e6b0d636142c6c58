// Retries with exponential backoff for calls that may succeed later (429, 5xx, timeouts). A
// provider's retry-after hint wins over our own delay; a hint longer than we are willing to wait
// ends the call at once, so the job records the article and tries it on a later run instead.
// Sleep and jitter are injected so tests are deterministic and instant. A call made inside a web
// request has a deadline: no wait runs past it, so the caller hears "try again" in time.
import { AiError, AiRateLimited } from './errors';

/**
 * The most a model call made inside a web request may take, retries included: the web function
 * stops at 20 s, and the rate limit, reads and writes around the call need their share of it.
 * Jobs have no such budget: they wait AI_TIMEOUT_MS per attempt, AI_MAX_RETRIES times.
 */
export const IN_REQUEST_BUDGET_MS = 8_000;

export type RetryPolicy = {
  /** Retries after the first attempt (0 = one attempt only). */
  maxRetries: number;
  baseDelayMs: number;
  /** Longest single wait; a longer retry-after is not waited for. */
  maxDelayMs: number;
  sleep: (ms: number) => Promise<void>;
  /** 0..1; the delay is scaled by 0.5 + random / 2 so parallel callers spread out. */
  random: () => number;
};

export const defaultRetryPolicy = (maxRetries: number): RetryPolicy => ({
  maxRetries,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
});

/** Milliseconds from a `retry-after-ms` or `retry-after` header (seconds or an HTTP date). */
export function retryAfterMs(headers: Headers | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.get('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The wait before retry number `attempt` (0-based). */
export function backoffDelay(policy: RetryPolicy, attempt: number, hintMs?: number): number {
  if (hintMs !== undefined) return hintMs;
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(exponential * (0.5 + policy.random() / 2));
}

/**
 * Runs `call`, retrying retryable AiErrors (but never a bad answer: the same prompt would likely
 * earn the same answer, and the job decides when to try again). With a `deadline` (epoch ms), a
 * retry whose wait would reach it is not made: the last error is the answer.
 */
export async function withRetries<T>(
  policy: RetryPolicy,
  call: () => Promise<T>,
  deadline?: { at: number; now: () => number },
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      const retryable =
        error instanceof AiError && error.retryable && error.code !== 'ai.bad_answer';
      if (!retryable || attempt >= policy.maxRetries) throw error;
      const hint = error instanceof AiRateLimited ? error.retryAfterMs : undefined;
      if (hint !== undefined && hint > policy.maxDelayMs) throw error;
      const delay = backoffDelay(policy, attempt, hint);
      if (deadline && deadline.now() + delay >= deadline.at) throw error;
      await policy.sleep(delay);
    }
  }
}
