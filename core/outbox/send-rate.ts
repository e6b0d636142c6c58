// The SMTP send rate: every worker takes a slot before it hands a message to the server, counted
// in the table (core/rate-limit's sliding one-second window), so however many workers run, the
// provider sees at most SEND_RATE messages in any second.
import { config } from '#core/config';
import * as RateLimit from '#core/rate-limit';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until the sliding second has room for one more message, takes it, and answers the time it
 * was taken at.
 */
export async function takeSendSlot(
  rate = config().SEND_RATE,
  clock: () => number = Date.now,
): Promise<number> {
  const limit = {
    bucket: 'smtp-send',
    max: rate,
    windowSeconds: 1,
    unscaled: true,
  } as const;
  for (;;) {
    const at = clock();
    if ((await RateLimit.attempt(limit, 'all', at)).allowed) return at;
    // A full sliding second frees a place every 1/rate of a second; spread over one more such
    // interval, so waiting workers do not all ask at the same instant.
    await sleep((1000 / rate) * (1 + Math.random()));
  }
}
