// Users: invited readers with accounts. Admins add, edit, list, search and invite them; the
// get-started funnel finds them by their invitation link and stores their descriptors.
import { createWriteTransaction } from 'electrodb';
import * as v from 'valibot';
import { ROLES } from '#core/auth';
import { fn, freeText, parse, VisibleError } from '#core/common';
import { ulid } from '#core/ids';
import { committed } from '#core/db';
import { emailSchema } from '#core/mail';
import { UserEntity, USER_STATUSES } from './entity';
import { queueScoring } from './queue-scoring';
import { UserEmailEntity } from './user-email-entity';
import { searchEntry, UserSearchTermEntity } from './user-search-term-entity';
import { isFirstMatch, normaliseTerm, searchTerms } from './terms';
import {
  byId,
  ClueSchema,
  IdSchema,
  mustGet,
  NOT_FOUND_MESSAGE,
  type Mute,
  type User,
} from './read';

export { UserEntity, UserEmailEntity, UserSearchTermEntity, USER_STATUSES };
export {
  invite,
  fromInvitation,
  invitationLink,
  invitationTemplate,
  previewInvitation,
  INVITATION_MESSAGES,
  sanitiseInvitationBody,
  InviteInput,
  INVITATION_LINK_INVALID,
  INVITATION_ONBOARDED,
  INVITATION_TTL_SECONDS,
  INVITATIONS_PER_ADMIN,
} from './invitations';
export { byId, ClueSchema, mustGet, type Mute, type User };
export type UserStatus = (typeof USER_STATUSES)[number];
export type Descriptor = { id: string; clue: string };

export const PAGE_SIZE = 10;
export const USER_MESSAGES = {
  nameRequired: 'Please add a name',
  nameTooLong: 'A name has at most 100 characters',
  emailRequired: 'Please add an email',
  emailInvalid: 'Please add a valid email',
  emailTaken: 'A user with this email already exists',
  notFound: NOT_FOUND_MESSAGE,
  badCursor: 'This page link is not valid. Please start from the first page.',
} as const;

const NameSchema = v.pipe(
  freeText({ max: 100, tooLong: USER_MESSAGES.nameTooLong, missing: USER_MESSAGES.nameRequired }),
  v.nonEmpty(USER_MESSAGES.nameRequired),
);
const UserEmailSchema = emailSchema({
  required: USER_MESSAGES.emailRequired,
  invalid: USER_MESSAGES.emailInvalid,
});
const StatusSchema = v.picklist(USER_STATUSES, 'Please choose a status');

const now = () => new Date().toISOString();
const emailTaken = () => new VisibleError('user.email_taken', USER_MESSAGES.emailTaken, 409);
const changedMeanwhile = () =>
  new VisibleError('user.changed', 'This user just changed. Please try again.', 409);

export async function byEmail(email: string): Promise<User | undefined> {
  const parsed = v.safeParse(UserEmailSchema, email);
  if (!parsed.success) return undefined;
  const { data } = await UserEmailEntity.get({ email: parsed.output }).go({ consistent: true });
  return data ? byId(data.userId) : undefined;
}

const termItems = (user: Pick<User, 'id' | 'name' | 'email'>) => {
  const terms = searchTerms(user);
  return terms.map((term) => ({ term, userId: user.id, entry: searchEntry(term, user.id), terms }));
};

export const CreateUserInput = v.object({
  name: NameSchema,
  email: UserEmailSchema,
  isActive: v.optional(v.boolean(), true),
  status: v.optional(StatusSchema, 'Initial'),
});

/** A new user with a unique e-mail address (its claim and search terms in the same write). */
export const create = fn(CreateUserInput, async (input): Promise<User> => {
  if (await byEmail(input.email)) throw emailTaken();
  const at = now();
  const user: User = {
    id: ulid(),
    name: input.name,
    email: input.email,
    status: input.status,
    isActive: input.isActive,
    role: ROLES.USER,
    descriptors: [],
    invitationVersion: 0,
    cluesRevision: 0,
    showImages: true,
    createdAt: at,
    updatedAt: at,
  };
  const created = await committed(
    createWriteTransaction(
      { users: UserEntity, claims: UserEmailEntity, terms: UserSearchTermEntity },
      ({ users, claims, terms }) => [
        users.create(user).commit(),
        claims.create({ email: user.email, userId: user.id }).commit(),
        ...termItems(user).map((item) => terms.put(item).commit()),
      ],
    ),
  );
  // The only condition that can fail for a fresh id is the address claimed meanwhile.
  if (!created) throw emailTaken();
  return user;
});

