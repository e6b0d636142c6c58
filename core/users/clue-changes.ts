// A reader's clues changed from their feed (spec: 'user-signup flow' with change_clues or a
// feedback category): the assistant's clues review (cluesToBeAdded / cluesToBeRemoved /
// cluesToRemain, and what the reader does not want: mutesToBeAdded / mutesToBeRemoved, ADR 0045)
// or a feedback chip's clue to add. One conditional write: it is decided from the reader's clues
// and mutes as read (their `cluesRevision`), so two changes at once never lose one; the unchanged
// clues keep their ids; a new clue set is then scored and the feed list rebuilt. The same write
// records `clues_changed`.
import { createWriteTransaction } from 'electrodb';
import * as v from 'valibot';
import * as Analytics from '#core/analytics';
import { freeText, parse, VisibleError } from '#core/common';
import { ulid } from '#core/ids';
import * as RateLimit from '#core/rate-limit';
import { UserEntity } from './entity';
import { readerEvent } from './events';
import { queueScoring } from './queue-scoring';
import { committedOnce, getTogether } from '#core/db';
import { ClueSchema, NOT_FOUND_MESSAGE, userRead, type Mute, type User } from './read';
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

/** Most "stop showing me" and "less about" requests a reader keeps. */
export const MAX_MUTES = 20;
/** Most dislikes kept as preferences (the newest); an older dislike still sinks its own story. */
export const MAX_DISLIKE_MUTES = 10;
export const MUTE_KINDS = ['mute', 'less'] as const;
export type MuteKind = (typeof MUTE_KINDS)[number];

export const CLUE_CHANGE_MESSAGES = {
  nothingToChange: 'Please choose a clue to add or remove',
  tooMany: `You can have at most ${MAX_CLUES} clues`,
  noneLeft: 'Please keep at least one clue',
  busy: 'Your clues changed at the same time somewhere else. Please try again.',
  tooManyMutes: `You can ask us to leave out at most ${MAX_MUTES} things`,
  muteEmpty: 'Please say what you do not want to see',
  muteTooLong: 'What you do not want to see has at most 100 characters',
  muteKind: 'Please choose to stop showing or to show less',
} as const;

const MuteText = v.pipe(
  freeText({
    max: 100,
    tooLong: CLUE_CHANGE_MESSAGES.muteTooLong,
    missing: CLUE_CHANGE_MESSAGES.muteEmpty,
  }),
  v.nonEmpty(CLUE_CHANGE_MESSAGES.muteEmpty),
);

const MuteItems = <T extends v.ObjectEntries>(entries: T) =>
  v.optional(
    v.pipe(v.array(v.object(entries)), v.maxLength(MAX_MUTES, CLUE_CHANGE_MESSAGES.tooManyMutes)),
    [],
  );

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
  /** "Stop showing me X" (`mute`, the default) or "less about Y" (`less`). */
  mutesToBeAdded: MuteItems({
    mute: MuteText,
    kind: v.optional(v.picklist(MUTE_KINDS, CLUE_CHANGE_MESSAGES.muteKind), 'mute'),
  }),
  mutesToBeRemoved: MuteItems({ mute: MuteText }),
});

const sameClue = (clue: string) => clue.normalize('NFC').replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * `changed`: something was written; `cluesChanged`: the clue set moved, so it is being scored. A
 * change of mutes alone only reorders the list: its caller queues the build (Feed.changePreferences).
 */
export type ClueChangeOutcome = { user: User; changed: boolean; cluesChanged: boolean };

type UserCondition = Parameters<ReturnType<ReturnType<typeof UserEntity.patch>['set']>['where']>[0];

/** The condition every change of clues or mutes is written under: the revision it was read at. */
export const atRevision =
  (revision: number): UserCondition =>
  (attr, op) =>
    revision === 0
      ? `(${op.notExists(attr.cluesRevision)} OR ${op.eq(attr.cluesRevision, 0)})`
      : op.eq(attr.cluesRevision, revision);

/** The reader's requests after adding and removing these (a phrase once; a new kind replaces). */
function requestsAfter(
  before: Mute[],
  added: { mute: string; kind: MuteKind }[],
  removed: { mute: string }[],
  at: string,
): Mute[] {
  const gone = new Set(removed.map((item) => sameClue(item.mute)));
  const next = before.filter((mute) => mute.from !== 'request' || !gone.has(sameClue(mute.mute)));
  for (const { mute, kind } of added) {
    const same = next.findIndex(
      (item) => item.from === 'request' && sameClue(item.mute) === sameClue(mute),
    );
    if (same < 0) next.push({ id: ulid(), mute, kind, from: 'request', createdAt: at });
    else if (next[same]!.kind !== kind) next[same] = { ...next[same]!, kind };
  }
  return next;
}

