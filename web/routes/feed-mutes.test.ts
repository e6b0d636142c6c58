// What the reader does not want, through the feed's routes (ADR 0045): a dislike takes the story
// out of the page (with Undo) before and after the rebuild, the sidebar shows it and the reader's
// mutes as chips, and a chip's form removes one.
import { describe, expect, it } from 'vitest';
import * as Feed from '#core/feed';
import * as Users from '#core/users';
import { readerWithFeed } from '#tests/integration/readers';
import { call, request } from '#tests/integration/route-call';
import { userSessionCookie } from '#web/lib/user.server';
import { action, loader } from './feed';

const ORIGIN = 'http://localhost:3000';

async function signedIn() {
  const reader = await readerWithFeed(['Very Relevant', 'Very Relevant', 'Quite Relevant']);
  const cookie = (await userSessionCookie().serialize(reader.token)).split(';')[0]!;
  return { ...reader, cookie };
}

const get = (cookie: string) => request(`${ORIGIN}/feed`, { headers: { Cookie: cookie } });
const post = (fields: Record<string, string>, cookie: string) =>
  request(`${ORIGIN}/feed`, {
    method: 'POST',
    body: new URLSearchParams(fields).toString(),
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Origin: ORIGIN,
      Cookie: cookie,
    },
  });

type FeedData = {
  stories: { articleId: string; label: string }[];
  mutes: { id: string; text: string }[];
  disliked: string[];
};
const page = async (cookie: string) => (await call(loader, get(cookie))).data as FeedData;

describe('what the reader does not want, on the feed page', () => {
  it('takes a disliked story out of the chosen ratings, names it in a chip, and Undo brings it back', async () => {
    const reader = await signedIn();
    const story = reader.articles[1]!;
    expect((await page(reader.cookie)).stories[0]!.articleId).toBe(story.id);

    const disliked = await call(
      action,
      post({ intent: 'feedback', articleId: story.id, kind: 'dislike' }, reader.cookie),
    );
    expect(disliked.status).toBe(200);
    // Before the rebuild the list still holds it: the page is told to show it taken out.
    const before = await page(reader.cookie);
    expect(before.disliked).toEqual([story.id]);
    expect(before.mutes).toEqual([{ id: expect.any(String), text: `Less like: ${story.title}` }]);
    await Feed.buildFeed(reader.user.id);
    expect((await page(reader.cookie)).stories.map((s) => s.articleId)).not.toContain(story.id);

    const undone = await call(
      action,
      post({ intent: 'withdraw', articleId: story.id, kind: 'dislike' }, reader.cookie),
    );
    expect(undone).toMatchObject({
      status: 200,
      data: { intent: 'withdraw', articleId: story.id, changed: true },
    });
    await Feed.buildFeed(reader.user.id);
    const after = await page(reader.cookie);
    expect(after.mutes).toEqual([]);
    expect(after.disliked).toEqual([]);
    expect(after.stories[0]).toMatchObject({ articleId: story.id, label: 'Very Relevant' });
  });

  it("removes a mute by its chip's form, and refuses a bad chip with a 400", async () => {
    const reader = await signedIn();
    await Feed.changePreferences(reader.user.id, {
      category: 'change_clues',
      mutesToBeAdded: [{ mute: 'Solana' }, { mute: 'DAO treasury', kind: 'less' }],
    });
    const chips = (await page(reader.cookie)).mutes;
    expect(chips.map((chip) => chip.text)).toEqual(['Not: Solana', 'Less: DAO treasury']);
    const removed = await call(
      action,
      post({ intent: 'unmute', muteId: chips[0]!.id }, reader.cookie),
    );
    expect(removed).toMatchObject({ status: 200, data: { intent: 'unmute', changed: true } });
    expect((await page(reader.cookie)).mutes.map((chip) => chip.text)).toEqual([
      'Less: DAO treasury',
    ]);
    expect((await Users.byId(reader.user.id))!.feedRequestedAt).toEqual(expect.any(String));
    expect(
      await call(action, post({ intent: 'unmute', muteId: 'x' }, reader.cookie)),
    ).toMatchObject({ status: 400, data: { error: Feed.PREFERENCE_MESSAGES.muteRequired } });
    expect(
      await call(
        action,
        post(
          { intent: 'withdraw', articleId: reader.articles[0]!.id, kind: 'love' },
          reader.cookie,
        ),
      ),
    ).toMatchObject({ status: 400, data: { error: Feed.FEEDBACK_MESSAGES.kindRequired } });
  });
});
