// Admin sign-in: system users with argon2id password hashes, server-side sessions (the cookie
// holds a random token; the table holds only its SHA-256), and throttled attempts.
import { createHash, randomBytes } from 'node:crypto';
import { hash, verify, type Algorithm, type Options } from '@node-rs/argon2';
import { createWriteTransaction, type EntityItem } from 'electrodb';
import * as v from 'valibot';
import { freeText, VisibleError } from '#core/common';
import { ulid } from '#core/ids';
import { isConditionFailure } from '#core/db';
import * as RateLimit from '#core/rate-limit';
import { ROLES, SystemUserEntity } from './entity';
import { SessionEntity } from './session-entity';
import { SystemUserNameEntity } from './system-user-name-entity';
import { countSignIn, type SignInClient, type SignInThrottle } from './throttle';

export { ROLES, SystemUserEntity, SystemUserNameEntity, SessionEntity };
export {
  countSignIn,
  DEVICE_TOKEN_TTL_SECONDS,
  type SignInClient,
  type SignInThrottle,
} from './throttle';
export type SystemUser = EntityItem<typeof SystemUserEntity>;
export type SignedInUser = Pick<SystemUser, 'id' | 'userName' | 'name' | 'role'>;

export const SESSION_TTL_SECONDS = 12 * 3600;
export const INVALID_CREDENTIALS = 'Access denied: Invalid credentials';
/** Failed sign-ins allowed from one address (whatever the user name) in 15 minutes. */
export const LOGIN_LIMIT_PER_IP: RateLimit.Limit = {
  bucket: 'admin-login-ip',
  max: 5,
  windowSeconds: 15 * 60,
};
/** Failed sign-ins allowed for one user name (from any unknown browser) in 15 minutes. */
export const LOGIN_LIMIT_PER_USER_NAME: RateLimit.Limit = {
  bucket: 'admin-login-user',
  max: 10,
  windowSeconds: 15 * 60,
};
/** Failed sign-ins allowed from one known browser (its device token) in 15 minutes. */
export const LOGIN_LIMIT_PER_DEVICE: RateLimit.Limit = {
  bucket: 'admin-login-device',
  max: 10,
  windowSeconds: 15 * 60,
};
/**
 * argon2id as OWASP's password storage guidance sets it (19 MiB, 2 passes, 1 lane), pinned so a
 * library upgrade cannot quietly change what new hashes cost. Existing hashes carry their own.
 */
export const PASSWORD_HASHING = {
  // Algorithm.Argon2id: the enum is an ambient const enum, which isolated modules cannot read.
  algorithm: 2 as Algorithm,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
  outputLen: 32,
} as const satisfies Options;
const hashPassword = (password: string) => hash(password, PASSWORD_HASHING);
/** Verified when the user name is unknown, so a miss costs as much time as a wrong password. */
const DUMMY_HASH = hashPassword('not-a-real-password-0');
const THROTTLE: SignInThrottle = {
  perIp: LOGIN_LIMIT_PER_IP,
  perLogin: LOGIN_LIMIT_PER_USER_NAME,
  perDevice: LOGIN_LIMIT_PER_DEVICE,
  devicePurpose: 'admin-device',
  throttled: () =>
    new VisibleError(
      'UNAUTH_USER_LOGIN_THROTTLED',
      'Too many sign-in attempts. Please wait 15 minutes and try again.',
      429,
    ),
};

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');
const key = (userName: string) => userName.trim().toLowerCase();
const USER_NAME = /^[\w.@-]{3,64}$/;

export const SystemUserInput = v.object({
  userName: v.pipe(
    v.string(),
    v.trim(),
    v.regex(USER_NAME, 'A user name has 3 to 64 letters, digits or . _ @ -'),
  ),
  name: v.pipe(
    freeText({ max: 100, tooLong: 'A name has at most 100 characters' }),
    v.nonEmpty('Please add a name'),
  ),
  password: v.pipe(v.string(), v.minLength(12, 'A password has at least 12 characters')),
  role: v.optional(v.picklist([ROLES.ADMIN, ROLES.USER]), ROLES.ADMIN),
});

