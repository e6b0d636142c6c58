// Signup at the end of the get-started funnel: the invitation link's token names the user; the
// verification step checks the e-mail they type against it, and completing the signup stores the
// clues as descriptors and the password, marks them Onboarded and retires the link, in one
// conditional write (ADR 0024).
import { hash } from '@node-rs/argon2';
import { createWriteTransaction } from 'electrodb';
import * as v from 'valibot';
import * as Analytics from '#core/analytics';
import * as Assistant from '#core/assistant';
import { PASSWORD_HASHING } from '#core/auth';
import {
  fn,
  PASSWORD_MESSAGES,
  passwordProblem,
  TrackingSchema,
  VisibleError,
  type Tracking,
} from '#core/common';
import { ulid } from '#core/ids';
import { committedOnce, isConditionFailure } from '#core/db';
import { emailSchema } from '#core/mail';
import { UserEntity } from './entity';
import { readerEvent } from './events';
import { queueScoring } from './queue-scoring';
import { fromInvitation, INVITATION_LINK_INVALID, INVITATION_ONBOARDED } from './invitations';
import { ClueSchema, type User } from './read';

export const MIN_CLUES = 2;
export const MAX_CLUES = 50;

export const SIGNUP_MESSAGES = {
  passwordTooShort: PASSWORD_MESSAGES.tooShort,
  passwordNoNumber: PASSWORD_MESSAGES.noNumber,
  passwordTooLong: PASSWORD_MESSAGES.tooLong,
  passwordsDiffer: PASSWORD_MESSAGES.differ,
  emailRequired: 'Please enter your email',
  emailInvalid: 'Please enter a valid email',
  needInvitation:
    'You need your invitation link to get started. Please open the link in the invitation email we sent you.',
  /** A genuine link that is spent (signup done), replaced by a newer invitation or expired. */
  invitationExpired: INVITATION_LINK_INVALID,
  wrongEmail:
    'This email does not match your invitation. Please use the address the invitation was sent to.',
  tooFewClues: `Please add at least ${MIN_CLUES} clues`,
  noClues: 'Please add at least 1 clue',
  tooManyClues: `At most ${MAX_CLUES} clues`,
  /** Any invitation link of a reader who signed up. */
  alreadyDone: INVITATION_ONBOARDED,
  timeSpentInvalid: 'The time spent is not valid',
  threadNotFound: Assistant.ASSISTANT_MESSAGES.threadNotFound,
} as const;

const TokenSchema = v.pipe(
  v.string(SIGNUP_MESSAGES.needInvitation),
  v.trim(),
  v.nonEmpty(SIGNUP_MESSAGES.needInvitation),
  v.maxLength(500, INVITATION_LINK_INVALID),
);

/** The product's one address rule and spelling, so every address an admin can give a user passes here. */
const EmailSchema = emailSchema({
  required: SIGNUP_MESSAGES.emailRequired,
  invalid: SIGNUP_MESSAGES.emailInvalid,
});

/**
 * The invited user, or the message that they need their invitation link (never who is invited),
 * or, for a reader who signed up, that they sign in.
 */
export async function invitedBy(token: string): Promise<User> {
  try {
    return await fromInvitation(token);
  } catch (error) {
    if (error instanceof VisibleError && error.status !== 409) {
      // Only a link we signed can be spent or expired (410): saying so tells its holder nothing
      // new, while a forged or malformed one gets the same answer as no link at all.
      const [code, message] =
        error.status === 410
          ? ['user.invitation_expired', SIGNUP_MESSAGES.invitationExpired]
          : ['user.need_invitation', SIGNUP_MESSAGES.needInvitation];
      throw new VisibleError(code, message, error.status, { cause: error });
    }
    throw error;
  }
}

export const CheckSignupStatusInput = v.object({
  token: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(500, INVITATION_LINK_INVALID)), ''),
  email: EmailSchema,
  /** The get-started URL's tracking values: the reader's, if this starts their funnel. */
  tracking: v.optional(TrackingSchema, {}),
});

/**
 * The verification step (Welcome's 'Start' sends it too): the e-mail typed must be the invited
 * user's (case-insensitive). Without a valid invitation link the answer is always the same
 * message, so nobody learns who is invited. An Invited (or Initial) user becomes Verified. The
 * first time, this starts the reader's funnel (`funnel_started`), which stores the URL's tracking
 * values on the reader. Opening the link is a GET, which mail scanners make too: it records nothing.
 */
export const checkSignupStatus = fn(
  CheckSignupStatusInput,
  async ({
    token,
    email,
    tracking,
  }): Promise<{ name: string; email: string; status: User['status'] }> => {
    if (!token) throw new VisibleError('user.need_invitation', SIGNUP_MESSAGES.needInvitation, 403);
    const user = await invitedBy(token);
    if (user.email !== email) {
      throw new VisibleError('user.wrong_email', SIGNUP_MESSAGES.wrongEmail, 403);
    }
    if (user.funnelStartedAt === undefined) {
      await startFunnel(user, tracking);
    } else if (user.status !== 'Verified') {
      // Only from the status read: an Onboarded user (a signup meanwhile) is never moved back.
      await UserEntity.patch({ id: user.id })
        .set({ status: 'Verified', updatedAt: new Date().toISOString() })
        .where((attr, op) => op.eq(attr.status, user.status))
        .go()
        .catch((error: unknown) => {
          // Another step moved the status on meanwhile: nothing to do here.
          if (!isConditionFailure(error)) throw error;
        });
    }
    return { name: user.name, email: user.email, status: 'Verified' };
  },
);

/**
 * The reader's first step through the funnel: Verified, `funnelStartedAt`, the tracking values and
 * the event in one transaction, conditioned on the funnel not started and on the status read (a
 * signup meanwhile is never moved back). Refused, the funnel was started meanwhile (two windows).
 */
