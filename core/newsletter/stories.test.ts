// Stories in newsletters: one entry per story however many of its sources were picked, its other
// sources under it, and a story sent to a subscriber comes again only when it grew. The file has a
// table of its own, so the stories its articles join are only its own.
import { ulid } from 'ulid';
import { beforeAll, describe, expect, it } from 'vitest';
import { labelOf } from '#core/ai';
import * as Articles from '#core/articles';
import type { Audience } from '#core/audiences';
import { PickEntity } from '#core/curation';
import { logger } from '#core/logs';
import * as Newsletter from '#core/newsletter';
import * as Stories from '#core/stories';
import * as Subscribers from '#core/subscribers';
import {
  createArticle,
  createAudience,
  createPost,
  uniqueSlug,
} from '#tests/integration/factories';
import { messagesTo } from '#tests/integration/mail';
import { useOwnTable } from '#tests/integration/own-table';

useOwnTable('newsletter-stories');

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3600_000).toISOString();

/** One exploit told by three outlets (the third comes later), and another event. */
const REPORTS = {
  first: {
    source: 'Chain Desk',
    title: 'Lendora lending protocol drained of $12 million in oracle manipulation exploit',
    summary:
      'Attackers manipulated the price oracle of Lendora, a lending protocol on Arbitrum, and drained $12 million from its pools on Tuesday. The team paused all markets.',
  },
  second: {
    source: 'Block Ledger',
    title:
      'Lendora exploit: attacker drains $12 million from Arbitrum lending protocol via oracle manipulation',
    summary:
      'The Lendora lending protocol on Arbitrum lost $12 million on Tuesday after an attacker manipulated its price oracle. Lendora has paused all markets.',
  },
  third: {
    source: 'DeFi Wire',
    title:
      'Lendora confirms $12 million oracle manipulation exploit and pauses Arbitrum lending markets',
    summary:
      'Lendora says an attacker manipulated its price oracle to drain $12 million from its Arbitrum lending pools on Tuesday; all markets stay paused.',
  },
  bridge: {
    source: 'Chain Desk',
    title: 'Mintbridge halts withdrawals after $40 million validator key compromise',
    summary:
      'The Mintbridge cross-chain bridge stopped all withdrawals on Friday after attackers used compromised validator keys to mint $40 million of wrapped ether.',
  },
  bridgeAgain: {
    source: 'Block Ledger',
    title:
      'Attackers mint $40 million on Mintbridge with compromised validator keys; withdrawals halted',
    summary:
      'Mintbridge halted withdrawals on Friday: an attacker holding compromised validator keys minted $40 million of wrapped ether on the cross-chain bridge.',
  },
  other: {
    source: 'Stake Weekly',
    title: 'Validators approve a lower staking fee after a week-long governance vote',
    summary:
      'Validators of the network voted to cut the staking fee from 10 to 8 percent, a change that takes effect next epoch.',
  },
};

async function report(key: keyof typeof REPORTS, publishedAt = hoursAgo(5)) {
  const { source, title, summary } = REPORTS[key];
  return createArticle({
    source,
    title,
    summary,
    publishedAt,
    canonicalUrl: `https://${source.toLowerCase().replace(/ /g, '')}.example/${ulid().toLowerCase()}`,
  });
}

/** A pick of a stored article for the audience and its picked post, as 'Pick best content' leaves them. */
async function pick(
  audience: Audience,
  article: Articles.Article,
  score: number,
  pickedAt: string,
) {
  const postId = ulid();
  await createPost(audience.id, {
    id: postId,
    slug: uniqueSlug('story'),
    title: article.title,
    teaser: article.summary ?? article.title,
    date: pickedAt,
    link: { url: article.canonicalUrl, domain: new URL(article.canonicalUrl).hostname },
  });
  await PickEntity.create({
    audienceId: audience.id,
    articleId: article.id,
    postId,
    contentCardId: ulid(),
    processId: ulid(),
    score,
    label: labelOf(score),
    reason: `It is about ${article.title}.`,
    relevantClues: [audience.title],
    publishedAt: article.publishedAt,
    pickedAt,
  }).go();
}

/** Stored articles as the import leaves them once their stories are built. */
async function joined(...articles: Articles.Article[]) {
  await Stories.joinArticles(articles.map((article) => article.id));
  return Articles.byIds(articles.map((article) => article.id));
}

async function confirmedReader(audiences: Audience[]) {
  const email = `reader-${ulid().toLowerCase()}@example.org`;
  let subscriber: Subscribers.Subscriber | undefined;
  for (const audience of audiences)
    ({ subscriber } = await Subscribers.subscribe({ email, audienceId: audience.id }));
  const token = new URL(Subscribers.subscriberLinks(subscriber!).confirmUrl).searchParams.get(
    'subscriberHash',
  );
  return Subscribers.confirm(token);
}

