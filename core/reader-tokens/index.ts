// Readers' personal access tokens (ADR 0040): what a reader's own scripts send as
// `Authorization: Bearer …` to read their feed through the API. A token is shown once, when it is
// created; the table keeps only its SHA-256. A reader holds at most MAX_TOKENS_PER_READER live
// tokens, each for a year, and a token works only while its reader may sign in.
import { createHash, randomBytes } from 'node:crypto';
import { createWriteTransaction, type EntityItem } from 'electrodb';
import * as v from 'valibot';
import * as Auth from '#core/auth';
import { freeText, parse, VisibleError } from '#core/common';
import { ulid } from '#core/ids';
import { committed } from '#core/db';
import * as RateLimit from '#core/rate-limit';
import * as Users from '#core/users';
import { ReaderTokenEntity } from './entity';
import { ReaderTokenKeyEntity } from './token-key-entity';

export { ReaderTokenEntity, ReaderTokenKeyEntity };

/** What every token starts with, so a leaked one is recognised (secret scanners, logs). */
export const TOKEN_PREFIX = 'cfr_';
export const MAX_TOKENS_PER_READER = 5;
export const TOKEN_TTL_SECONDS = 365 * 24 * 3600;
/** A token's `lastUsedAt` is written at most this often. */
export const LAST_USED_EVERY_SECONDS = 3600;
export const TOKEN_NAME_MAX = 60;

export const READER_TOKEN_MESSAGES = {
  nameRequired: 'Please give the token a name',
  nameTooLong: `A token's name has at most ${TOKEN_NAME_MAX} characters`,
  tooMany: `You can have at most ${MAX_TOKENS_PER_READER} tokens. Revoke one to create another.`,
  notFound: 'This token does not exist (it may have been revoked already)',
  readerGone: 'Your account can no longer create tokens',
} as const;

/** A token as its reader's page shows it: never the token, never its hash. */
export type ReaderToken = {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt?: string;
  expiresAt: string;
};

/** The reader a token belongs to, as pages and the API see readers: never the password hash. */
export type TokenReader = Users.SessionUser;

const TOKEN_SHAPE = new RegExp(`^${TOKEN_PREFIX}[A-Za-z0-9_-]{43}$`);
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
const seconds = (ms: number) => Math.floor(ms / 1000);

function shown(item: EntityItem<typeof ReaderTokenEntity>): ReaderToken {
  return {
    id: item.id,
    name: item.name,
    createdAt: item.createdAt,
    ...(item.lastUsedAt && { lastUsedAt: item.lastUsedAt }),
    expiresAt: new Date(item.expiresAt * 1000).toISOString(),
  };
}

/** The reader's slots as stored, expired ones included (at most MAX_TOKENS_PER_READER items). */
async function slotsOf(userId: string) {
  const { data } = await ReaderTokenEntity.query
    .bySlot({ userId })
    .go({ consistent: true, limit: MAX_TOKENS_PER_READER });
  return data;
}

/** The reader's live tokens, oldest first: one Query of their partition. */
export async function list(userId: string, now = Date.now()): Promise<ReaderToken[]> {
  return (await slotsOf(userId))
    .filter((item) => item.expiresAt > seconds(now))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.slot - b.slot)
    .map(shown);
}

export const CreateInput = v.object({
  name: v.pipe(
    freeText({
      max: TOKEN_NAME_MAX,
      tooLong: READER_TOKEN_MESSAGES.nameTooLong,
      missing: READER_TOKEN_MESSAGES.nameRequired,
    }),
    v.nonEmpty(READER_TOKEN_MESSAGES.nameRequired),
  ),
});

/** How often a create reads the slots again after another write took the one it chose. */
const CREATE_ATTEMPTS = 3;

/**
 * A new token for an active reader: the token itself (shown once, never stored) and its entry.
 * It takes the reader's first free slot (an expired token's slot is free): the slot's write is
 * conditioned on the slot as read, and the reader's record on being active still, so two creates
 * at the limit never both land; a create that lost its slot to another reads the slots again.
 * A reader creates at most `readerTokensPerReader` an hour (a name refused is not counted).
 */
