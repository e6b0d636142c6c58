// A reader's clues changed from their feed (spec: 'user-signup flow' with change_clues or a
// feedback category): the assistant's clues review (cluesToBeAdded / cluesToBeRemoved /
// cluesToRemain) or a feedback chip's clue to add. One conditional write: it is decided from the
// reader's clues as read (their `cluesRevision`), so two changes at once never lose one; the
// unchanged clues keep their ids; the new clue set is then scored and the feed list rebuilt. The
// same write records `clues_changed`.
import { createWriteTransaction } from 'electrodb';
import * as v from 'valibot';
import { ulid } from 'ulid';
import * as Analytics from '#core/analytics';
import { parse, VisibleError } from '#core/common';
import * as RateLimit from '#core/rate-limit';
import { UserEntity } from './entity';
import { readerEvent } from './events';
import { queueScoring } from './queue-scoring';
import { committedOnce } from '#core/db';
import { ClueSchema, mustGet, type User } from './read';
import { MAX_CLUES } from './signup';

/** Each change scores the reader's newest stories again with the model: a few an hour is plenty. */
export const CLUE_CHANGE_LIMIT: RateLimit.Limit = {
  bucket: 'clue-changes',
  max: 20,
  windowSeconds: 3600,
};

export const CLUE_CHANGE_CATEGORIES = [
  'change_clues',
  'negative_feeback_on_article',
  'positive_feeback_on_article',
] as const;

export const CLUE_CHANGE_MESSAGES = {
  nothingToChange: 'Please choose a clue to add or remove',
  tooMany: `You can have at most ${MAX_CLUES} clues`,
  noneLeft: 'Please keep at least one clue',
  busy: 'Your clues changed at the same time somewhere else. Please try again.',
} as const;

const ClueItems = v.optional(
  v.pipe(
    v.array(v.object({ clue: ClueSchema })),
    v.maxLength(MAX_CLUES, CLUE_CHANGE_MESSAGES.tooMany),
  ),
  [],
);

export const ClueChangesInput = v.object({
  category: v.picklist(CLUE_CHANGE_CATEGORIES, 'Unknown feedback category'),
  cluesToBeAdded: ClueItems,
  cluesToBeRemoved: ClueItems,
});

const sameClue = (clue: string) => clue.normalize('NFC').replace(/\s+/g, ' ').trim().toLowerCase();

export type ClueChangeOutcome = { user: User; changed: boolean };

/**
 * Applies a clues review: the clues to remove go, the clues to add come (each once, never one the
 * reader has), every other clue stays with its id. Nothing changed answers `changed: false` and
 * writes nothing.
 */
export async function applyClueChanges(
  userId: string,
  rawInput: v.InferInput<typeof ClueChangesInput>,
): Promise<ClueChangeOutcome> {
  const input = parse(ClueChangesInput, rawInput);
  if (input.cluesToBeAdded.length === 0 && input.cluesToBeRemoved.length === 0) {
    throw new VisibleError('clues.nothing', CLUE_CHANGE_MESSAGES.nothingToChange, 400);
  }
  const user = await mustGet(userId);
  const before = user.descriptors ?? [];
  const removed = new Set(input.cluesToBeRemoved.map((item) => sameClue(item.clue)));
  const kept = before.filter((descriptor) => !removed.has(sameClue(descriptor.clue)));
  const known = new Set(kept.map((descriptor) => sameClue(descriptor.clue)));
  const added = input.cluesToBeAdded.flatMap(({ clue }) => {
    const key = sameClue(clue);
    if (known.has(key)) return [];
    known.add(key);
    return [{ id: ulid(), clue }];
  });
  const descriptors = [...kept, ...added];
  if (descriptors.length === before.length && added.length === 0) return { user, changed: false };
  if (descriptors.length === 0) {
    throw new VisibleError('clues.none_left', CLUE_CHANGE_MESSAGES.noneLeft, 400);
  }
  if (descriptors.length > MAX_CLUES) {
    throw new VisibleError('clues.too_many', CLUE_CHANGE_MESSAGES.tooMany, 400);
  }
  await RateLimit.hit(CLUE_CHANGE_LIMIT, userId);
  const revision = user.cluesRevision ?? 0;
  const at = new Date().toISOString();
  const written = await committedOnce(
    createWriteTransaction(
      { users: UserEntity, event: Analytics.AnalyticsEventEntity },
      ({ users, event }) => [
        users
          .patch({ id: userId })
          .set({ descriptors, cluesRevision: revision + 1, feedRequestedAt: at, updatedAt: at })
          .where((attr, op) =>
            revision === 0
              ? `(${op.notExists(attr.cluesRevision)} OR ${op.eq(attr.cluesRevision, 0)})`
              : op.eq(attr.cluesRevision, revision),
          )
          .commit(),
        event
          .create(
            readerEvent(
              user,
              { name: 'clues_changed', key: `${userId}:${revision + 1}`, path: '/feed' },
              at,
            ),
          )
          .commit(),
      ],
    ),
  );
  if (!written) throw new VisibleError('clues.busy', CLUE_CHANGE_MESSAGES.busy, 409);
  await queueScoring(userId);
  return {
    user: { ...user, descriptors, cluesRevision: revision + 1, feedRequestedAt: at, updatedAt: at },
    changed: true,
  };
}
