// Sign-in throttles, one mechanism for the admin and for readers. Each attempt is counted before
// its password is verified, so parallel guesses get at most the limits verified: per address, then
// per login for a browser we do not know, or per device for a browser that has signed in to this
// login before. That is OWASP's device cookie scheme: failures from strangers lock out strangers
// only, so nobody can lock the admin or a reader out of their own browser by failing on purpose
// from many addresses, while a stolen device token still has a limit of its own.
import { randomBytes } from 'node:crypto';
import type { VisibleError } from '#core/common';
import * as RateLimit from '#core/rate-limit';
import * as Tokens from '#core/tokens';

/** How long a browser stays known after its last successful sign-in. */
export const DEVICE_TOKEN_TTL_SECONDS = 30 * 86_400;

/** Where an attempt comes from: its address, and the device token its browser holds, if any. */
export type SignInClient = { ip: string; deviceToken?: string };

export type SignInThrottle = {
  perIp: RateLimit.Limit;
  /** Attempts for one login from browsers without its device token. */
  perLogin: RateLimit.Limit;
  /** Attempts from one known browser (a device token) for its login. */
  perDevice: RateLimit.Limit;
  /** Keeps the admin's and the readers' device tokens apart. */
  devicePurpose: Extract<Tokens.TokenPurpose, 'admin-device' | 'reader-device'>;
  throttled: () => VisibleError;
};

/** A token is `{nonce}:{login}` signed for its purpose: the nonce names the device. */
function knownDevice(throttle: SignInThrottle, login: string, client: SignInClient, now: number) {
  const token = client.deviceToken;
  if (!login || !token || token.length > 1024) return undefined;
  const verified = Tokens.verify(throttle.devicePurpose, token, now);
  const subject = verified.ok ? (verified.subject ?? '') : '';
  const split = subject.indexOf(':');
  return split > 0 && subject.slice(split + 1) === login ? subject.slice(0, split) : undefined;
}

/**
 * Counts one attempt to sign in to `login` (its key: a blank one belongs to nobody) and throws
 * the throttle's 429 when a limit is full. Once the password proved right, `succeeded` gives the
 * places back (an admin who signs in often is never locked out by success) and answers a new
 * device token for the browser.
 */
export async function countSignIn(
  throttle: SignInThrottle,
  login: string,
  client: SignInClient,
  now: number,
): Promise<{ succeeded(): Promise<string> }> {
  const perIp = await RateLimit.attempt(throttle.perIp, client.ip, now);
  if (!perIp.allowed) throw throttle.throttled();
  // Counted only once the address is within its limit, so a throttled address cannot use up the
  // login's allowance and lock its owner out.
  const device = knownDevice(throttle, login, client, now);
  const perLoginOrDevice = device
    ? await RateLimit.attempt(throttle.perDevice, device, now)
    : login
      ? await RateLimit.attempt(throttle.perLogin, login, now)
      : undefined;
  if (perLoginOrDevice && !perLoginOrDevice.allowed) throw throttle.throttled();
  return {
    async succeeded() {
      await Promise.all([perIp.release(), perLoginOrDevice?.release()]);
      const nonce = randomBytes(16).toString('base64url');
      return Tokens.sign(
        throttle.devicePurpose,
        DEVICE_TOKEN_TTL_SECONDS,
        `${nonce}:${login}`,
        now,
      );
    },
  };
}
