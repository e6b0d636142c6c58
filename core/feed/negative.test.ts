import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import type { RelevanceLabel } from '#core/ai';
import * as Feed from '#core/feed';
import * as Scoring from '#core/scoring';
import * as Users from '#core/users';
import { createArticle } from '#tests/integration/factories';
import { refusal } from '#tests/integration/refusal';

async function reader(clues = ['I build DeFi lending on Ethereum']) {
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

/** A stored story and its production score for the reader. */
async function scored(
  user: Users.User,
  label: RelevanceLabel,
  title: string,
  summary = '',
  source = 'Chain Daily',
) {
  const article = await createArticle({
    title,
    summary,
    source,
    publishedAt: '2026-11-20T08:00:00.000Z',
  });
  await Scoring.storeScore(article.id, Scoring.userTarget(user), await Scoring.productionKeys(), {
    label,
    score: 0.5,
    reason: 'It matches',
    relevantClues: [(user.descriptors ?? [])[0]!.clue],
    publishedAt: article.publishedAt,
    processId: ulid(),
    inputTokens: 0,
    outputTokens: 0,
  });
  return article;
}

type Change = Parameters<typeof Feed.changePreferences>[1];

const fresh = async (id: string) => (await Users.byId(id))!;

/** Every story of the reader's list by title: its shown label and the model's. */
async function labels(userId: string) {
  const { stories } = await Feed.page(await fresh(userId), { limit: 100 });
  return Object.fromEntries(
    stories.map((story) => [story.title, [story.label, story.modelLabel ?? story.label]]),
  );
}

/** Every story of the reader's list by title: its reason. */
async function reasons(userId: string) {
  const { stories } = await Feed.page(await fresh(userId), { limit: 100 });
  return Object.fromEntries(stories.map((story) => [story.title, story.reason]));
}

const oracle = 'Oracle latency is a design parameter, not an afterthought';
const clients = 'Client diversity on Solana: conversations with validator client teams';
const inflation = 'Solana validators approve a 20% cut in inflation';
const treasury = "Treasury management for DAOs that don't want to be hedge funds";

describe('what a reader does not want, stored with their clues', () => {
  it('keeps a mute under the clues’ revision: of a clue change and a mute at once, neither is lost', async () => {
    const user = await reader();
    const clue: Change = { category: 'change_clues', cluesToBeAdded: [{ clue: 'I research MEV' }] };
    const mute: Change = { category: 'change_clues', mutesToBeAdded: [{ mute: 'Solana' }] };
    const results = await Promise.allSettled([
      Feed.changePreferences(user.id, clue),
      Feed.changePreferences(user.id, mute),
    ]);
    // Decided from the same revision, one is refused whole with the busy 409, never half-applied.
    const applied = results.filter((result) => result.status === 'fulfilled').length;
    for (const result of results) {
      if (result.status === 'rejected') {
        expect(result.reason).toMatchObject({
          status: 409,
          message: Users.CLUE_CHANGE_MESSAGES.busy,
        });
      }
    }
    const after = await fresh(user.id);
    expect(after.cluesRevision).toBe(applied);
    expect(after.descriptors).toHaveLength(results[0]!.status === 'fulfilled' ? 2 : 1);
    expect(after.mutes ?? []).toHaveLength(results[1]!.status === 'fulfilled' ? 1 : 0);
    // The refused change, asked again, is applied beside the other.
    if (results[0]!.status === 'rejected') await Feed.changePreferences(user.id, clue);
    if (results[1]!.status === 'rejected') await Feed.changePreferences(user.id, mute);
    const both = await fresh(user.id);
    expect(both.cluesRevision).toBe(2);
    expect(both.descriptors!.map((d) => d.clue)).toEqual([
      'I build DeFi lending on Ethereum',
      'I research MEV',
    ]);
    expect(both.mutes).toMatchObject([{ mute: 'Solana', kind: 'mute', from: 'request' }]);
  });

  it('does not score a change of mutes alone again, marks the list for a rebuild, and keeps each phrase once', async () => {
    const user = await reader();
    const outcome = await Feed.changePreferences(user.id, {
      category: 'change_clues',
      mutesToBeAdded: [
        { mute: 'Solana' },
        { mute: '  solana ' },
        { mute: 'DAO treasury', kind: 'less' },
      ],
    });
    expect(outcome).toMatchObject({ changed: true, cluesChanged: false });
    const stored = await fresh(user.id);
    expect(stored.feedRequestedAt).toBeDefined();
    expect(stored.mutes!.map((m) => [m.mute, m.kind])).toEqual([
      ['Solana', 'mute'],
      ['DAO treasury', 'less'],
    ]);
    // Asking again changes nothing; another kind replaces the kind; removal ignores case.
    expect(
      (
        await Feed.changePreferences(user.id, {
          category: 'change_clues',
          mutesToBeAdded: [{ mute: 'Solana' }],
        })
      ).changed,
    ).toBe(false);
    await Feed.changePreferences(user.id, {
      category: 'change_clues',
      mutesToBeAdded: [{ mute: 'DAO treasury', kind: 'mute' }],
      mutesToBeRemoved: [{ mute: 'SOLANA' }],
    });
    expect((await fresh(user.id)).mutes!.map((m) => [m.mute, m.kind])).toEqual([
      ['DAO treasury', 'mute'],
    ]);
  });

  it('refuses an empty, overlong, unreadable or unknown preference, too many of them, and a bad chip, with a 400', async () => {
    const user = await reader();
    const add = (mute: string, kind?: string) =>
      Feed.changePreferences(user.id, {
        category: 'change_clues',
        mutesToBeAdded: [{ mute, ...(kind ? { kind: kind as 'mute' } : {}) }],
      });
    expect(await refusal(add('   '))).toEqual({
      message: Users.CLUE_CHANGE_MESSAGES.muteEmpty,
      status: 400,
    });
    expect(await refusal(add('x'.repeat(101)))).toEqual({
      message: Users.CLUE_CHANGE_MESSAGES.muteTooLong,
      status: 400,
    });
    expect((await refusal(add('Sol\u0007ana'))).status).toBe(400);
    expect(await refusal(add('Solana', 'never'))).toEqual({
      message: Users.CLUE_CHANGE_MESSAGES.muteKind,
      status: 400,
    });
    const many = Array.from({ length: Users.MAX_MUTES }, (_, n) => ({ mute: `Topic ${n}` }));
    await Feed.changePreferences(user.id, { category: 'change_clues', mutesToBeAdded: many });
    expect(await refusal(add('One more'))).toEqual({
      message: Users.CLUE_CHANGE_MESSAGES.tooManyMutes,
      status: 400,
    });
    expect(await refusal(Feed.unmute(user.id, { muteId: 'not-an-id' }))).toEqual({
      message: Feed.PREFERENCE_MESSAGES.muteRequired,
      status: 400,
    });
    expect((await fresh(user.id)).mutes).toHaveLength(Users.MAX_MUTES);
  });
});

describe('a list built with what the reader does not want', () => {
  it('shows no story naming a muted word above Moderately Relevant, and all of them again once unmuted', async () => {
    const user = await reader();
    await scored(user, 'Very Relevant', oracle, 'Lending markets that budget for staleness.');
    await scored(user, 'Very Relevant', clients, 'Engineers from independent validator clients.');
    await scored(user, 'Quite Relevant', inflation, 'The proposal passed with 71% of staked SOL.');
    await scored(user, 'Very Relevant', 'Firedancer ships', 'A new client.', 'Solana Weekly');
    await Feed.changePreferences(user.id, {
      category: 'change_clues',
      mutesToBeAdded: [{ mute: 'Solana stories' }],
    });
    expect(await Feed.buildFeed(user.id)).toMatchObject({ built: true, current: true });
    expect(await labels(user.id)).toEqual({
      [oracle]: ['Very Relevant', 'Very Relevant'],
      [clients]: ['Slightly Relevant', 'Very Relevant'],
      [inflation]: ['Slightly Relevant', 'Quite Relevant'],
      'Firedancer ships': ['Slightly Relevant', 'Very Relevant'],
    });
    // A lowered story's reason says which preference lowered it, then what the model found.
    expect(await reasons(user.id)).toMatchObject({
      [oracle]: 'It matches',
      [clients]: 'You asked not to see Solana stories. It matches',
    });
    const built = await fresh(user.id);
    const shown = await Feed.page(built, { ratings: Feed.defaultRatings(built) });
    expect(shown.stories.map((story) => story.title)).toEqual([oracle]);

    const chip = built.mutes![0]!;
    expect(await Feed.unmute(user.id, { muteId: chip.id })).toEqual({ changed: true });
    expect(await Feed.unmute(user.id, { muteId: chip.id })).toEqual({ changed: false });
    await Feed.buildFeed(user.id);
    expect((await labels(user.id))[clients]).toEqual(['Very Relevant', 'Very Relevant']);
    expect((await fresh(user.id)).mutes).toEqual([]);
  });

  it('lowers a story about something the reader wants less of by one label', async () => {
    const user = await reader();
    await scored(user, 'Very Relevant', treasury, 'Runway planning for a DAO.');
    await scored(user, 'Quite Relevant', 'Legal wrappers for DAOs', 'A map of the options.');
    await Feed.changePreferences(user.id, {
      category: 'change_clues',
      mutesToBeAdded: [{ mute: 'DAO treasury', kind: 'less' }],
    });
    await Feed.buildFeed(user.id);
    expect(await labels(user.id)).toEqual({
      [treasury]: ['Quite Relevant', 'Very Relevant'],
      'Legal wrappers for DAOs': ['Quite Relevant', 'Quite Relevant'],
    });
  });
});

describe('a dislike', () => {
  it('puts the story in Not Relevant, lowers the same event from another source, and Undo restores both', async () => {
    const user = await reader();
    const fusaka = await scored(
      user,
      'Very Relevant',
      'Ethereum core developers set the Fusaka mainnet date',
      'After two clean testnet forks, client teams agreed on an activation epoch for Fusaka.',
    );
    const retold = 'Core devs lock in Fusaka date';
    await scored(
      user,
      'Very Relevant',
      retold,
      'Ethereum client teams agreed the Fusaka activation epoch after clean testnet forks.',
      'Blocknotes',
    );
    await scored(user, 'Very Relevant', oracle, 'Lending markets that budget for staleness.');
    await Feed.buildFeed(user.id);

    await Feed.giveFeedback(user.id, { articleId: fusaka.id, kind: 'dislike' });
    const disliked = await fresh(user.id);
    expect(disliked.mutes).toMatchObject([
      { kind: 'less', from: 'dislike', articleId: fusaka.id, mute: fusaka.title },
    ]);
    expect(disliked.cluesRevision).toBe(1);
    await Feed.buildFeed(user.id);
    expect(await labels(user.id)).toEqual({
      [oracle]: ['Very Relevant', 'Very Relevant'],
      [retold]: ['Quite Relevant', 'Very Relevant'],
      [fusaka.title]: ['Not Relevant', 'Very Relevant'],
    });
    expect(await reasons(user.id)).toMatchObject({
      [retold]: 'It tells the same news as a story you disliked. It matches',
      [fusaka.title]: 'You disliked this story. It matches',
    });

    expect(await Feed.withdrawFeedback(user.id, { articleId: fusaka.id, kind: 'dislike' })).toEqual(
      { changed: true },
    );
    expect(await Feed.withdrawFeedback(user.id, { articleId: fusaka.id, kind: 'dislike' })).toEqual(
      { changed: false },
    );
    const undone = await fresh(user.id);
    expect(undone.mutes).toEqual([]);
    expect(undone.feedRequestedAt).toBeDefined();
    await Feed.buildFeed(user.id);
    expect(await labels(user.id)).toEqual({
      [oracle]: ['Very Relevant', 'Very Relevant'],
      [retold]: ['Very Relevant', 'Very Relevant'],
      [fusaka.title]: ['Very Relevant', 'Very Relevant'],
    });
    const { data } = await Feed.FeedbackEntity.get({ userId: user.id, articleId: fusaka.id }).go();
    expect(data).toBeNull();
  });

  it('is withdrawn by removing its chip, and turned round by a like, which takes it out of the mutes', async () => {
    const user = await reader();
    const story = await scored(user, 'Very Relevant', treasury);
    const other = await scored(user, 'Very Relevant', inflation);
    await Feed.giveFeedback(user.id, { articleId: story.id, kind: 'dislike' });
    await Feed.giveFeedback(user.id, { articleId: other.id, kind: 'dislike' });
    const chip = (await fresh(user.id)).mutes!.find((mute) => mute.articleId === story.id)!;
    expect(await Feed.unmute(user.id, { muteId: chip.id })).toEqual({ changed: true });
    const { data } = await Feed.FeedbackEntity.get({ userId: user.id, articleId: story.id }).go();
    expect(data).toBeNull();
    await Feed.giveFeedback(user.id, { articleId: other.id, kind: 'like' });
    expect((await fresh(user.id)).mutes).toEqual([]);
  });

  it('keeps the newest dislikes as preferences; an older one still keeps its story out', async () => {
    const user = await reader();
    const stories = [];
    for (let n = 0; n <= Users.MAX_DISLIKE_MUTES; n++) {
      stories.push(await scored(user, 'Very Relevant', `Story number ${n} about topic ${ulid()}`));
    }
    for (const story of stories) {
      await Feed.giveFeedback(user.id, { articleId: story.id, kind: 'dislike' });
    }
    const kept = (await fresh(user.id)).mutes!.map((mute) => mute.articleId);
    expect(kept).toEqual(stories.slice(1).map((story) => story.id));
    await Feed.buildFeed(user.id);
    expect((await labels(user.id))[stories[0]!.title]).toEqual(['Not Relevant', 'Very Relevant']);
  });

  it('and a mute asked at the same moment: one is refused whole with a 409, neither half-applied', async () => {
    const user = await reader();
    const story = await scored(user, 'Very Relevant', treasury);
    const results = await Promise.allSettled([
      Feed.giveFeedback(user.id, { articleId: story.id, kind: 'dislike' }),
      Feed.changePreferences(user.id, {
        category: 'change_clues',
        mutesToBeAdded: [{ mute: 'Solana' }],
      }),
    ]);
    for (const result of results) {
      if (result.status === 'rejected') expect(result.reason).toMatchObject({ status: 409 });
    }
    const [dislike, mute] = results.map((result) => result.status === 'fulfilled');
    const after = await fresh(user.id);
    expect(after.cluesRevision).toBe(Number(dislike) + Number(mute));
    expect((after.mutes ?? []).map((m) => m.from).sort()).toEqual(
      [...(dislike ? ['dislike'] : []), ...(mute ? ['request'] : [])].sort(),
    );
    const { data } = await Feed.FeedbackEntity.get({ userId: user.id, articleId: story.id }).go();
    expect(!!data).toBe(dislike);
  });

  it('withdrawn while a like is given at the same moment leaves one consistent outcome', async () => {
    const user = await reader();
    const story = await scored(user, 'Very Relevant', treasury);
    await Feed.giveFeedback(user.id, { articleId: story.id, kind: 'dislike' });
    const results = await Promise.allSettled([
      Feed.withdrawFeedback(user.id, { articleId: story.id, kind: 'dislike' }),
      Feed.giveFeedback(user.id, { articleId: story.id, kind: 'like' }),
    ]);
    expect(results.some((result) => result.status === 'fulfilled')).toBe(true);
    for (const result of results) {
      if (result.status === 'rejected') expect(result.reason).toMatchObject({ status: 409 });
    }
    const after = await fresh(user.id);
    expect(after.mutes).toEqual([]);
    const { data } = await Feed.FeedbackEntity.get({ userId: user.id, articleId: story.id }).go();
    expect(data?.kind ?? 'none').toBe(results[1]!.status === 'fulfilled' ? 'like' : 'none');
  });
});
