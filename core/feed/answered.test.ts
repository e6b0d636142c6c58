import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import * as Assistant from '#core/assistant';
import { countStorageCalls } from '#core/db';
import * as Feed from '#core/feed';
import * as Users from '#core/users';
import { createArticle } from '#tests/integration/factories';

async function reader(clues: string[]) {
  const user = await Users.create({
    name: 'Reader',
    email: `reader-${ulid().toLowerCase()}@example.com`,
    status: 'Onboarded',
  });
  await Users.UserEntity.patch({ id: user.id })
    .set({ descriptors: clues.map((clue) => ({ id: ulid(), clue })) })
    .go();
  return (await Users.byId(user.id))!;
}

describe('feedback read again after its redirect', () => {
  it('answers the kind, the title and the conversation the like opened, with the same chips', async () => {
    const user = await reader(['I research MEV']);
    const story = await createArticle({ title: `Restaking on Ethereum ${ulid()}` });
    const given = await Feed.giveFeedback(user.id, { articleId: story.id, kind: 'like' });
    expect(given.thread.chips[0]).toBe(Assistant.CHAT_CHIP);
    expect(given.thread.chips.slice(1)).toEqual(given.thread.suggestions);

    expect(await Feed.answeredFeedback(user.id, story.id)).toEqual({
      articleId: story.id,
      kind: 'like',
      title: story.title,
      chat: { threadId: given.thread.threadId, chips: given.thread.chips },
    });
    // A chip's thanks needs no conversation: it is not read.
    const thanked = await countStorageCalls(() =>
      Feed.answeredFeedback(user.id, story.id, { withChat: false }),
    );
    expect(thanked.result).toEqual({ articleId: story.id, kind: 'like', title: story.title });
    expect(thanked.total).toBe(1);
  });

  it("is nothing for a story without the reader's feedback, and reads nothing for a bad id", async () => {
    const [ada, bob] = await Promise.all([reader(['I research MEV']), reader(['I collect art'])]);
    const story = await createArticle();
    await Feed.giveFeedback(bob.id, { articleId: story.id, kind: 'dislike' });
    expect(await Feed.answeredFeedback(ada.id, story.id)).toBeUndefined();
    expect(await Feed.answeredFeedback(bob.id, story.id)).toMatchObject({ kind: 'dislike' });
    for (const bad of [null, '', '../etc', 'x'.repeat(65)]) {
      const read = await countStorageCalls(() => Feed.answeredFeedback(ada.id, bad));
      expect(read.result, String(bad)).toBeUndefined();
      expect(read.total, String(bad)).toBe(0);
    }
  });
});
