import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import type { RelevanceLabel } from '#core/ai';
import { countStorageCalls } from '#core/db';
import * as Feed from '#core/feed';
import * as Scoring from '#core/scoring';
import * as Users from '#core/users';
import { eventsNaming } from '#tests/integration/business-events';
import { createArticle } from '#tests/integration/factories';
import { decidedTogether } from '#tests/integration/races';

/** A reader with these clues, as the funnel leaves them. */
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

/** A stored article and its production score for the reader. */
async function scored(
  user: Users.User,
  label: RelevanceLabel,
  options: { source?: string; publishedAt?: string; title?: string; summary?: string } = {},
) {
  const article = await createArticle({
    title: options.title ?? `Story ${ulid()}`,
    source: options.source ?? 'Chain Daily',
    publishedAt: options.publishedAt ?? '2026-11-20T08:00:00.000Z',
    ...(options.summary ? { summary: options.summary } : {}),
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

/** Very Relevant stories for the reader, each from a source on a day, in the order given. */
async function veryRelevantFrom<Stories extends [source: string, day: string][]>(
  user: Users.User,
  ...stories: Stories
) {
  const articles = [];
  for (const [source, day] of stories) {
    articles.push(
      await scored(user, 'Very Relevant', { source, publishedAt: `${day}T00:00:00.000Z` }),
    );
  }
  return articles as { [K in keyof Stories]: Awaited<ReturnType<typeof scored>> };
}

const fresh = async (id: string) => (await Users.byId(id))!;
const ids = (stories: Feed.FeedStory[]) => stories.map((story) => story.articleId);

async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    const { message, status } = error as { message: string; status?: number };
    return { message, status };
  }
  throw new Error('expected a refusal');
}

describe("a reader's feed list", () => {
  it('pages the best labels first, newest first within one, at any offset and for any ratings', async () => {
    const user = await reader(['I build DeFi lending protocols']);
    const v1 = await scored(user, 'Very Relevant', { publishedAt: '2026-11-21T00:00:00.000Z' });
    const v2 = await scored(user, 'Very Relevant', { publishedAt: '2026-11-22T00:00:00.000Z' });
    const q1 = await scored(user, 'Quite Relevant', { publishedAt: '2026-11-23T00:00:00.000Z' });
    const m1 = await scored(user, 'Moderately Relevant');
    const n1 = await scored(user, 'Not Relevant');
    const outcome = await Feed.buildFeed(user.id);
    expect(outcome).toMatchObject({ built: true, stories: 5, current: true });
    const built = await fresh(user.id);
    expect(Feed.countsOf(built)).toEqual({
      'Not Relevant': 1,
      'Slightly Relevant': 0,
      'Moderately Relevant': 1,
      'Quite Relevant': 1,
      'Very Relevant': 2,
    });

    const all = await Feed.page(built, {});
    expect(ids(all.stories)).toEqual([v2.id, v1.id, q1.id, m1.id, n1.id]);
    expect(all.count).toBe(5);
    expect(all.stories[0]).toMatchObject({
      title: v2.title,
      source: 'Chain Daily',
      link: v2.canonicalUrl,
      label: 'Very Relevant',
      relevantClues: ['I build DeFi lending protocols'],
    });

    const best = await Feed.page(built, { ratings: Feed.defaultRatings(built) });
    expect(ids(best.stories)).toEqual([v2.id, v1.id, q1.id]);
    expect(best.count).toBe(3);
    // An offset inside a band and one that skips a whole band, as a query string gives them.
    expect(ids((await Feed.page(built, { offset: '1', limit: '1' })).stories)).toEqual([v1.id]);
    expect(ids((await Feed.page(built, { offset: 2, limit: 2 })).stories)).toEqual([q1.id, m1.id]);
    expect(
      ids(
        (await Feed.page(built, { ratings: ['Very Relevant', 'Not Relevant'], offset: 1 })).stories,
      ),
    ).toEqual([v1.id, n1.id]);
    expect((await Feed.page(built, { offset: 5 })).stories).toEqual([]);
    // Shown bands with a hidden band of stories between them, and a run across an empty band.
    expect(
      ids((await Feed.page(built, { ratings: ['Quite Relevant', 'Not Relevant'] })).stories),
    ).toEqual([q1.id, n1.id]);
    const across = await countStorageCalls(() =>
      Feed.page(built, { ratings: ['Moderately Relevant', 'Not Relevant'] }),
    );
    expect(ids(across.result.stories)).toEqual([m1.id, n1.id]);
    expect(across.calls).toEqual({ 'dynamodb Query': 1 });
    expect((await countStorageCalls(() => Feed.page(built, {}))).total).toBe(1);
  });

  it('opens on the best label a reader has when they have none of the two best', async () => {
    const user = await reader(['I collect generative art']);
    await scored(user, 'Moderately Relevant');
    await Feed.buildFeed(user.id);
    const built = await fresh(user.id);
    expect(Feed.defaultRatings(built)).toEqual(['Moderately Relevant']);
    expect((await Feed.page(built, { ratings: Feed.defaultRatings(built) })).count).toBe(1);
  });

  it('cuts the excerpt at 450 characters with an ellipsis', async () => {
    const user = await reader(['I research MEV']);
    await scored(user, 'Very Relevant', { summary: `${'word '.repeat(200)}` });
    await Feed.buildFeed(user.id);
    const [story] = (await Feed.page(await fresh(user.id), {})).stories;
    expect(story!.excerpt.endsWith('…')).toBe(true);
    expect(story!.excerpt.length).toBeLessThanOrEqual(451);
    expect(Feed.excerptOf('short text')).toBe('short text');
  });

  it('refuses a bad offset, limit or rating with a 400', async () => {
    const user = await reader(['I research MEV']);
    expect(await refusal(Feed.page(user, { offset: '-1' }))).toEqual({
      message: Feed.FEED_MESSAGES.badOffset,
      status: 400,
    });
    expect(await refusal(Feed.page(user, { limit: '101' }))).toEqual({
      message: Feed.FEED_MESSAGES.badLimit,
      status: 400,
    });
    expect(await refusal(Feed.page(user, { limit: '0' }))).toEqual({
      message: Feed.FEED_MESSAGES.badLimit,
      status: 400,
    });
    expect(
      await refusal(Feed.page(user, { ratings: ['Relevant' as RelevanceLabel] })),
    ).toMatchObject({ status: 400 });
  });

  it('of two builds at once, one writes the list and the other finds it current', async () => {
    const user = await reader(['I run a validator']);
    await scored(user, 'Very Relevant');
    const first = await Feed.buildFeed(user.id);
    await scored(user, 'Quite Relevant');
    const [a, b] = await Promise.all([Feed.buildFeed(user.id), Feed.buildFeed(user.id)]);
    const after = await fresh(user.id);
    expect(after.feedBuild).not.toBe(first.built && first.build);
    // Both answer with the one list published: the second waited for the first and found no change.
    expect([a, b]).toEqual([
      expect.objectContaining({ built: true, build: after.feedBuild, stories: 2 }),
      expect.objectContaining({ built: true, build: after.feedBuild, stories: 2 }),
    ]);
    const { data } = await Feed.FeedStoryEntity.query
      .byPosition({ userId: user.id })
      .go({ pages: 'all', consistent: true });
    expect(data).toHaveLength(2);
    expect(data.every((item) => !item.until && item.since <= after.feedBuild!)).toBe(true);
    expect(after.feedWriting).toBeUndefined();
  });

  it('with something to write, builds again from fresh reads when another build held the list as it read', async () => {
    // Two readers alike, each with a new story since their list was built.
    const [free, held] = await Promise.all(
      [1, 2].map(async () => {
        const user = await reader(['I run a validator']);
        await scored(user, 'Very Relevant');
        await Feed.buildFeed(user.id);
        await scored(user, 'Quite Relevant');
        return user;
      }),
    );
    const unheld = await countStorageCalls(() => Feed.buildFeed(free!.id));
    expect(unheld.result).toMatchObject({ built: true, stories: 2 });

    // Another build holds the second reader's list (it may still be deleting what its list left),
    // and lets it go before this build's second try.
    await Users.UserEntity.patch({ id: held!.id }).set({ feedWriting: ulid() }).go();
    setTimeout(() => {
      void Users.UserEntity.patch({ id: held!.id }).remove(['feedWriting']).go();
    }, 300);
    const waited = await countStorageCalls(() => Feed.buildFeed(held!.id));
    expect(waited.result).toMatchObject({ built: true, stories: 2 });
    // The first try read as much as a build does and wrote nothing, not even a try at the hold.
    const writes = ['UpdateItem', 'TransactWriteItems', 'BatchWriteItem', 'PutItem', 'DeleteItem'];
    for (const write of writes.map((name) => `dynamodb ${name}`)) {
      expect(waited.calls[write], write).toBe(unheld.calls[write]);
    }
    expect(waited.calls['dynamodb Query']).toBe(2 * unheld.calls['dynamodb Query']!);
  });

  it('with nothing to write, answers at once though a build that stopped still holds the list', async () => {
    const user = await reader(['I run a validator']);
    await scored(user, 'Very Relevant');
    await Feed.buildFeed(user.id);
    // A build stopped after it published and before it let the list go; a like waits for a build.
    await Users.UserEntity.patch({ id: user.id })
      .set({ feedWriting: ulid(), feedRequestedAt: new Date().toISOString() })
      .go();
    expect(await Feed.buildFeed(user.id)).toMatchObject({ built: true, current: true, written: 0 });
    expect((await fresh(user.id)).feedRequestedAt).toBeUndefined();
  });
});

describe('a list that is behind', () => {
  it('is one with a change waiting, its clues changed, or a new score; a fresh build is not', async () => {
    const user = await reader(['I run a validator']);
    await scored(user, 'Very Relevant');
    const keys = await Scoring.productionKeys();
    expect(await Feed.needsBuild(user, keys)).toBe(true);
    await Feed.buildFeed(user.id);
    expect(await Feed.needsBuild(await fresh(user.id), keys)).toBe(false);
    // A change that arrived while (or after) the list was built keeps its mark: the list is behind.
    await Users.UserEntity.patch({ id: user.id })
      .set({ feedRequestedAt: new Date().toISOString() })
      .go();
    expect(await Feed.needsBuild(await fresh(user.id), keys)).toBe(true);
    await Feed.buildFeed(user.id);
    expect(await Feed.needsBuild(await fresh(user.id), keys)).toBe(false);
    await scored(user, 'Quite Relevant');
    expect(await Feed.needsBuild(await fresh(user.id), keys)).toBe(true);
    await Feed.buildFeed(user.id);
    const built = await fresh(user.id);
    expect(
      await Feed.needsBuild(
        { ...built, descriptors: [{ id: ulid(), clue: 'I trade perps' }] },
        keys,
      ),
    ).toBe(true);
  });
});

describe('feedback on a story', () => {
  it("moves the disliked source's stories down at the next build and marks the story disliked", async () => {
    const user = await reader(['I build DeFi lending protocols']);
    const [newest, middle, oldest] = await veryRelevantFrom(
      user,
      ['Rumour Mill', '2026-11-24'],
      ['Rumour Mill', '2026-11-23'],
      ['Protocol Review', '2026-11-01'],
    );
    await Feed.buildFeed(user.id);
    expect(ids((await Feed.page(await fresh(user.id), {})).stories)).toEqual([
      newest.id,
      middle.id,
      oldest.id,
    ]);

    const given = await Feed.giveFeedback(user.id, { articleId: newest.id, kind: 'dislike' });
    expect(given).toMatchObject({ changed: true, article: { id: newest.id } });
    expect((await fresh(user.id)).feedRequestedAt).toBeDefined();
    expect(await Feed.buildFeed(user.id)).toMatchObject({ built: true, current: true });
    const after = await fresh(user.id);
    expect(after.feedRequestedAt).toBeUndefined();
    const stories = (await Feed.page(after, {})).stories;
    // Both of the disliked source's stories fall below the other source's older one, the disliked
    // story itself lowest (its topics count against it too).
    expect(ids(stories)).toEqual([oldest.id, middle.id, newest.id]);
    expect(stories.find((story) => story.articleId === newest.id)?.feedback).toBe('dislike');
  });

  it('reads a page from the newer list when a build replaced the one the reader was read with', async () => {
    const user = await reader(['I build DeFi lending protocols']);
    const [newest, oldest] = await veryRelevantFrom(
      user,
      ['Rumour Mill', '2026-11-24'],
      ['Protocol Review', '2026-11-01'],
    );
    await Feed.buildFeed(user.id);
    // The reader as a page request read them, just before a build published a new list and took
    // the entries it replaced out.
    const readBefore = await fresh(user.id);
    await Feed.giveFeedback(user.id, { articleId: newest.id, kind: 'dislike' });
    expect(await Feed.buildFeed(user.id)).toMatchObject({ built: true, current: true });
    expect((await fresh(user.id)).feedBuild).not.toBe(readBefore.feedBuild);

    const raced = await countStorageCalls(() => Feed.page(readBefore, {}));
    expect(raced.result.count).toBe(2);
    expect(ids(raced.result.stories)).toEqual([oldest.id, newest.id]);
    expect(raced.result.list.feedBuild).toBe((await fresh(user.id)).feedBuild);
    // The reader is read again only because the page came up short.
    expect(raced.calls).toMatchObject({ 'dynamodb GetItem': 1 });
    const after = await fresh(user.id);
    expect((await countStorageCalls(() => Feed.page(after, {}))).total).toBe(1);
  });

  it('stores one feedback per story: the same again changes nothing, the other kind turns it round', async () => {
    const user = await reader(['I trade perps']);
    const story = await scored(user, 'Very Relevant');
    expect((await Feed.giveFeedback(user.id, { articleId: story.id, kind: 'like' })).changed).toBe(
      true,
    );
    expect((await Feed.giveFeedback(user.id, { articleId: story.id, kind: 'like' })).changed).toBe(
      false,
    );
    expect(
      (await Feed.giveFeedback(user.id, { articleId: story.id, kind: 'dislike' })).changed,
    ).toBe(true);
    const { data } = await Feed.FeedbackEntity.get({ userId: user.id, articleId: story.id }).go();
    expect(data?.kind).toBe('dislike');
  });

  it('of a like and a dislike at the same moment keeps one, or both in turn, and loses none it answered', async () => {
    const user = await reader(['I trade perps']);
    const story = await scored(user, 'Very Relevant');
    const results = await Promise.allSettled([
      Feed.giveFeedback(user.id, { articleId: story.id, kind: 'like' }),
      Feed.giveFeedback(user.id, { articleId: story.id, kind: 'dislike' }),
    ]);
    const kept = results.flatMap((result, index) =>
      result.status === 'fulfilled' ? [index === 0 ? 'like' : 'dislike'] : [],
    );
    const refused = results.flatMap((result) =>
      result.status === 'rejected' ? [(result.reason as { status: number }).status] : [],
    );
    const { data } = await Feed.FeedbackEntity.get({ userId: user.id, articleId: story.id }).go();
    if (kept.length === 1) {
      // Both decided from "no feedback": the second write found the first's and was refused.
      expect(refused).toEqual([409]);
      expect(data?.kind).toBe(kept[0]);
    } else {
      // The second read came after the first write: it changed that feedback, in turn.
      expect(kept).toHaveLength(2);
      expect(['like', 'dislike']).toContain(data?.kind);
      // Each change answered as applied is recorded once (oldest first); the last is stored.
      const names = (await eventsNaming(user.id)).map((event) => event.name);
      expect([...names].sort()).toEqual(['story_disliked', 'story_liked']);
      expect(names.at(-1)).toBe(data?.kind === 'like' ? 'story_liked' : 'story_disliked');
    }
  });

  it('records a like or a dislike only when the feedback changes to it, with the reader’s tracking values', async () => {
    const user = await reader(['I trade perps']);
    await Users.UserEntity.patch({ id: user.id }).set({ utm: 'spring', raud: 'defi' }).go();
    const story = await scored(user, 'Very Relevant');
    const give = (kind: 'like' | 'dislike') =>
      Feed.giveFeedback(user.id, { articleId: story.id, kind });
    // A double click, two tabs: likes at the same moment are one like.
    const likes = await Promise.all([give('like'), give('like'), give('like')]);
    expect(likes.filter((given) => given.changed)).toHaveLength(1);
    await give('like');
    await give('dislike');
    await give('dislike');
    await refusal(Feed.giveFeedback(user.id, { articleId: ulid(), kind: 'like' }));
    const events = await eventsNaming(user.id);
    expect(events.map((event) => event.name)).toEqual(['story_liked', 'story_disliked']);
    for (const event of events) {
      expect(event).toMatchObject({
        articleId: story.id,
        utm: 'spring',
        raud: 'defi',
        path: '/feed',
      });
    }
  });

  it('refuses an unknown story with a 404 and a bad kind with a 400', async () => {
    const user = await reader(['I trade perps']);
    expect(await refusal(Feed.giveFeedback(user.id, { articleId: ulid(), kind: 'like' }))).toEqual({
      message: Feed.FEEDBACK_MESSAGES.storyNotFound,
      status: 404,
    });
    expect(
      await refusal(Feed.giveFeedback(user.id, { articleId: ulid(), kind: 'love' as 'like' })),
    ).toEqual({ message: Feed.FEEDBACK_MESSAGES.kindRequired, status: 400 });
  });
});

describe('limits', () => {
  // 80 writes one after another: up to a minute on a loaded 2-core machine.
  it('refuses feedback past 60 a minute, and clue changes past 20 an hour, with a 429', async () => {
    const user = await reader(['I research MEV']);
    const story = await scored(user, 'Very Relevant');
    // Each change counts (the same feedback again changes nothing and costs no room).
    const kindAt = (n: number) => (n % 2 === 0 ? 'like' : 'dislike');
    for (let n = 0; n < Feed.FEEDBACK_LIMIT.max; n++) {
      await Feed.giveFeedback(user.id, { articleId: story.id, kind: kindAt(n) });
    }
    const same = kindAt(Feed.FEEDBACK_LIMIT.max - 1);
    expect((await Feed.giveFeedback(user.id, { articleId: story.id, kind: same })).changed).toBe(
      false,
    );
    expect(
      await refusal(
        Feed.giveFeedback(user.id, { articleId: story.id, kind: kindAt(Feed.FEEDBACK_LIMIT.max) }),
      ),
    ).toEqual({
      message: 'Too many requests. Please wait a minute and try again.',
      status: 429,
    });
    for (let n = 0; n < Users.CLUE_CHANGE_LIMIT.max; n++) {
      await Users.applyClueChanges(user.id, {
        category: 'change_clues',
        cluesToBeAdded: [{ clue: `I follow topic ${n}` }],
        ...(n > 0 && { cluesToBeRemoved: [{ clue: `I follow topic ${n - 1}` }] }),
      });
    }
    expect(
      await refusal(
        Users.applyClueChanges(user.id, {
          category: 'change_clues',
          cluesToBeAdded: [{ clue: 'One more' }],
        }),
      ),
    ).toMatchObject({ status: 429 });
    expect((await fresh(user.id)).descriptors!.map((d) => d.clue)).toEqual([
      'I research MEV',
      `I follow topic ${Users.CLUE_CHANGE_LIMIT.max - 1}`,
    ]);
  }, 60_000);
});

describe("changing a reader's clues", () => {
  it('keeps the ids of unchanged clues, gives added ones new ids and marks the feed for a rebuild', async () => {
    const user = await reader(['I build DeFi lending protocols', 'I research MEV']);
    const [lending, mev] = user.descriptors!;
    const { user: changed, changed: didChange } = await Users.applyClueChanges(user.id, {
      category: 'change_clues',
      cluesToBeAdded: [{ clue: 'I follow zero-knowledge rollups' }, { clue: 'i research   MEV' }],
      cluesToBeRemoved: [{ clue: 'I build DeFi lending protocols' }],
    });
    expect(didChange).toBe(true);
    const stored = await fresh(user.id);
    expect(stored.descriptors).toEqual(changed.descriptors);
    expect(stored.descriptors!.map((d) => d.clue)).toEqual([
      'I research MEV',
      'I follow zero-knowledge rollups',
    ]);
    expect(stored.descriptors![0]!.id).toBe(mev!.id);
    expect(stored.descriptors!.map((d) => d.id)).not.toContain(lending!.id);
    expect(stored.feedRequestedAt).toBeDefined();
    expect(stored.cluesRevision).toBe(1);
  });

  it('writes nothing when nothing changes, and refuses an empty change or removing every clue', async () => {
    const user = await reader(['I research MEV']);
    expect(
      (
        await Users.applyClueChanges(user.id, {
          category: 'positive_feeback_on_article',
          cluesToBeAdded: [{ clue: 'I research MEV' }],
        })
      ).changed,
    ).toBe(false);
    expect(await refusal(Users.applyClueChanges(user.id, { category: 'change_clues' }))).toEqual({
      message: Users.CLUE_CHANGE_MESSAGES.nothingToChange,
      status: 400,
    });
    expect(
      await refusal(
        Users.applyClueChanges(user.id, {
          category: 'change_clues',
          cluesToBeRemoved: [{ clue: 'I research MEV' }],
        }),
      ),
    ).toEqual({ message: Users.CLUE_CHANGE_MESSAGES.noneLeft, status: 400 });
    expect((await fresh(user.id)).descriptors!.map((d) => d.clue)).toEqual(['I research MEV']);
  });

  it('records each change applied once; nothing changed or refused records nothing', async () => {
    const user = await reader(['I research MEV']);
    await Users.UserEntity.patch({ id: user.id }).set({ vus: 'sp' }).go();
    await Users.applyClueChanges(user.id, {
      category: 'positive_feeback_on_article',
      cluesToBeAdded: [{ clue: 'I research MEV' }],
    });
    await refusal(
      Users.applyClueChanges(user.id, {
        category: 'change_clues',
        cluesToBeRemoved: [{ clue: 'I research MEV' }],
      }),
    );
    const results = await Promise.allSettled(
      ['I follow restaking', 'I collect generative art'].map((clue) =>
        Users.applyClueChanges(user.id, { category: 'change_clues', cluesToBeAdded: [{ clue }] }),
      ),
    );
    // Two at once: one wins and the other is refused, or (when its read came after the first
    // write) both apply in turn. Either way each change applied is recorded once.
    const applied = results.filter((result) => result.status === 'fulfilled').length;
    expect(applied).toBeGreaterThanOrEqual(1);
    await Users.applyClueChanges(user.id, {
      category: 'change_clues',
      cluesToBeAdded: [{ clue: 'I follow zero-knowledge rollups' }],
    });
    const events = await eventsNaming(user.id);
    const revisions = applied + 1;
    expect(events.map((event) => event.id)).toEqual(
      Array.from({ length: revisions }, (_, n) => `clues_changed:${user.id}:${n + 1}`),
    );
    expect(events[0]).toMatchObject({ name: 'clues_changed', vus: 'sp', path: '/feed' });
    const after = await fresh(user.id);
    expect(after.cluesRevision).toBe(revisions);
    // No change answered as applied is lost.
    const clues = (after.descriptors ?? []).map((descriptor) => descriptor.clue);
    const answered = ['I follow restaking', 'I collect generative art'].filter(
      (_, index) => results[index]!.status === 'fulfilled',
    );
    for (const clue of answered) expect(clues).toContain(clue);
  });

  it('of two changes at the same moment applies one whole and refuses the other with a 409', async () => {
    const user = await reader(['I research MEV']);
    // Each decides from the same stored reader, however the two are scheduled.
    const results = await decidedTogether(
      () =>
        Users.applyClueChanges(user.id, {
          category: 'change_clues',
          cluesToBeAdded: [{ clue: 'I follow restaking' }],
        }),
      () =>
        Users.applyClueChanges(user.id, {
          category: 'change_clues',
          cluesToBeAdded: [{ clue: 'I collect generative art' }],
        }),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((result) => result.status === 'rejected') as PromiseRejectedResult;
    expect((refused.reason as { status: number }).status).toBe(409);
    expect((await fresh(user.id)).descriptors).toHaveLength(2);
  });
});
