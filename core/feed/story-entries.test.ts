import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import type { RelevanceLabel } from '#core/ai';
import * as Articles from '#core/articles';
import { countStorageCalls } from '#core/db';
import * as Feed from '#core/feed';
import * as Scoring from '#core/scoring';
import * as Stories from '#core/stories';
import * as Users from '#core/users';
import { createArticle } from '#tests/integration/factories';
import { useOwnTable } from '#tests/integration/own-table';

// The story builder's candidates are every recent story in the table: other files' articles must
// not join these tests' stories.
useOwnTable('feed-stories');

let weeks = 0;

/** One event told by four sources and another event, each call a week later than the last. */
function events() {
  weeks += 1;
  const at = (time: string) =>
    new Date(Date.parse(`2026-10-${time}Z`) + weeks * 7 * 24 * 3_600_000).toISOString();
  const name = `Umbra${weeks}`;
  return {
    hack: [
      {
        title: `${name} bridge drained of $40 million in private key exploit`,
        summary: `Attackers drained roughly $40 million from the ${name} cross-chain bridge on Tuesday after compromising a validator private key. The team paused deposits and said user funds on the destination chain are safe.`,
        source: 'The Block',
        publishedAt: at('20T08:00:00.000'),
      },
      {
        title: `${name} bridge exploited: $40M stolen after validator key compromise`,
        summary: `The ${name} bridge lost about $40 million on Tuesday when an attacker used a compromised validator private key to approve fake withdrawals. Deposits are paused while the team investigates.`,
        source: 'CoinDesk',
        publishedAt: at('20T10:30:00.000'),
      },
      {
        title: `${name} bridge says it will repay users after $40 million key exploit`,
        summary: `${name}, the cross-chain bridge drained of $40 million this week through a stolen validator private key, said its treasury will cover user losses and deposits will reopen next week.`,
        source: 'Decrypt',
        publishedAt: at('21T09:00:00.000'),
      },
      {
        title: `${name} bridge hack: how a stolen validator key drained $40 million`,
        summary: `A compromised validator private key let an attacker drain $40 million from the ${name} cross-chain bridge; deposits stay paused and the team promises to cover losses.`,
        source: 'Blockworks',
        publishedAt: at('21T12:00:00.000'),
      },
    ],
    other: {
      title: `Kestrel${name} lending protocol loses $3 million to oracle manipulation`,
      summary: `An attacker manipulated a thinly traded price feed to borrow $3 million from the Kestrel${name} lending markets on Arbitrum, using a flash loan to inflate collateral value.`,
      source: 'The Defiant',
      publishedAt: at('20T09:00:00.000'),
    },
  };
}

async function reader() {
  const user = await Users.create({
    name: 'Reader',
    email: `reader-${ulid().toLowerCase()}@example.com`,
    status: 'Onboarded',
  });
  await Users.setDescriptors(user.id, ['I follow DeFi security incidents']);
  return (await Users.byId(user.id))!;
}

/** The article's production score for the reader. */
async function score(user: Users.User, article: Articles.Article, label: RelevanceLabel) {
  await Scoring.storeScore(article.id, Scoring.userTarget(user), await Scoring.productionKeys(), {
    label,
    score: 0.5,
    reason: `It matches (${article.source})`,
    relevantClues: ['I follow DeFi security incidents'],
    publishedAt: article.publishedAt,
    processId: ulid(),
    inputTokens: 0,
    outputTokens: 0,
  });
}

const fresh = async (id: string) => (await Users.byId(id))!;
const everything = async (id: string) => (await Feed.page(await fresh(id), {})).stories;

/**
 * A reader scored for an event two sources carry (the second scored best) and for another event,
 * the stories built.
 */
async function twoSourcesAndAnotherEvent() {
  const user = await reader();
  const { hack, other } = events();
  const first = await createArticle(hack[0]);
  const second = await createArticle(hack[1]);
  const elsewhere = await createArticle(other);
  await Stories.joinArticles([first.id, second.id, elsewhere.id]);
  await score(user, first, 'Quite Relevant');
  await score(user, second, 'Very Relevant');
  await score(user, elsewhere, 'Quite Relevant');
  return { user, first, second, elsewhere };
}