export async function createSystemUser(
  input: v.InferInput<typeof SystemUserInput>,
): Promise<SystemUser> {
  const parsed = v.safeParse(SystemUserInput, input);
  if (!parsed.success) throw new VisibleError('input.invalid', parsed.issues[0]!.message, 400);
  const user: SystemUser = {
    id: ulid(),
    userName: parsed.output.userName,
    name: parsed.output.name,
    role: parsed.output.role,
    passwordHash: await hashPassword(parsed.output.password),
    createdAt: new Date().toISOString(),
  };
  const result = await createWriteTransaction(
    { user: SystemUserEntity, claim: SystemUserNameEntity },
    (entities) => [
      entities.user.create(user).commit(),
      entities.claim.create({ userName: key(user.userName), systemUserId: user.id }).commit(),
    ],
  )
    .go()
    .catch((error: unknown) => {
      if (isConditionFailure(error)) return { canceled: true };
      throw error;
    });
  if (result.canceled)
    throw new VisibleError('auth.user_name_taken', 'This user name is already taken', 409);
  return user;
}

export async function byUserName(userName: string): Promise<SystemUser | undefined> {
  const { data: claim } = await SystemUserNameEntity.get({ userName: key(userName) }).go({
    consistent: true,
  });
  if (!claim) return undefined;
  const { data } = await SystemUserEntity.get({ id: claim.systemUserId }).go({ consistent: true });
  return data ?? undefined;
}

/** A system user by id (who promoted a scoring setup, for the admin to read). */
export async function byId(id: string): Promise<SystemUser | undefined> {
  const { data } = await SystemUserEntity.get({ id }).go();
  return data ?? undefined;
}

/** The first start's admin: created once from the given password, or a generated one. */
export async function ensureAdmin(options: { userName: string; password?: string; name?: string }) {
  if (await byUserName(options.userName)) return { created: false as const };
  const password = options.password ?? randomBytes(12).toString('base64url');
  await createSystemUser({
    userName: options.userName,
    name: options.name ?? 'Administrator',
    password,
    role: ROLES.ADMIN,
  });
  return { created: true as const, password, generated: options.password === undefined };
}

/**
 * Signs an admin in; every failure says only 'Access denied: Invalid credentials'. The attempt is
 * throttled before the password is verified (see throttle.ts); success answers the session token
 * and a device token for the browser, which keeps it out of the user name's lockout.
 */
export async function authorize(
  input: { userName: string; password: string } & SignInClient,
  now = Date.now(),
) {
  if (input.userName.length > 64 || input.password.length > 1024) {
    throw new VisibleError('UNAUTH_USER_LOGIN', INVALID_CREDENTIALS, 401);
  }
  // A name no user can have (blank, junk) belongs to nobody: it is neither counted nor stored as
  // a counter's key.
  const userName = USER_NAME.test(input.userName.trim()) ? key(input.userName) : '';
  const counted = await countSignIn(THROTTLE, userName, input, now);
  const user = userName && input.password ? await byUserName(userName) : undefined;
  const valid = await verify(user?.passwordHash ?? (await DUMMY_HASH), input.password || ' ');
  if (!user || !valid || user.role !== ROLES.ADMIN) {
    throw new VisibleError('UNAUTH_USER_LOGIN', INVALID_CREDENTIALS, 401);
  }
  const deviceToken = await counted.succeeded();
  const token = randomBytes(32).toString('base64url');
  await SessionEntity.create({
    tokenHash: tokenHash(token),
    systemUserId: user.id,
    createdAt: new Date(now).toISOString(),
    expiresAt: Math.floor(now / 1000) + SESSION_TTL_SECONDS,
  }).go();
  return { token, deviceToken, user: signedIn(user) };
}

function signedIn({ id, userName, name, role }: SystemUser): SignedInUser {
  return { id, userName, name, role };
}

/**
 * The admin a session token belongs to, while the session lasts. Both reads are strongly
 * consistent: the first admin page after sign-in reads a session written a moment before, and a
 * signed-out or demoted admin must not pass on a stale copy.
 */
export async function sessionUser(token: string | undefined): Promise<SignedInUser | undefined> {
  if (!token) return undefined;
  const { data: session } = await SessionEntity.get({ tokenHash: tokenHash(token) }).go({
    consistent: true,
  });
  if (!session || session.expiresAt * 1000 < Date.now()) return undefined;
  const { data: user } = await SystemUserEntity.get({ id: session.systemUserId }).go({
    consistent: true,
  });
  return user && user.role === ROLES.ADMIN ? signedIn(user) : undefined;
}

export async function signOut(token: string | undefined): Promise<void> {
  if (token) await SessionEntity.delete({ tokenHash: tokenHash(token) }).go();
}
