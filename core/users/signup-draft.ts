// The get-started funnel's draft: what a reader has built so far (their entries, their interview,
// the clues they confirmed, the step they were at), kept on their user item against their current
// invitation, so a reload, Back, or the invitation link opened again finds it (ADR 0024). Only that
// invitation's signed link reads or writes it; every write is conditioned on the invitation still
// being open and on the draft's revision the page last saw; a new invitation and the signup remove it.
import * as v from 'valibot';
import { RANKS } from '#core/ai';
import { fn, isReadable, TEXT_MESSAGES, VisibleError } from '#core/common';
import { isConditionFailure } from '#core/db';
import { UserEntity } from './entity';
import { ClueSchema, type User } from './read';
import { invitedBy, MAX_CLUES, SIGNUP_MESSAGES } from './signup';

/** The steps a draft can resume at: everything after Welcome and before the signup. */
export const DRAFT_STEPS = [
  'starters',
  'pointer',
  'descriptor',
  'chat',
  'clues',
  'review',
] as const;

/** A draft's JSON is at most this long: a user item stays far below DynamoDB's 400 KB. */
export const MAX_DRAFT_CHARS = 48_000;

export const DRAFT_MESSAGES = {
  invalid: 'Your progress could not be saved: it is not valid. Please reload the page.',
  tooLarge: 'Your progress could not be saved: it is too large. Please remove a few entries.',
  changed:
    'Your profile was changed in another window. Please reload the page to continue from there.',
} as const;

/**
 * Text as the reader is typing it: kept as typed (not trimmed, so a draft returns to the very
 * same field), but in NFC and refused when it holds characters nobody types, like every stored text.
 */
const Text = (max: number) =>
  v.pipe(
    v.string(DRAFT_MESSAGES.invalid),
    v.normalize('NFC'),
    v.check((text) => isReadable(text), TEXT_MESSAGES.unreadable),
    v.maxLength(max),
  );

const EntryFields = {
  id: v.pipe(v.string(), v.regex(/^[\w-]{1,64}$/)),
  /** The descriptor typed after the starter and pointer. */
  name: Text(300),
  starterId: Text(100),
  /** The pointer chosen ('Add your own' has no name); absent before one is chosen. */
  pointer: v.optional(v.object({ name: v.optional(Text(200)) })),
  score: v.optional(Text(300)),
  rank: v.picklist(RANKS),
  suggestions: v.pipe(v.array(Text(300)), v.maxLength(10)),
  finalized: v.boolean(),
  isEditMode: v.boolean(),
  /** The name last evaluated: the score belongs to it. */
  submitted: v.optional(Text(300)),
};

export const DraftStateSchema = v.object({
  variant: v.picklist(['', 'sp', 'ip']),
  step: v.picklist(DRAFT_STEPS),
  entries: v.pipe(
    v.array(
      v.object({ ...EntryFields, before: v.optional(v.object(EntryFields)) }),
      DRAFT_MESSAGES.invalid,
    ),
    v.maxLength(MAX_CLUES + 1, SIGNUP_MESSAGES.tooManyClues),
  ),
  currentId: v.optional(EntryFields.id),
  /** The ip variant's interview and when it began (the signup records the time spent). */
  threadId: v.optional(v.pipe(v.string(), v.regex(/^[0-9A-Z]{26}$/))),
  startedAt: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  /** The ip variant's confirmation: the interview's clues as the reader edited them. */
  review: v.optional(
    v.object({
      clues: v.pipe(v.array(ClueSchema), v.maxLength(MAX_CLUES, SIGNUP_MESSAGES.tooManyClues)),
      suggestion: Text(500),
    }),
  ),
});
export type DraftState = v.InferOutput<typeof DraftStateSchema>;
export type Draft = { revision: number; state: DraftState };

/** The draft a user item carries, if it is one this code can read (else: none). */
function draftOn(user: User): Draft | undefined {
  if (!user.signupDraft) return undefined;
  try {
    const state = v.safeParse(DraftStateSchema, JSON.parse(user.signupDraft));
    return state.success
      ? { revision: user.signupDraftRevision ?? 0, state: state.output }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The reader an invitation link names, with their funnel draft. Refused exactly as the
 * verification step refuses the link (403, 410, or 409 for a reader who signed up).
 */
export async function openInvitation(token: string): Promise<{ user: User; draft?: Draft }> {
  const user = await invitedBy(token);
  return { user, draft: draftOn(user) };
}

export const SaveDraftInput = v.object({
  token: v.pipe(v.string(SIGNUP_MESSAGES.needInvitation), v.maxLength(500)),
  /** The revision the page last read or saved (0: none yet). */
  revision: v.pipe(v.number(DRAFT_MESSAGES.invalid), v.integer(), v.minValue(0)),
  // A shape no page of ours sends gets one plain message; a clue the reader typed, its own.
  state: v.message(DraftStateSchema, DRAFT_MESSAGES.invalid),
});

/**
 * Stores the reader's draft, only while their invitation is open (the link's version, active, not
 * signed up) and only over the revision the page last saw: of two windows saving at once, one is
 * told to reload instead of silently undoing the other. Answers the new revision.
 */
export const saveDraft = fn(SaveDraftInput, async ({ token, revision, state }) => {
  const json = JSON.stringify(state);
  if (json.length > MAX_DRAFT_CHARS) {
    throw new VisibleError('user.draft_too_large', DRAFT_MESSAGES.tooLarge, 413);
  }
  const user = await invitedBy(token);
  const written = await UserEntity.patch({ id: user.id })
    .set({ signupDraft: json, signupDraftRevision: revision + 1 })
    .where(
      (attr, op) =>
        `${op.eq(attr.invitationVersion, user.invitationVersion ?? 0)} AND ${op.eq(attr.isActive, true)} AND ${op.ne(attr.status, 'Onboarded')} AND ${
          revision === 0
            ? op.notExists(attr.signupDraftRevision)
            : op.eq(attr.signupDraftRevision, revision)
        }`,
    )
    .go()
    .then(
      () => true,
      (error: unknown) => {
        if (isConditionFailure(error)) return false;
        throw error;
      },
    );
  if (!written) {
    // The invitation closed meanwhile (a signup: sign in; a new invitation: not valid), or
    // another window saved first.
    await invitedBy(token);
    throw new VisibleError('user.draft_changed', DRAFT_MESSAGES.changed, 409);
  }
  return { revision: revision + 1 };
});