export const UpdateUserInput = v.object({
  name: v.optional(NameSchema),
  isActive: v.optional(v.boolean()),
  status: v.optional(StatusSchema),
});

/**
 * Changes a user's name, status or active flag (the spec's form restricts no status change); the
 * e-mail address is not editable. A rename rewrites the search terms in the same write, so the
 * old name no longer finds the user.
 */
export async function update(
  id: string,
  changes: v.InferInput<typeof UpdateUserInput>,
): Promise<User> {
  const input = parse(UpdateUserInput, changes);
  const user = await mustGet(id);
  const next: User = {
    ...user,
    ...(input.name !== undefined && { name: input.name }),
    ...(input.isActive !== undefined && { isActive: input.isActive }),
    ...(input.status !== undefined && { status: input.status }),
    updatedAt: now(),
  };
  const oldTerms = termItems(user);
  const newTerms = termItems(next);
  const kept = new Set(newTerms.map((item) => item.entry));
  const updated = await committed(
    createWriteTransaction(
      { users: UserEntity, terms: UserSearchTermEntity },
      ({ users, terms }) => [
        users
          .patch({ id })
          .set({
            name: next.name,
            isActive: next.isActive,
            status: next.status,
            updatedAt: next.updatedAt,
          })
          // The terms below were derived from this name: a rename meanwhile must not be undone.
          .where((attr, op) => op.eq(attr.name, user.name))
          .commit(),
        ...oldTerms
          .filter((item) => !kept.has(item.entry))
          .map((item) => terms.delete({ entry: item.entry }).commit()),
        ...newTerms.map((item) => terms.put(item).commit()),
      ],
    ),
  );
  if (!updated) throw changedMeanwhile();
  return next;
}

type Position = { createdAt: string; id: string };

function encodeCursor(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function decodeCursor<S extends v.GenericSchema>(schema: S, cursor: string): v.InferOutput<S> {
  try {
    return v.parse(schema, JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch {
    throw new VisibleError('user.bad_cursor', USER_MESSAGES.badCursor, 400);
  }
}

const PositionSchema = v.object({
  createdAt: v.pipe(v.string(), v.isoTimestamp()),
  id: IdSchema,
});
const CursorSchema = v.optional(v.pipe(v.string(), v.maxLength(500)));

export type UserPage = {
  users: User[];
  /** The next (older) page, when there is one. */
  next?: string;
  /** The previous (newer) page, when there is one (listing only). */
  previous?: string;
};

export const ListInput = v.object({
  /** `after:{…}` for older users than a page's last, `before:{…}` for newer than its first. */
  cursor: CursorSchema,
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50)), PAGE_SIZE),
});

/** A page of users, newest first; cursors lead to the older and newer pages. */
export const list = fn(ListInput, async ({ cursor, limit }): Promise<UserPage> => {
  const [direction, encoded] = cursor ? splitCursor(cursor) : ['after', undefined];
  const from: Position | undefined = encoded ? decodeCursor(PositionSchema, encoded) : undefined;
  const position = (user: User): string => encodeCursor({ createdAt: user.createdAt, id: user.id });
  if (direction === 'before' && from) {
    // Newer than the page's first user: read upwards, then show newest first.
    const { data } = await UserEntity.query
      .newest({})
      .gt(from)
      .go({ order: 'asc', limit: limit + 1 });
    const users = data.slice(0, limit).reverse();
    return {
      users,
      next: users.length ? `after:${position(users.at(-1)!)}` : undefined,
      previous: data.length > limit ? `before:${position(users[0]!)}` : undefined,
    };
  }
  const query = from ? UserEntity.query.newest({}).lt(from) : UserEntity.query.newest({});
  const { data } = await query.go({ order: 'desc', limit: limit + 1 });
  const users = data.slice(0, limit);
  return {
    users,
    next: data.length > limit ? `after:${position(users.at(-1)!)}` : undefined,
    previous: from && users.length ? `before:${position(users[0]!)}` : undefined,
  };
});

function splitCursor(cursor: string): ['after' | 'before', string] {
  const match = /^(after|before):(.+)$/.exec(cursor);
  if (!match) throw new VisibleError('user.bad_cursor', USER_MESSAGES.badCursor, 400);
  return [match[1] as 'after' | 'before', match[2]!];
}

/** Term items read per query while collecting a page of distinct users. */
const SEARCH_READ = 50;
/** The highest code point: `{prefix}{MAX}` sorts after every term that starts with the prefix. */
const MAX_CHAR = String.fromCodePoint(0x10ffff);

export const SearchInput = v.object({
  query: v.pipe(v.string(), v.maxLength(254, 'A search has at most 254 characters')),
  cursor: CursorSchema,
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50)), PAGE_SIZE),
});