async function startFunnel(user: User, tracking: Tracking) {
  const at = new Date().toISOString();
  await committedOnce(
    createWriteTransaction(
      { users: UserEntity, event: Analytics.AnalyticsEventEntity },
      ({ users, event }) => [
        users
          .patch({ id: user.id })
          .set({ status: 'Verified', funnelStartedAt: at, ...tracking, updatedAt: at })
          .where(
            (attr, op) =>
              `${op.notExists(attr.funnelStartedAt)} AND ${op.eq(attr.status, user.status)}`,
          )
          .commit(),
        event
          .create(
            readerEvent(
              tracking,
              { name: 'funnel_started', key: user.id, path: '/get-started' },
              at,
            ),
          )
          .commit(),
      ],
    ),
  );
}

export const CompleteSignupInput = v.object({
  token: TokenSchema,
  password: v.pipe(
    v.string(SIGNUP_MESSAGES.passwordTooShort),
    v.check(
      (password) => !passwordProblem(password),
      (issue) => passwordProblem(String(issue.input))!,
    ),
  ),
  /** The form's confirmation; the server checks it too when it is sent. */
  confirmPassword: v.optional(v.string(SIGNUP_MESSAGES.passwordsDiffer)),
  clues: v.pipe(
    v.array(ClueSchema, SIGNUP_MESSAGES.tooFewClues),
    v.transform((clues) => [...new Set(clues)]),
    v.minLength(1, SIGNUP_MESSAGES.noClues),
    v.maxLength(MAX_CLUES, SIGNUP_MESSAGES.tooManyClues),
  ),
  /** The ip variant's interview. */
  threadId: v.optional(
    v.pipe(v.string(), v.regex(/^[0-9A-Z]{26}$/, 'A conversation id is a ULID')),
  ),
  timeSpentMs: v.optional(
    v.pipe(
      v.number(SIGNUP_MESSAGES.timeSpentInvalid),
      v.integer(SIGNUP_MESSAGES.timeSpentInvalid),
      v.minValue(0, SIGNUP_MESSAGES.timeSpentInvalid),
      // A day: anything longer is a tab left open, not time spent.
      v.maxValue(86_400_000, SIGNUP_MESSAGES.timeSpentInvalid),
    ),
  ),
});
export type CompleteSignupInput = v.InferInput<typeof CompleteSignupInput>;

/**
 * Completes the signup: descriptors, password hash, status Onboarded and the invitation retired
 * (its version bumped) in one write conditioned on the version the link carries, so a replayed
 * link or a second submit is refused: the reader has signed up and is asked to sign in. The
 * reader's first signup records `onboarded` in the same write. Then queues the scoring of the
 * newest articles for the new reader.
 */
export const completeSignup = fn(CompleteSignupInput, async (input): Promise<User> => {
  if (input.confirmPassword !== undefined && input.confirmPassword !== input.password) {
    throw new VisibleError('user.passwords_differ', SIGNUP_MESSAGES.passwordsDiffer, 400);
  }
  // Spec §5: two finalized entries before 'Complete your profile'; the interview's confirmation
  // only needs a clue (its 'Complete Profile' is disabled without one), and names its thread.
  if (!input.threadId && input.clues.length < MIN_CLUES) {
    throw new VisibleError('user.too_few_clues', SIGNUP_MESSAGES.tooFewClues, 400);
  }
  const user = await invitedBy(input.token);
  // The thread lowers the clue minimum and is stored with the user: only their own interview.
  if (input.threadId && !(await Assistant.isOnboardingThreadOf(user.id, input.threadId))) {
    throw new VisibleError('user.thread_not_found', SIGNUP_MESSAGES.threadNotFound, 400);
  }
  const passwordHash = await hash(input.password, PASSWORD_HASHING);
  const at = new Date().toISOString();
  const invitationVersion = (user.invitationVersion ?? 0) + 1;
  const descriptors = input.clues.map((clue) => ({ id: ulid(), clue }));
  // Once per reader: a reader an admin set back and invited again keeps their first signup's time.
  const first = user.onboardedAt === undefined;
  const changes = {
    descriptors,
    passwordHash,
    status: 'Onboarded' as const,
    invitationVersion,
    ...(first && { onboardedAt: at }),
    updatedAt: at,
    ...(input.threadId && { onboardingThreadId: input.threadId }),
    ...(input.timeSpentMs !== undefined && { onboardingTimeSpentMs: input.timeSpentMs }),
  };
  const written = await committedOnce(
    createWriteTransaction(
      { users: UserEntity, event: Analytics.AnalyticsEventEntity },
      ({ users, event }) => [
        users
          .patch({ id: user.id })
          .set(changes)
          // The funnel's draft has served its purpose: the clues are the reader's descriptors now.
          .remove(['signupDraft', 'signupDraftRevision'])
          .where(
            (attr, op) =>
              `${op.eq(attr.invitationVersion, user.invitationVersion ?? 0)} AND ${op.eq(attr.isActive, true)} AND ${
                first ? op.notExists(attr.onboardedAt) : op.exists(attr.onboardedAt)
              }`,
          )
          .commit(),
        ...(first
          ? [
              event
                .create(
                  readerEvent(user, { name: 'onboarded', key: user.id, path: '/get-started' }, at),
                )
                .commit(),
            ]
          : []),
      ],
    ),
  );
  if (!written) {
    // The link changed meanwhile: a signup at the same moment (409, sign in) or a new invitation.
    await invitedBy(input.token);
    throw new VisibleError('user.invitation_expired', SIGNUP_MESSAGES.invitationExpired, 410);
  }
  await queueScoring(user.id);
  return { ...user, ...changes };
});
