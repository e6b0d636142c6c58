// Short-lived signed tokens bound to one purpose: base64url(payload).base64url(HMAC-SHA256).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { config } from '#core/config';

/** What a token may be used for; a token for one purpose is refused for every other. */
export type TokenPurpose =
  | 'waitlist'
  | 'confirm'
  | 'assemble'
  | 'manage'
  | 'click'
  | 'invite'
  | 'admin-device'
  | 'reader-device'
  | 'page-view';

type Payload = { p: TokenPurpose; exp: number; sub?: string };

function signature(body: string): string {
  return createHmac('sha256', config().APP_SECRET).update(body).digest('base64url');
}

export function sign(
  purpose: TokenPurpose,
  ttlSeconds: number,
  subject?: string,
  now = Date.now(),
): string {
  const payload: Payload = {
    p: purpose,
    exp: Math.floor(now / 1000) + ttlSeconds,
    ...(subject && { sub: subject }),
  };
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${signature(body)}`;
}

export type Verified =
  | { ok: true; subject?: string }
  | { ok: false; reason: 'malformed' | 'forged' | 'wrong_purpose' }
  /** Ours and for this purpose, but too old: whom it named is still known (an old link's holder). */
  | { ok: false; reason: 'expired'; subject?: string };

/** Checks signature, purpose and expiry; never throws on bad input. */
export function verify(
  purpose: TokenPurpose,
  token: string | null | undefined,
  now = Date.now(),
): Verified {
  const [body, sig, extra] = (token ?? '').split('.');
  if (!body || !sig || extra !== undefined) return { ok: false, reason: 'malformed' };
  const expected = Buffer.from(signature(body));
  const given = Buffer.from(sig);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    return { ok: false, reason: 'forged' };
  }
  let payload: Payload;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Payload;
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (payload.p !== purpose) return { ok: false, reason: 'wrong_purpose' };
  if (typeof payload.exp !== 'number' || payload.exp * 1000 < now)
    return { ok: false, reason: 'expired', ...(payload.sub && { subject: payload.sub }) };
  return { ok: true, ...(payload.sub && { subject: payload.sub }) };
}
