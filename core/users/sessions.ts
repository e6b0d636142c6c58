// Readers' sign-in at /login: e-mail (the spec's "username or email": readers have no other name)
// and password, checked against the argon2id hash set at the end of the funnel. Sessions live on
// the server like the admin's (the cookie holds a random token; the table only its SHA-256) and
// are renewed with a new token once they are 3 hours old; the old cookie works a minute more.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { createWriteTransaction, type EntityItem } from 'electrodb';
import * as v from 'valibot';
import * as Auth from '#core/auth';
import { parse, VisibleError } from '#core/common';
import { config } from '#core/config';
import { canonicalEmail } from '#core/mail';
import * as RateLimit from '#core/rate-limit';
import { committed, getTogether, type ItemRead } from '#core/db';
import { byId, userRead, type User } from './read';
import { UserEmailEntity } from './user-email-entity';
import { UserSessionEntity } from './user-session-entity';

/** A session unused for this long ends (each renewal starts it again). */
export const USER_SESSION_TTL_SECONDS = 7 * 24 * 3600;
/** However often it is renewed, a session ends this long after the password was typed. */
export const USER_SESSION_MAX_SECONDS = 30 * 24 * 3600;
/** The spec's session rule: after 3 hours the session is renewed (here: a new token). */
export const USER_SESSION_RENEW_AFTER_SECONDS = 3 * 3600;
/**
 * How long a replaced token still works: requests the browser sent with the old cookie while
 * another request was renewing it must not sign the reader out.
 */
export const USER_SESSION_REPLACED_GRACE_SECONDS = 60;
export const USER_LOGIN_INVALID = Auth.INVALID_CREDENTIALS;
export const USER_LOGIN_THROTTLED =
  'Too many sign-in attempts. Please wait 15 minutes and try again.';
/** Failed sign-ins allowed from one address (whatever the login) in 15 minutes. */
export const USER_LOGIN_LIMIT_PER_IP: RateLimit.Limit = {
  bucket: 'user-login-ip',
  max: 5,
  windowSeconds: 15 * 60,
};
/** Failed sign-ins allowed for one login (from any unknown browser) in 15 minutes. */
export const USER_LOGIN_LIMIT_PER_LOGIN: RateLimit.Limit = {
  bucket: 'user-login-login',
  max: 10,
  windowSeconds: 15 * 60,
};
/** Failed sign-ins allowed from one known browser (its device token) in 15 minutes. */
export const USER_LOGIN_LIMIT_PER_DEVICE: RateLimit.Limit = {
  bucket: 'user-login-device',
  max: 10,
  windowSeconds: 15 * 60,
};

/** A signed-in reader as pages see them: never the password hash. */
export type SessionUser = Omit<User, 'passwordHash'>;

const invalid = () => new VisibleError('user.login_invalid', USER_LOGIN_INVALID, 401);
const THROTTLE: Auth.SignInThrottle = {
  perIp: USER_LOGIN_LIMIT_PER_IP,
  perLogin: USER_LOGIN_LIMIT_PER_LOGIN,
  perDevice: USER_LOGIN_LIMIT_PER_DEVICE,
  devicePurpose: 'reader-device',
  throttled: () => new VisibleError('user.login_throttled', USER_LOGIN_THROTTLED, 429),
};
const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');
/**
 * A session token starts with its reader's id, so a request can read the session and the reader in
 * one call; only the random part after the dot is secret.
 */
const newToken = (userId: string) => `${userId}.${randomBytes(32).toString('base64url')}`;
/**
 * A renewed token is derived from the one it replaces (keyed with the app's secret), so every
 * request that comes with the old cookie during its grace can hand the browser the same new one:
 * a renewal whose answer was lost (a navigation cut it off) does not sign the reader out.
 */
const renewalOf = (token: string, userId: string) =>
  `${userId}.${createHmac('sha256', config().APP_SECRET).update(`session-renewal:${token}`).digest('base64url')}`;
const READER_IN_TOKEN = /^([0-9A-Z]{26})\./;

let dummyHash: Promise<string> | undefined;
/** Verified when the login names nobody, so a miss costs as much time as a wrong password. */
const dummy = () => (dummyHash ??= hash('not-a-real-password-0', Auth.PASSWORD_HASHING));

/** Only an active reader who has chosen a password may sign in (or stay signed in). */
function maySignIn(user: User | undefined): user is User & { passwordHash: string } {
  return Boolean(user && user.isActive && user.passwordHash && user.role === Auth.ROLES.USER);
}

function withoutHash({ passwordHash: _, ...user }: User): SessionUser {
  return user;
}

/** The user of an address in its one spelling (`canonicalEmail`). */
async function byEmail(email: string): Promise<User | undefined> {
  const { data } = await UserEmailEntity.get({ email }).go({ consistent: true });
  return data ? byId(data.userId) : undefined;
}

async function startSession(
  userId: string,
  signedInAt: number,
  now: number,
  renewal?: { token: string; replaces: string },
) {
  const token = renewal?.token ?? newToken(userId);
  const replaces = renewal?.replaces;
  const expiresAt = Math.min(
    Math.floor(now / 1000) + USER_SESSION_TTL_SECONDS,
    Math.floor(signedInAt / 1000) + USER_SESSION_MAX_SECONDS,
  );
  const item = {
    tokenHash: tokenHash(token),
    userId,
    signedInAt: new Date(signedInAt).toISOString(),
    createdAt: new Date(now).toISOString(),
    expiresAt,
    replaces,
  };
  return { token, item };
}