/** A campaign issue of the audiences over [from, to), being sent. */
async function issueOf(audiences: Audience[], from: string, to: string) {
  const id = ulid();
  await Newsletter.NewsletterIssueEntity.create({
    id,
    origin: 'campaign',
    frequency: 'daily',
    from,
    to,
    audienceIds: audiences.map((audience) => audience.id),
    status: 'sending',
    createdAt: new Date().toISOString(),
  }).go();
  return id;
}

const context = (processId: string) => ({
  processId,
  systemUserId: 'admin',
  log: logger,
  progress: async () => {},
  chunk: 0,
});

/** Runs the issue's send for these subscribers, as a chunk of 'Send newsletters' does. */
function send(issueId: string, subscribers: Subscribers.Subscriber[]) {
  return Newsletter.sendNewsletters.runChunk(
    { issueId, subscriberIds: subscribers.map((s) => s.id) },
    { frequency: 'daily', issueId },
    context(ulid()),
  );
}

/** The issues `email` received (not their confirmation e-mail). */
const digestsTo = async (email: string) =>
  (await messagesTo(email)).filter((mail) => mail.subject.startsWith('Your daily Cluefeed'));

const entries = (digest: Newsletter.Digest | Newsletter.EmptyDigest) =>
  digest.empty ? [] : digest.sections.flatMap((section) => section.stories);

let auditors: Audience;
let builders: Audience;
let first: Articles.Article;
let second: Articles.Article;
let other: Articles.Article;

beforeAll(async () => {
  auditors = await createAudience({ title: 'audit smart contracts' });
  builders = await createAudience({ title: 'build DeFi protocols' });
  [first, second, other] = (await joined(
    await report('first', hoursAgo(30)),
    await report('second', hoursAgo(29)),
    await report('other', hoursAgo(29)),
  )) as [Articles.Article, Articles.Article, Articles.Article];
});