/**
 * A reader's list built with the event's first source and another event, both Very Relevant; the
 * other event is newer, so it reads first within the label until the story grows.
 */
async function oneSourceBuilt() {
  const user = await reader();
  const { hack, other } = events();
  const first = await createArticle(hack[0]);
  const elsewhere = await createArticle({ ...other, publishedAt: hack[3]!.publishedAt });
  await Stories.joinArticles([first.id, elsewhere.id]);
  await score(user, first, 'Very Relevant');
  await score(user, elsewhere, 'Very Relevant');
  await Feed.buildFeed(user.id);
  return { user, hack, first, elsewhere };
}

describe("stories in a reader's feed list", () => {
  it('shows an event two sources carry once, led by its best-scored member, with the other source, in one Query', async () => {
    const { user, first, second, elsewhere } = await twoSourcesAndAnotherEvent();

    expect(await Feed.buildFeed(user.id)).toMatchObject({ built: true, stories: 2 });
    const built = await fresh(user.id);
    expect(Feed.countsOf(built)).toMatchObject({ 'Very Relevant': 1, 'Quite Relevant': 1 });
    const read = await countStorageCalls(() => Feed.page(built, {}));
    expect(read.calls).toEqual({ 'dynamodb Query': 1 });
    const [lead, next] = read.result.stories;
    expect(read.result.stories).toHaveLength(2);
    expect(lead).toMatchObject({
      articleId: second.id,
      source: 'CoinDesk',
      label: 'Very Relevant',
      reason: 'It matches (CoinDesk)',
      storyId: first.id,
      sourceCount: 2,
      otherSourceCount: 1,
      alsoCoveredBy: [{ source: 'The Block', link: first.canonicalUrl, title: first.title }],
    });
    expect(lead!.grewBy).toBeUndefined();
    expect(next).toMatchObject({
      articleId: elsewhere.id,
      sourceCount: 1,
      otherSourceCount: 0,
      alsoCoveredBy: [],
    });
  });

  it("counts the other outlets, not the articles: an outlet's follow-up is not another source", async () => {
    const user = await reader();
    const { hack } = events();
    // CoinDesk's report and its follow-up, and The Block's.
    const report = await createArticle(hack[1]);
    const followUp = await createArticle({ ...hack[3], source: 'CoinDesk' });
    const block = await createArticle(hack[0]);
    await Stories.joinArticles([report.id, followUp.id, block.id]);
    await score(user, report, 'Very Relevant');

    await Feed.buildFeed(user.id);
    const [entry] = await everything(user.id);
    expect(entry).toMatchObject({
      articleId: report.id,
      sourceCount: 3,
      otherSourceCount: 1,
      alsoCoveredBy: [{ source: 'The Block', link: block.canonicalUrl, title: block.title }],
    });
  });

  it('takes the whole story out with a dislike of its entry, at the next build, and brings it back with Undo', async () => {
    const { user, first, second, elsewhere } = await twoSourcesAndAnotherEvent();
    await Feed.buildFeed(user.id);

    await Feed.giveFeedback(user.id, { articleId: second.id, kind: 'dislike' });
    await Feed.buildFeed(user.id);
    const built = await fresh(user.id);
    // Neither member is left in any rating the reader reads by default.
    const shown = await Feed.page(built, { ratings: Feed.defaultRatings(built) });
    expect(shown.stories.map((story) => story.articleId)).toEqual([elsewhere.id]);
    const all = await everything(user.id);
    expect(all.map((story) => [story.articleId, story.label, story.feedback])).toEqual([
      [elsewhere.id, 'Quite Relevant', undefined],
      [second.id, 'Not Relevant', 'dislike'],
    ]);
    expect(all[1]).toMatchObject({ storyId: first.id, sourceCount: 2 });

    await Feed.withdrawFeedback(user.id, { articleId: second.id, kind: 'dislike' });
    await Feed.buildFeed(user.id);
    expect((await everything(user.id)).map((story) => story.articleId)).toEqual([
      second.id,
      elsewhere.id,
    ]);
  });

  it('keeps a story out whose disliked member is no longer scored for the reader', async () => {
    const user = await reader();
    const { hack } = events();
    const first = await createArticle(hack[0]);
    const second = await createArticle(hack[1]);
    await Stories.joinArticles([first.id, second.id]);
    await score(user, first, 'Very Relevant');
    await Feed.giveFeedback(user.id, { articleId: first.id, kind: 'dislike' });
    // New clues: only the other member is scored for them (the disliked one's score was for the old).
    await Users.setDescriptors(user.id, ['I audit cross-chain bridges']);
    await score(await fresh(user.id), second, 'Very Relevant');
    await Feed.buildFeed(user.id);
    expect(await everything(user.id)).toEqual([]);
  });

  it('gives the like of an entry to its story: the entry shows it while another member leads', async () => {
    const user = await reader();
    const { hack } = events();
    const first = await createArticle(hack[0]);
    await Stories.joinArticles([first.id]);
    await score(user, first, 'Quite Relevant');
    await Feed.buildFeed(user.id);
    await Feed.giveFeedback(user.id, { articleId: first.id, kind: 'like' });

    const second = await createArticle(hack[1]);
    await Stories.joinArticles([second.id]);
    await score(user, second, 'Very Relevant');
    await Feed.buildFeed(user.id);
    const [entry, ...rest] = await everything(user.id);
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({ articleId: second.id, feedback: 'like', sourceCount: 2 });
  });

  it('moves a story that grew to the top of its band once and says by how many; an unchanged one never moves', async () => {
    const { user, hack, first, elsewhere } = await oneSourceBuilt();
    const order = async () =>
      (await everything(user.id)).map((story) => [story.articleId, story.grewBy]);
    expect(await order()).toEqual([
      [elsewhere.id, undefined],
      [first.id, undefined],
    ]);

    // Two more sources join the story (not scored for the reader: the first still leads it).
    const joined = [await createArticle(hack[1]), await createArticle(hack[2])];
    await Stories.joinArticles(joined.map((article) => article.id));
    await Feed.buildFeed(user.id);
    expect(await order()).toEqual([
      [first.id, 2],
      [elsewhere.id, undefined],
    ]);
    const [grown] = await everything(user.id);
    expect(grown).toMatchObject({ sourceCount: 3 });
    expect(grown!.alsoCoveredBy.map((source) => source.source).sort()).toEqual([
      'CoinDesk',
      'Decrypt',
    ]);

    // The next build keeps the note but not the move.
    await Feed.buildFeed(user.id);
    expect(await order()).toEqual([
      [elsewhere.id, undefined],
      [first.id, 2],
    ]);

    // It grows again: up once more, by one.
    const last = await createArticle(hack[3]);
    await Stories.joinArticles([last.id]);
    await Feed.buildFeed(user.id);
    expect(await order()).toEqual([
      [first.id, 1],
      [elsewhere.id, undefined],
    ]);
  });

  it('of two builds at once after a story grew, publishes one whose entry says so; the next build does not move it', async () => {
    const { user, hack, first, elsewhere } = await oneSourceBuilt();
    const joined = [await createArticle(hack[1]), await createArticle(hack[2])];
    await Stories.joinArticles(joined.map((article) => article.id));

    const outcomes = await Promise.all([Feed.buildFeed(user.id), Feed.buildFeed(user.id)]);
    expect(outcomes.some((outcome) => outcome.built)).toBe(true);
    const story = (await everything(user.id)).find((entry) => entry.articleId === first.id);
    expect(story).toMatchObject({ sourceCount: 3, grewBy: 2 });
    await Feed.buildFeed(user.id);
    expect((await everything(user.id)).map((entry) => [entry.articleId, entry.grewBy])).toEqual([
      [elsewhere.id, undefined],
      [first.id, 2],
    ]);
  });
});
