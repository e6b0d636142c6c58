// What the assistant may propose, a reader's clue change can store: a review never fails to apply
// for a mute too long or too many.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import * as Assistant from '#core/assistant';
import { ClueChangesInput, MAX_MUTES } from './clue-changes';

describe("the assistant's mutes and a reader's", () => {
  it('have the same limits, so every review the assistant proposes can be applied', () => {
    expect(Assistant.ASSISTANT_LIMITS.mutes).toBe(MAX_MUTES);
    const longest = 'a'.repeat(Assistant.ASSISTANT_LIMITS.muteLength);
    const most = Array.from({ length: Assistant.ASSISTANT_LIMITS.mutes }, (_, i) => ({
      mute: `${longest.slice(0, -3)}${String(i).padStart(3, '0')}`,
    }));
    expect(
      v.safeParse(ClueChangesInput, { category: 'change_clues', mutesToBeAdded: most }).success,
    ).toBe(true);
  });
});
