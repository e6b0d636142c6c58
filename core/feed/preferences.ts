// What the reader does not want, changed from their feed (ADR 0045): "stop showing me X" and "less
// about Y" from the assistant's clues review, and a chip's removal. They are stored with the clues
// (Users.applyClueChanges, under the clues' revision); a change of them alone is not scored again
// (scores are kept by clue set: ADR 0033), it only reorders the list, so the list's build is
// queued here, as a feedback's is. A review from the assistant's panel and a chip's clue are
// applied here too, each the one operation its form's action calls.
import * as v from 'valibot';
import * as Assistant from '#core/assistant';
import { parse } from '#core/common';
import * as Users from '#core/users';
import { withdrawFeedback } from './feedback';
import { requestBuild } from './job';

export const PREFERENCE_MESSAGES = {
  muteRequired: 'Please choose what to show again',
} as const;

/** Applies a clues review with its mutes; a change of mutes alone rebuilds the list at once. */
export async function changePreferences(
  userId: string,
  input: v.InferInput<typeof Users.ClueChangesInput>,
): Promise<Users.ClueChangeOutcome> {
  const outcome = await Users.applyClueChanges(userId, input);
  if (outcome.changed && !outcome.cluesChanged) await requestBuild(userId);
  return outcome;
}

/**
 * 'Apply these changes': the clues review the reader's panel conversation ends with (a 409 when it
 * ends with none), applied with its mutes. Answers the conversation's category, for its banner.
 */
export async function applyReview(
  userId: string,
  threadId: string,
): Promise<{ category: Assistant.FeedCategory; changed: boolean }> {
  const { category, review } = await Assistant.feedReview(userId, threadId);
  const { changed } = await changePreferences(userId, {
    category,
    cluesToBeAdded: review.cluesToBeAdded ?? [],
    cluesToBeRemoved: review.cluesToBeRemoved ?? [],
    mutesToBeAdded: review.mutesToBeAdded ?? [],
    mutesToBeRemoved: review.mutesToBeRemoved ?? [],
  });
  return { category, changed };
}

/** A chip's clue, offered by a like's (or dislike's) answer, added to the reader's clues. */
export async function addStoryClue(
  userId: string,
  { kind, clue }: { kind: string; clue: string },
): Promise<{ changed: boolean }> {
  const { changed } = await Users.applyClueChanges(userId, {
    category: kind === 'like' ? 'positive_feeback_on_article' : 'negative_feeback_on_article',
    cluesToBeAdded: [{ clue }],
  });
  return { changed };
}

export const UnmuteInput = v.object({
  muteId: v.pipe(
    v.string(PREFERENCE_MESSAGES.muteRequired),
    v.regex(/^[0-9A-Z]{26}$/, PREFERENCE_MESSAGES.muteRequired),
  ),
});

/**
 * Removes one of the reader's mutes (a chip's ×). A dislike's is the dislike itself, so removing
 * it withdraws the dislike. One already gone (a double click, another tab) changes nothing.
 */
export async function unmute(
  userId: string,
  rawInput: v.InferInput<typeof UnmuteInput>,
): Promise<{ changed: boolean }> {
  const { muteId } = parse(UnmuteInput, rawInput);
  const reader = await Users.mustGet(userId);
  const mute = (reader.mutes ?? []).find((item) => item.id === muteId);
  if (!mute) return { changed: false };
  if (mute.from === 'dislike' && mute.articleId) {
    return withdrawFeedback(userId, { articleId: mute.articleId, kind: 'dislike' });
  }
  const { changed } = await changePreferences(userId, {
    category: 'change_clues',
    mutesToBeRemoved: [{ mute: mute.mute }],
  });
  return { changed };
}