/**
 * Users whose e-mail, full name or a name word starts with the query (case-insensitive), each
 * once, in the order of the term that matched. A range query on the search terms, never a scan.
 */
export const search = fn(SearchInput, async ({ query, cursor, limit }): Promise<UserPage> => {
  const prefix = normaliseTerm(query);
  if (!prefix) return list({ limit });
  const after = cursor ? decodeCursor(v.object({ entry: v.string() }), cursor).entry : undefined;
  if (after !== undefined && !after.startsWith(prefix)) {
    throw new VisibleError('user.bad_cursor', USER_MESSAGES.badCursor, 400);
  }
  const found: { entry: string; userId: string }[] = [];
  let page: string | null | undefined;
  do {
    const result = await UserSearchTermEntity.query
      .byTerm({})
      .between({ entry: after ?? prefix }, { entry: `${prefix}${MAX_CHAR}` })
      .go({ limit: SEARCH_READ, cursor: page });
    for (const item of result.data) {
      if (item.entry === after || !isFirstMatch(item.term, item.terms, prefix)) continue;
      found.push(item);
      if (found.length > limit) break;
    }
    page = found.length > limit ? null : result.cursor;
  } while (page);
  const shown = found.slice(0, limit);
  const users = await byIds(shown.map((item) => item.userId));
  return {
    users,
    next: found.length > limit ? encodeCursor({ entry: shown.at(-1)!.entry }) : undefined,
  };
});

/** Users by id, in the order given (missing ones left out). */
async function byIds(ids: string[]): Promise<User[]> {
  if (ids.length === 0) return [];
  const { data } = await UserEntity.get(ids.map((id) => ({ id }))).go({ consistent: true });
  const found = new Map(data.map((user) => [user.id, user]));
  return ids.flatMap((id) => found.get(id) ?? []);
}

const CluesSchema = v.pipe(v.array(ClueSchema), v.maxLength(50, 'At most 50 clues'));

/**
 * Replaces the user's descriptors with these clues, each with a new id, and queues the scoring of
 * the new clue set (its pairs are new: ADR 0033).
 */
export async function setDescriptors(id: string, clues: string[]): Promise<User> {
  const parsed = parse(CluesSchema, clues);
  const user = await mustGet(id);
  const descriptors: Descriptor[] = parsed.map((clue) => ({ id: ulid(), clue }));
  const updatedAt = now();
  await UserEntity.patch({ id }).set({ descriptors, updatedAt }).add({ cluesRevision: 1 }).go();
  await queueScoring(id);
  return { ...user, descriptors, updatedAt };
}
export { UserSessionEntity } from './user-session-entity';
export { markFeedReady } from './feed-ready';
export { recordFeedVisit, type FeedVisitor } from './feed-visits';
export { readerEvent, trackingOf } from './events';
export {
  applyClueChanges,
  atRevision,
  mutesWithDislike,
  mutesWithoutDislike,
  ClueChangesInput,
  CLUE_CHANGE_CATEGORIES,
  CLUE_CHANGE_LIMIT,
  CLUE_CHANGE_MESSAGES,
  MAX_DISLIKE_MUTES,
  MAX_MUTES,
  MUTE_KINDS,
  type ClueChangeOutcome,
  type MuteKind,
} from './clue-changes';
export {
  signIn,
  sessionUser,
  signOut,
  SignInInput,
  type SessionUser,
  USER_LOGIN_INVALID,
  USER_LOGIN_THROTTLED,
  USER_LOGIN_LIMIT_PER_IP,
  USER_LOGIN_LIMIT_PER_LOGIN,
  USER_LOGIN_LIMIT_PER_DEVICE,
  USER_SESSION_TTL_SECONDS,
  USER_SESSION_MAX_SECONDS,
  USER_SESSION_RENEW_AFTER_SECONDS,
  USER_SESSION_REPLACED_GRACE_SECONDS,
} from './sessions';
export {
  DRAFT_MESSAGES,
  DRAFT_STEPS,
  DraftStateSchema,
  MAX_DRAFT_CHARS,
  openInvitation,
  saveDraft,
  SaveDraftInput,
  type Draft,
  type DraftState,
} from './signup-draft';
export {
  checkSignupStatus,
  completeSignup,
  CheckSignupStatusInput,
  CompleteSignupInput,
  MAX_CLUES,
  MIN_CLUES,
  SIGNUP_MESSAGES,
} from './signup';
export {
  passwordProblem,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MESSAGES,
  PASSWORD_MIN_LENGTH,
} from '#core/common';
export { userRead } from './read';