describe('stories in a digest', () => {
  it('groups the fixture-like reports of one event into one story and leaves another event out', () => {
    expect(first!.storyId).toBeDefined();
    expect(second!.storyId).toBe(first!.storyId);
    expect(other!.storyId).not.toBe(first!.storyId);
  });

  it('gives a story picked twice one entry, led by its best pick, with every reason and its other source', async () => {
    const window = { from: hoursAgo(28), to: hoursAgo(26) };
    await pick(auditors, first, 0.7, hoursAgo(27));
    await pick(builders, second, 0.9, hoursAgo(27));
    await pick(auditors, other, 0.6, hoursAgo(27));
    const reader = { id: ulid(), audienceIds: [auditors.id, builders.id] };

    const digest = await Newsletter.composeDigest(reader, { frequency: 'daily', ...window });
    expect(entries(digest).map((entry) => entry.title)).toEqual([second.title, other.title]);
    const [story] = entries(digest);
    expect(story).toMatchObject({
      articleId: second.id,
      storyId: second.storyId,
      sourceCount: 2,
      reasons: [
        'Because you follow those who build DeFi protocols',
        'Because you follow those who audit smart contracts',
      ],
      alsoCovered: {
        label: 'also covered by 1 source',
        sources: [{ source: 'Chain Desk', url: first.canonicalUrl }],
      },
    });
    expect(story!.update).toBeUndefined();
    expect(entries(digest)[1]!.alsoCovered).toBeUndefined();

    // Both parts of the e-mail say it, with the other source's link.
    const email = await Newsletter.renderDigest(digest as Newsletter.Digest, {
      preferencesUrl: 'https://cluefeed.example/subscription',
      unsubscribeUrl: 'https://cluefeed.example/unsubscribe',
    });
    for (const part of [email.html, email.text]) {
      expect(part.split('also covered by')).toHaveLength(2);
      expect(part).toContain('also covered by 1 source');
      expect(part).toContain(first.canonicalUrl);
    }
  });

  it('sends a story once, and again only when it grew, saying how many sources are new', async () => {
    const reader = await confirmedReader([auditors, builders]);
    // Issue 1: the story (two sources) and the other event.
    const one = await issueOf([auditors, builders], hoursAgo(28), hoursAgo(26));
    expect(await send(one, [reader])).toMatchObject({ queued: 1 });
    const [firstMail] = await digestsTo(reader.email);
    expect(firstMail!.text.split(second.title)).toHaveLength(2);
    expect(firstMail!.text).toContain('also covered by 1 source');
    // The source link goes through the click redirect, as every story link does.
    expect(firstMail!.text).not.toContain(first.canonicalUrl);

    // Issue 2 picks a member again, with no new source: the story is not sent again.
    const two = await issueOf([auditors, builders], hoursAgo(26), hoursAgo(18));
    await pick(builders, first, 0.8, hoursAgo(25));
    expect(await send(two, [reader])).toMatchObject({ queued: 0, skipped: 1 });
    expect(await Newsletter.deliveryOf(two, reader.id)).toMatchObject({ reason: 'no picks' });

    // A third outlet joins the story: issue 3 carries it again, saying so.
    const [third] = await joined(await report('third', hoursAgo(10)));
    expect(third!.storyId).toBe(first.storyId);
    await pick(auditors, third!, 0.8, hoursAgo(9));
    const three = await issueOf([auditors, builders], hoursAgo(18), hoursAgo(8));
    expect(await send(three, [reader])).toMatchObject({ queued: 1 });
    const mails = await digestsTo(reader.email);
    expect(mails).toHaveLength(2);
    const update = mails.find((mail) => mail.text.includes('updated: 1 new source'))!;
    expect(update.text).toContain(REPORTS.third.title);
    expect(update.text).toContain('also covered by 2 sources');
    expect(await Newsletter.sentStoriesOf(reader.id)).toMatchObject({
      version: 2,
      stories: expect.arrayContaining([
        { storyId: first.storyId, sourceCount: 3, sentAt: expect.any(String) },
      ]),
    });
  });

  it('carries a story in only one of two issues sent to a subscriber at the same moment', async () => {
    const [fresh, echo] = await joined(
      await report('bridge', hoursAgo(4)),
      await report('bridgeAgain', hoursAgo(4)),
    );
    const storyId = fresh!.storyId;
    expect(echo!.storyId).toBe(storyId);
    const reader = await confirmedReader([auditors, builders]);
    await pick(auditors, fresh!, 0.9, hoursAgo(3));
    await pick(builders, echo!, 0.9, hoursAgo(3));
    const daily = await issueOf([auditors], hoursAgo(3.5), hoursAgo(2));
    const campaign = await issueOf([builders], hoursAgo(3.5), hoursAgo(2));

    const outcomes = await Promise.all([send(daily, [reader]), send(campaign, [reader])]);
    const carried = [];
    for (const issueId of [daily, campaign]) {
      const delivery = (await Newsletter.deliveryOf(issueId, reader.id))!;
      expect(delivery).toBeDefined();
      if (delivery.status === 'sent') carried.push(issueId);
    }
    // One issue carries it; the other, composed again once the first recorded it, has nothing new.
    expect(carried).toHaveLength(1);
    expect(outcomes.map((o) => o.queued).sort()).toEqual([0, 1]);
    const mails = (await digestsTo(reader.email)).filter((m) => m.text.includes('Mintbridge'));
    expect(mails).toHaveLength(1);
    expect((await Newsletter.sentStoriesOf(reader.id)).stories).toEqual([
      { storyId, sourceCount: 2, sentAt: expect.any(String) },
    ]);
  });

  it('carries a story in only one of two issues at the same moment to a subscriber sent stories before', async () => {
    const reader = await confirmedReader([auditors, builders]);
    // An earlier issue: the subscriber's sent stories exist, so both sends below update them.
    const [earlier] = await joined(await report('other', hoursAgo(8)));
    await pick(auditors, earlier!, 0.9, hoursAgo(7));
    const before = await issueOf([auditors], hoursAgo(7.5), hoursAgo(6));
    expect((await send(before, [reader])).queued).toBe(1);
    expect((await Newsletter.sentStoriesOf(reader.id)).version).toBe(1);

    const [fresh, echo] = await joined(
      await report('bridge', hoursAgo(4)),
      await report('bridgeAgain', hoursAgo(4)),
    );
    expect(echo!.storyId).toBe(fresh!.storyId);
    await pick(auditors, fresh!, 0.9, hoursAgo(3));
    await pick(builders, echo!, 0.9, hoursAgo(3));
    const daily = await issueOf([auditors], hoursAgo(3.5), hoursAgo(2));
    const campaign = await issueOf([builders], hoursAgo(3.5), hoursAgo(2));

    const outcomes = await Promise.all([send(daily, [reader]), send(campaign, [reader])]);
    expect(outcomes.map((o) => o.queued).sort()).toEqual([0, 1]);
    const mails = (await digestsTo(reader.email)).filter((m) => m.text.includes('Mintbridge'));
    expect(mails).toHaveLength(1);
    const sent = await Newsletter.sentStoriesOf(reader.id);
    expect(sent.version).toBe(2);
    expect(sent.stories.map((story) => story.storyId).sort()).toEqual(
      [earlier!.storyId, fresh!.storyId].sort(),
    );
  });
});