export const SignInInput = v.object({
  login: v.string('Please enter your e-mail or username'),
  password: v.string('Please enter your password'),
});

/**
 * Signs a reader in by e-mail (any case) and password; every failure says only 'Access denied:
 * Invalid credentials' (401). The attempt is throttled before the password is verified, as the
 * admin's is (core/auth's throttle); success answers the session token and a device token for
 * the browser, which keeps it out of the login's lockout.
 */
export async function signIn(
  input: v.InferInput<typeof SignInInput>,
  client: Auth.SignInClient,
  now = Date.now(),
): Promise<{ token: string; deviceToken: string; user: SessionUser }> {
  const { login, password } = parse(SignInInput, input);
  if (login.length > 254 || password.length > 1024) throw invalid();
  // A login that is no address (blank, junk) belongs to nobody: it is neither counted nor
  // stored as a counter's key.
  const email = canonicalEmail(login.trim()) ?? '';
  const counted = await Auth.countSignIn(THROTTLE, email, client, now);
  const user = email && password ? await byEmail(email) : undefined;
  const known = maySignIn(user) ? user : undefined;
  const valid = await verify(known?.passwordHash ?? (await dummy()), password || ' ');
  if (!known || !valid) throw invalid();
  const deviceToken = await counted.succeeded();
  const { token, item } = await startSession(known.id, now, now);
  await UserSessionEntity.create(item).go();
  return { token, deviceToken, user: withoutHash(known) };
}

/**
 * The reader a session token belongs to, while the session lasts and the reader may still sign
 * in. A session older than 3 hours is replaced: a new token (`renewedToken`, for a new cookie) in
 * the same write that gives the old one a short grace, so a request already on its way with the
 * old cookie is still answered, and handed the same new token. When two requests renew at once,
 * one write wins and both hand out its token.
 */
export async function sessionUser(
  token: string | undefined,
  now = Date.now(),
): Promise<{ user: SessionUser; renewedToken?: string } | undefined> {
  if (!token || token.length > 100) return undefined;
  const { session, user } = await sessionAndReader(token);
  if (!session || session.expiresAt * 1000 <= now) return undefined;
  if (!maySignIn(user) || user.id !== session.userId) return undefined;
  if (now - Date.parse(session.createdAt) <= USER_SESSION_RENEW_AFTER_SECONDS * 1000) {
    return { user: withoutHash(user) };
  }
  const renewedToken = renewalOf(token, user.id);
  // Replaced already (by another request, or by a renewal whose answer was lost): the same token.
  if (session.replacedAt) return { user: withoutHash(user), ...successor(session, renewedToken) };
  const renewed = await startSession(user.id, Date.parse(session.signedInAt), now, {
    token: renewedToken,
    replaces: session.tokenHash,
  });
  const graceEnds = Math.floor(now / 1000) + USER_SESSION_REPLACED_GRACE_SECONDS;
  const replaced = await committed(
    createWriteTransaction({ sessions: UserSessionEntity }, ({ sessions }) => [
      sessions.create(renewed.item).commit(),
      sessions
        .patch({ tokenHash: session.tokenHash })
        .set({
          replacedAt: new Date(now).toISOString(),
          replacedBy: renewed.item.tokenHash,
          expiresAt: Math.min(session.expiresAt, graceEnds),
        })
        .where(
          (attr, op) =>
            `${op.notExists(attr.replacedAt)} AND ${op.eq(attr.createdAt, session.createdAt)}`,
        )
        .commit(),
    ]),
  );
  if (replaced) return { user: withoutHash(user), renewedToken };
  // Another request renewed it at the same moment: the new token if that write stored it.
  const { data: latest } = await UserSessionEntity.get({ tokenHash: session.tokenHash }).go({
    consistent: true,
  });
  return { user: withoutHash(user), ...(latest && successor(latest, renewedToken)) };
}

/** The new token for a replaced session, when it is the one stored as its successor. */
function successor(session: Session, renewedToken: string): { renewedToken?: string } {
  return session.replacedBy === tokenHash(renewedToken) ? { renewedToken } : {};
}

type Session = EntityItem<typeof UserSessionEntity>;

/** A token's session and its reader: one call for a token naming its reader, two for an older one. */
async function sessionAndReader(token: string) {
  const readerId = READER_IN_TOKEN.exec(token)?.[1];
  const sessionKey = { tokenHash: tokenHash(token) };
  if (readerId) {
    const session: ItemRead<Session> = {
      key: UserSessionEntity.get(sessionKey).params().Key,
      parse: (item) => UserSessionEntity.parse({ Item: item }).data ?? undefined,
    };
    const [found, user] = await getTogether(session, userRead(readerId));
    return { session: found, user };
  }
  const { data: found } = await UserSessionEntity.get(sessionKey).go({ consistent: true });
  return { session: found ?? undefined, user: found ? await byId(found.userId) : undefined };
}

/**
 * Ends the session of a token and the one it replaced or was replaced by (a sign-out may race the
 * renewal that replaced its cookie).
 */
export async function signOut(token: string | undefined): Promise<void> {
  if (!token || token.length > 100) return;
  const { data: ended } = await UserSessionEntity.delete({ tokenHash: tokenHash(token) }).go({
    response: 'all_old',
  });
  for (const other of [ended?.replaces, ended?.replacedBy]) {
    if (other) await UserSessionEntity.delete({ tokenHash: other }).go();
  }
}