const sameMutes = (a: Mute[], b: Mute[]) =>
  a.length === b.length && a.every((mute, i) => mute.id === b[i]!.id && mute.kind === b[i]!.kind);

/**
 * The mutes after a dislike of this story: it is named once, the newest MAX_DISLIKE_MUTES
 * dislikes are kept. Written by the feedback in the same conditioned write (core/feed).
 */
export function mutesWithDislike(
  user: Pick<User, 'mutes'>,
  story: { articleId: string; title: string },
  at: string,
): Mute[] {
  const others = (user.mutes ?? []).filter((mute) => mute.articleId !== story.articleId);
  const dislikes = others.filter((mute) => mute.from === 'dislike');
  const dropped = new Set(
    dislikes.slice(0, Math.max(0, dislikes.length + 1 - MAX_DISLIKE_MUTES)).map((m) => m.id),
  );
  const mute = story.title.replace(/\s+/g, ' ').trim().slice(0, 100);
  return [
    ...others.filter((item) => !dropped.has(item.id)),
    { id: ulid(), mute, kind: 'less', from: 'dislike', articleId: story.articleId, createdAt: at },
  ];
}

/** The mutes without this story's dislike (a dislike withdrawn or turned into a like). */
export const mutesWithoutDislike = (user: Pick<User, 'mutes'>, articleId: string): Mute[] =>
  (user.mutes ?? []).filter((mute) => !(mute.from === 'dislike' && mute.articleId === articleId));

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
  const asked =
    input.cluesToBeAdded.length +
    input.cluesToBeRemoved.length +
    input.mutesToBeAdded.length +
    input.mutesToBeRemoved.length;
  if (asked === 0) {
    throw new VisibleError('clues.nothing', CLUE_CHANGE_MESSAGES.nothingToChange, 400);
  }
  // The reader and their rate limit's windows in one read; the count goes in the change's write.
  const [user, windows] = await getTogether(
    userRead(userId),
    RateLimit.windowsRead(CLUE_CHANGE_LIMIT, userId),
  );
  if (!user) throw new VisibleError('user.not_found', NOT_FOUND_MESSAGE, 404);
  const at = new Date().toISOString();
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
  const cluesChanged = descriptors.length !== before.length || added.length > 0;
  const mutesBefore = user.mutes ?? [];
  const mutes = requestsAfter(mutesBefore, input.mutesToBeAdded, input.mutesToBeRemoved, at);
  const mutesChanged = !sameMutes(mutesBefore, mutes);
  if (!cluesChanged && !mutesChanged) return { user, changed: false, cluesChanged: false };
  if (descriptors.length === 0) {
    throw new VisibleError('clues.none_left', CLUE_CHANGE_MESSAGES.noneLeft, 400);
  }
  if (descriptors.length > MAX_CLUES) {
    throw new VisibleError('clues.too_many', CLUE_CHANGE_MESSAGES.tooMany, 400);
  }
  if (mutes.filter((mute) => mute.from === 'request').length > MAX_MUTES) {
    throw new VisibleError('clues.too_many_mutes', CLUE_CHANGE_MESSAGES.tooManyMutes, 400);
  }
  const counted = RateLimit.countIn(CLUE_CHANGE_LIMIT, userId, windows);
  const revision = user.cluesRevision ?? 0;
  const changes = {
    ...(cluesChanged ? { descriptors } : {}),
    ...(mutesChanged ? { mutes } : {}),
    cluesRevision: revision + 1,
    feedRequestedAt: at,
    updatedAt: at,
  };
  const written = await committedOnce(
    createWriteTransaction(
      {
        users: UserEntity,
        event: Analytics.AnalyticsEventEntity,
        rate: RateLimit.RateLimitWindowEntity,
      },
      ({ users, event, rate }) => [
        counted(rate),
        users.patch({ id: userId }).set(changes).where(atRevision(revision)).commit(),
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
  if (cluesChanged) await queueScoring(userId);
  return { user: { ...user, ...changes }, changed: true, cluesChanged };
}
