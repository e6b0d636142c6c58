import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import * as Assistant from '#core/assistant';
import * as Feed from '#core/feed';
import * as Users from '#core/users';
import { eventNamesNaming } from '#tests/integration/business-events';

/** A reader with these clues who asked not to see Solana, as their feed leaves them. */
async function reader(clues: string[]) {
  const user = await Users.create({
    name: 'Reader',
    email: `reader-${ulid().toLowerCase()}@example.com`,
    status: 'Onboarded',
  });
  await Users.UserEntity.patch({ id: user.id })
    .set({ descriptors: clues.map((clue) => ({ id: ulid(), clue })) })
    .go();
  await Feed.changePreferences(user.id, {
    category: 'change_clues',
    mutesToBeAdded: [{ mute: 'Solana' }],
  });
  return (await Users.byId(user.id))!;
}

/** The reader's panel conversation, ended by the assistant's review of what they said. */
async function reviewed(user: Users.User, message: string) {
  const { threadId } = await Assistant.openFeedChat(user);
  await Assistant.sendFeedMessage({ userId: user.id, threadId, message });
  await Assistant.reviewFeedChat(user, threadId);
  return threadId;
}

const cluesOf = async (id: string) =>
  ((await Users.byId(id))!.descriptors ?? []).map((descriptor) => descriptor.clue);
const mutesOf = async (id: string) => ((await Users.byId(id))!.mutes ?? []).map((m) => m.mute);

async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    const { message, status } = error as { message: string; status?: number };
    return { message, status };
  }
  throw new Error('expected a refusal');
}

describe("applying the assistant's review ('Apply these changes')", () => {
  it('applies the clues and mutes the conversation ended with, once', async () => {
    const user = await reader(['I research MEV']);
    const threadId = await reviewed(
      user,
      'Add MEV and liquidation bots please. Show me Solana again.',
    );
    expect(await Feed.applyReview(user.id, threadId)).toEqual({
      category: 'change_clues',
      changed: true,
    });
    expect(await cluesOf(user.id)).toEqual(['I research MEV', 'I follow MEV and liquidation bots']);
    expect(await mutesOf(user.id)).toEqual([]);
    // The same review again (a reload, a second click) finds nothing left to change.
    expect(await Feed.applyReview(user.id, threadId)).toEqual({
      category: 'change_clues',
      changed: false,
    });
  });

  it("refuses a conversation with no review yet (409) and another reader's (404), changing nothing", async () => {
    const [ada, bob] = await Promise.all([reader(['I research MEV']), reader(['I collect art'])]);
    const { threadId: unreviewed } = await Assistant.openFeedChat(ada);
    expect(await refusal(Feed.applyReview(ada.id, unreviewed))).toEqual({
      message: Assistant.FEED_CHAT_MESSAGES.noReview,
      status: 409,
    });
    const bobs = await reviewed(bob, 'Remove all my clues. Add DAO tooling.');
    expect(await refusal(Feed.applyReview(ada.id, bobs))).toEqual({
      message: Assistant.ASSISTANT_MESSAGES.threadNotFound,
      status: 404,
    });
    expect(await cluesOf(ada.id)).toEqual(['I research MEV']);
    expect(await cluesOf(bob.id)).toEqual(['I collect art']);
  });

  it('of the same review twice at the same moment adds its clue once and records one change', async () => {
    const user = await reader(['I research MEV']);
    const threadId = await reviewed(user, 'Add MEV and liquidation bots please');
    const results = await Promise.allSettled([
      Feed.applyReview(user.id, threadId),
      Feed.applyReview(user.id, threadId),
    ]);
    const applied = results.flatMap((result) =>
      result.status === 'fulfilled' && result.value.changed ? [result.value] : [],
    );
    // The other found the change already made (it read after the write) or lost the race (409).
    const others = results.flatMap((result) =>
      result.status === 'rejected'
        ? [String((result.reason as { status: number }).status)]
        : result.value.changed
          ? []
          : ['unchanged'],
    );
    expect(applied).toHaveLength(1);
    expect(others).toHaveLength(1);
    expect(['409', 'unchanged']).toContain(others[0]);
    expect(await cluesOf(user.id)).toEqual(['I research MEV', 'I follow MEV and liquidation bots']);
    // The reader's setup changed clues twice: once for the Solana mute, once for this review.
    expect(await eventNamesNaming(user.id)).toEqual(['clues_changed', 'clues_changed']);
  });
});

describe("a chip's clue", () => {
  it("adds the story's clue once, and refuses an empty one with a 400", async () => {
    const user = await reader(['I research MEV']);
    const clue = 'I follow restaking';
    expect(await Feed.addStoryClue(user.id, { kind: 'like', clue })).toEqual({ changed: true });
    expect(await Feed.addStoryClue(user.id, { kind: 'like', clue })).toEqual({ changed: false });
    expect(await cluesOf(user.id)).toEqual(['I research MEV', clue]);
    expect(await refusal(Feed.addStoryClue(user.id, { kind: 'like', clue: '' }))).toEqual({
      message: 'A clue cannot be empty',
      status: 400,
    });
  });
});
