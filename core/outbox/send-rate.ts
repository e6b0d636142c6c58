// The SMTP send rate: every worker takes a slot of the current second before it hands a message
// to the server, counted in the table (core/rate-limit), so however many workers run, the
// provider sees at most SEND_RATE messages a second.
import { config } from '#core/config';
import * as RateLimit from '#core/rate-limit';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until this second (or a later one) has room for one more message, takes it, and answers
 * the time it was taken at.
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
    // Into the next second, spread a little so waiting workers do not all ask at its first instant.
    await sleep(1000 - (at % 1000) + Math.floor(Math.random() * 50));
  }
}
