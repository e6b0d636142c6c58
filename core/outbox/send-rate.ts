// The SMTP send rate: every worker takes a slot before it hands a message to the server, counted
// in the table (core/rate-limit's sliding one-second window), so however many workers run, the
// provider sees at most SEND_RATE messages in any second. A worker that sends several messages
// together takes as many of their slots as the second has room for, in one write.
import { config } from '#core/config';
import * as RateLimit from '#core/rate-limit';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until the sliding second has room for one more message, then takes slots for up to
 * `count` of them, as many as it has room for; answers when they were taken and how many.
 */
export async function takeSendSlots(
  count = 1,
  rate = config().SEND_RATE,
  clock: () => number = Date.now,
): Promise<{ at: number; granted: number }> {
  const limit = {
    bucket: 'smtp-send',
    max: rate,
    windowSeconds: 1,
    unscaled: true,
  } as const;
  for (;;) {
    const at = clock();
    const { allowed, granted } = await RateLimit.attempt(limit, 'all', at, undefined, {
      places: count,
      upTo: true,
    });
    if (allowed) return { at, granted };
    // A full sliding second frees a place every 1/rate of a second; spread over one more such
    // interval, so waiting workers do not all ask at the same instant.
    await sleep((1000 / rate) * (1 + Math.random()));
  }
}
