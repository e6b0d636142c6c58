import { ulid } from 'ulid';
import { describe, expect, it, vi } from 'vitest';
import * as Feed from '#core/feed';
import * as Jobs from '#core/jobs';
import * as Scoring from '#core/scoring';
import * as Users from '#core/users';
import { createArticle } from '#tests/integration/factories';
import { receive } from '#tests/integration/job-queue';

/**
 * Runs once, right after the build job's own last look at the reader: the moment a request
 * stored then finds the slot still held.
 */
const afterLastLook = vi.hoisted(() => ({ run: undefined as (() => Promise<void>) | undefined }));

vi.mock('#core/users', async (original) => {
  const users = await original<typeof import('#core/users')>();
  return {
    ...users,
    byId: async (id: string) => {
      // The caller's frame, not the build's own read of the reader (which job.ts also calls).
      const caller = new Error().stack?.split('\n')[2] ?? '';
      const user = await users.byId(id);
      const hook = afterLastLook.run;
      if (hook && caller.includes('feed/job.ts')) {
        afterLastLook.run = undefined;
        await hook();
      }
      return user;
    },
  };
});

const registry = Jobs.registry([Feed.buildFeedJob as Jobs.JobDefinition]);

async function readerWithStory() {
  const user = await Users.create({
    name: 'Reader',
    email: `reader-${ulid().toLowerCase()}@example.com`,
    status: 'Onboarded',
  });
  const clue = 'I build DeFi lending protocols';
  await Users.UserEntity.patch({ id: user.id })
    .set({ descriptors: [{ id: ulid(), clue }] })
    .go();
  const reader = (await Users.byId(user.id))!;
  const article = await createArticle({ title: `Oracle lag ${ulid()}`, source: 'Chain Daily' });
  await Scoring.storeScore(article.id, Scoring.userTarget(reader), await Scoring.productionKeys(), {
    label: 'Quite Relevant',
    score: 0.5,
    reason: 'It matches',
    relevantClues: [clue],
    publishedAt: article.publishedAt,
    processId: ulid(),
    inputTokens: 0,
    outputTokens: 0,
  });
  await Feed.buildFeed(reader.id);
  return { reader, article };
}

/** The build runs of one reader, newest first. */
async function buildRuns(userId: string) {
  const { data } = await Jobs.ProcessEntity.query
    .byName({ name: Feed.buildFeedJob.name })
    .go({ order: 'desc', limit: 50 });
  return data.filter((run) => JSON.parse(run.input).userId === userId);
}

describe("the feed build job and a reader's late request", () => {
  it('builds a request that arrived after the run looked for one and found the slot held', async () => {
    const { reader, article } = await readerWithStory();
    const first = await Jobs.enqueue(Feed.buildFeedJob, { userId: reader.id }, reader.id);
    await receive(first.id);
    afterLastLook.run = async () => {
      await Feed.giveFeedback(reader.id, { articleId: article.id, kind: 'like' });
      // giveFeedback asked for a build and was turned away: the first run still holds the slot.
      expect((await Jobs.active()).some((run) => run.id === first.id)).toBe(true);
    };
    await Jobs.runProcess(first.id, registry);
    expect(afterLastLook.run).toBeUndefined();
    expect((await Jobs.byId(first.id))?.status).toBe('Success');

    const waiting = await Users.byId(reader.id);
    expect(waiting?.feedRequestedAt).toBeDefined();
    const [second] = await buildRuns(reader.id);
    expect(second?.id).not.toBe(first.id);
    expect(second?.status).toBe('Queued');
    await receive(second!.id);
    await Jobs.runProcess(second!.id, registry);
    const after = await Users.byId(reader.id);
    expect(after?.feedRequestedAt).toBeUndefined();
    expect(after?.feedBuild).not.toBe(waiting?.feedBuild);
    // Nothing was left waiting, so nothing more is queued.
    expect((await buildRuns(reader.id))[0]?.id).toBe(second!.id);
  });

  it('a like while a build holds the slot joins that build instead of queueing another', async () => {
    const { reader, article } = await readerWithStory();
    const first = await Jobs.enqueue(Feed.buildFeedJob, { userId: reader.id }, reader.id);
    await receive(first.id);
    const given = await Feed.giveFeedback(reader.id, { articleId: article.id, kind: 'like' });
    expect(given.changed).toBe(true);
    expect((await buildRuns(reader.id)).map((run) => run.id)).toEqual([first.id]);
    await Jobs.runProcess(first.id, registry);
    const after = await Users.byId(reader.id);
    expect(after?.feedRequestedAt).toBeUndefined();
    expect((await buildRuns(reader.id)).map((run) => run.id)).toEqual([first.id]);
  });

  it('a like and a build queued at the same moment leave one build, which sees the like', async () => {
    const { reader, article } = await readerWithStory();
    const [given, queued] = await Promise.all([
      Feed.giveFeedback(reader.id, { articleId: article.id, kind: 'like' }),
      Jobs.enqueue(Feed.buildFeedJob, { userId: reader.id }, reader.id).catch(
        (error: unknown) => error,
      ),
    ]);
    expect(given.changed).toBe(true);
    // Whichever wrote first took the slot: the other joined it (the like) or was turned away.
    const runs = await buildRuns(reader.id);
    expect(runs).toHaveLength(1);
    if (!('id' in (queued as object))) expect(queued).toMatchObject({ code: 'jobs.busy' });
    await receive(runs[0]!.id);
    await Jobs.runProcess(runs[0]!.id, registry);
    expect((await Users.byId(reader.id))?.feedRequestedAt).toBeUndefined();
  });

  it('a like with no build on its way queues one', async () => {
    const { reader, article } = await readerWithStory();
    await Feed.giveFeedback(reader.id, { articleId: article.id, kind: 'dislike' });
    const [queued] = await buildRuns(reader.id);
    expect(queued?.status).toBe('Queued');
    await receive(queued!.id);
    await Jobs.runProcess(queued!.id, registry);
    expect((await Users.byId(reader.id))?.feedRequestedAt).toBeUndefined();
  });
});