export async function create(
  userId: string,
  input: v.InferInput<typeof CreateInput>,
  now = Date.now(),
): Promise<{ token: string; entry: ReaderToken }> {
  const { name } = parse(CreateInput, input);
  await RateLimit.hit(RateLimit.LIMITS.readerTokensPerReader, userId, now);
  for (let attempt = 0; attempt < CREATE_ATTEMPTS; attempt++) {
    const slots = await slotsOf(userId);
    const held = new Map(slots.map((item) => [item.slot, item]));
    const slot = Array.from({ length: MAX_TOKENS_PER_READER }, (_, index) => index).find(
      (index) => !held.has(index) || held.get(index)!.expiresAt <= seconds(now),
    );
    if (slot === undefined) throw tooMany();
    const expired = held.get(slot);
    const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const item = {
      userId,
      slot,
      id: ulid(now),
      name,
      tokenHash: hashOf(token),
      createdAt: new Date(now).toISOString(),
      expiresAt: seconds(now) + TOKEN_TTL_SECONDS,
    };
    const landed = await committed(
      createWriteTransaction(
        { users: Users.UserEntity, tokens: ReaderTokenEntity, keys: ReaderTokenKeyEntity },
        ({ users, tokens, keys }) => [
          // A reader deactivated (or removed) since their session was read gets no token.
          users
            .check({ id: userId })
            .where((attr, op) => op.eq(attr.isActive, true))
            .commit(),
          tokens
            .put(item)
            .where((attr, op) => (expired ? op.eq(attr.id, expired.id) : op.notExists(attr.id)))
            .commit(),
          keys
            .create({
              tokenHash: item.tokenHash,
              userId,
              slot,
              id: item.id,
              expiresAt: item.expiresAt,
            })
            .commit(),
          // The expired token's key no longer opens anything (its expiry is checked); it goes
          // with its slot rather than waiting for the TTL.
          ...(expired ? [keys.delete({ tokenHash: expired.tokenHash }).commit()] : []),
        ],
      ),
    );
    if (landed) return { token, entry: shown(item) };
    if (!(await mayHoldTokens(userId))) {
      throw new VisibleError('reader_token.reader_gone', READER_TOKEN_MESSAGES.readerGone, 403);
    }
  }
  throw tooMany();
}

const tooMany = () => new VisibleError('reader_token.too_many', READER_TOKEN_MESSAGES.tooMany, 409);

async function mayHoldTokens(userId: string): Promise<boolean> {
  const user = await Users.byId(userId);
  return Boolean(user?.isActive && user.role === Auth.ROLES.USER);
}

const IdSchema = v.pipe(v.string(), v.regex(/^[0-9A-Z]{26}$/));

/**
 * Revokes one of the reader's own tokens (answering it as it was): its slot is found in their own partition only, so
 * another reader's token id answers as a missing one (404), and the delete is conditioned on the
 * slot still holding that token.
 */
export async function revoke(userId: string, tokenId: string): Promise<ReaderToken> {
  const notFound = new VisibleError('reader_token.not_found', READER_TOKEN_MESSAGES.notFound, 404);
  if (!v.is(IdSchema, tokenId)) throw notFound;
  const item = (await slotsOf(userId)).find((candidate) => candidate.id === tokenId);
  if (!item) throw notFound;
  const removed = await committed(
    createWriteTransaction(
      { tokens: ReaderTokenEntity, keys: ReaderTokenKeyEntity },
      ({ tokens, keys }) => [
        tokens
          .delete({ userId, slot: item.slot })
          .where((attr, op) => op.eq(attr.id, tokenId))
          .commit(),
        // Unconditioned: the TTL may have removed an expired token's key already, and the slot's
        // condition decides the pair.
        keys.delete({ tokenHash: item.tokenHash }).commit(),
      ],
    ),
  );
  if (!removed) throw notFound;
  return shown(item);
}

/** Only an active reader who may sign in may use their tokens (ADR 0023's rule for sessions). */
function mayUse(user: Users.User | undefined): user is Users.User {
  return Boolean(user && user.isActive && user.passwordHash && user.role === Auth.ROLES.USER);
}

/**
 * The reader a token opens, while it is live and its reader may sign in; undefined otherwise
 * (malformed, unknown, revoked, expired, a deactivated or deleted reader). One GetItem for the
 * token and one for the reader; the token's `lastUsedAt` is written at most once an hour.
 */
export async function readerOf(
  token: string,
  now = Date.now(),
): Promise<{ reader: TokenReader; tokenId: string } | undefined> {
  if (!TOKEN_SHAPE.test(token)) return undefined;
  const { data: key } = await ReaderTokenKeyEntity.get({ tokenHash: hashOf(token) }).go({
    consistent: true,
  });
  if (!key || key.expiresAt <= seconds(now)) return undefined;
  const user = await Users.byId(key.userId);
  if (!mayUse(user)) return undefined;
  if (!key.lastUsedAt || now - Date.parse(key.lastUsedAt) >= LAST_USED_EVERY_SECONDS * 1000) {
    await markUsed(key, now);
  }
  const { passwordHash: _, ...reader } = user;
  return { reader, tokenId: key.id };
}

/**
 * Writes when the token was last used on both its items, conditioned on the key's `lastUsedAt`
 * as read (of two requests at once, one writes) and on the slot still holding this token (a
 * revoke meanwhile is not undone). A lost race writes nothing and costs the request nothing.
 */
async function markUsed(key: EntityItem<typeof ReaderTokenKeyEntity>, now: number) {
  const lastUsedAt = new Date(now).toISOString();
  await committed(
    createWriteTransaction(
      { tokens: ReaderTokenEntity, keys: ReaderTokenKeyEntity },
      ({ tokens, keys }) => [
        keys
          .patch({ tokenHash: key.tokenHash })
          .set({ lastUsedAt })
          .where((attr, op) =>
            key.lastUsedAt ? op.eq(attr.lastUsedAt, key.lastUsedAt) : op.notExists(attr.lastUsedAt),
          )
          .commit(),
        tokens
          .patch({ userId: key.userId, slot: key.slot })
          .set({ lastUsedAt })
          .where((attr, op) => op.eq(attr.id, key.id))
          .commit(),
      ],
    ),
  );
}
