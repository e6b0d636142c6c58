// Who calls the reader API (ADR 0040): a reader's personal access token in
// `Authorization: Bearer …`, or else their browser's session cookie. Anything else is a 401 JSON
// with `WWW-Authenticate: Bearer` (RFC 6750), after the caller's address was counted.
import * as RateLimit from '#core/rate-limit';
import * as ReaderTokens from '#core/reader-tokens';
import type * as Users from '#core/users';
import { apiError, clientIp } from './api.server';
import { optionalUser } from './user.server';

const REALM = 'Bearer realm="cluefeed"';

export const API_AUTH_MESSAGES = {
  missing:
    'Sign in, or send a personal access token as "Authorization: Bearer <token>" (create one at /account/tokens)',
  // The spec's UNAUTH_USER_LOGIN_VIA_TOKEN text.
  invalid: 'Could not verify authorization token',
  badHeader: 'Send the token as "Authorization: Bearer <token>"',
} as const;

export type ApiReader = {
  reader: Users.SessionUser;
  /** A renewed session's Set-Cookie (cookie callers only): put it on the answer. */
  headers: Record<string, string>;
};

function unauthorized(code: string, message: string, error?: string): Response {
  return apiError(401, code, message, {
    'WWW-Authenticate': error ? `${REALM}, error="${error}"` : REALM,
  });
}

/**
 * The calling reader, or the 401 to answer. The address is counted before anything is read, the
 * reader after: a caller out of room gets a 429 VisibleError (inside handleApi).
 */
export async function apiReader(request: Request): Promise<ApiReader | Response> {
  await RateLimit.hit(RateLimit.LIMITS.readerApiPerIp, clientIp(request));
  const found = await authenticate(request);
  if (found instanceof Response) return found;
  await RateLimit.hit(RateLimit.LIMITS.readerApiPerReader, found.reader.id);
  return found;
}

async function authenticate(request: Request): Promise<ApiReader | Response> {
  const authorization = request.headers.get('Authorization');
  if (authorization !== null) {
    const match = /^Bearer +(\S+) *$/i.exec(authorization);
    if (!match) {
      return unauthorized('auth.bad_header', API_AUTH_MESSAGES.badHeader, 'invalid_request');
    }
    const found = await ReaderTokens.readerOf(match[1]!);
    if (!found) {
      return unauthorized('auth.invalid_token', API_AUTH_MESSAGES.invalid, 'invalid_token');
    }
    return { reader: found.reader, headers: {} };
  }
  const session = await optionalUser(request);
  if (!session) return unauthorized('auth.required', API_AUTH_MESSAGES.missing);
  return { reader: session.user, headers: session.headers };
}
