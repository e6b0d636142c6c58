import { createHash } from 'node:crypto';
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import * as Articles from '#core/articles';
import { labelOf } from '#core/ai';
import type { Audience } from '#core/audiences';
import { VisibleError } from '#core/common';
import { config } from '#core/config';
import { PickEntity } from '#core/curation';
import * as Newsletter from '#core/newsletter';
import * as Subscribers from '#core/subscribers';
import { createAudience, createPost, uniqueSlug } from '#tests/integration/factories';

const at = (day: number, hour = 8) => new Date(Date.UTC(2026, 10, day, hour)).toISOString();
const DAY = { from: at(20, 0), to: at(21, 0) };
const WEEK = { from: at(16, 0), to: at(23, 0) };

type PickSpec = {
  title: string;
  score: number;
  teaser?: string;
  clues?: string[];
  pickedAt?: string;
  articleId?: string;
  /** Leave the picked post unwritten (a run that crashed between the pick and its post). */
  withoutPost?: boolean;
  /** A video or podcast episode and its minutes (an article by default). */
  post?: { type: 'audio' | 'video'; minutes: number };
};

/** A pick for the audience and its picked post, as 'Pick best content' leaves them. */
async function pick(audience: Audience, spec: PickSpec) {
  const articleId = spec.articleId ?? ulid();
  const pickedAt = spec.pickedAt ?? at(20);
  const postId = ulid();
  const url = `https://news.example.org/${articleId.toLowerCase()}`;
  if (!spec.withoutPost) {
    await createPost(audience.id, {
      id: postId,
      slug: uniqueSlug('story'),
      title: spec.title,
      teaser: spec.teaser ?? `${spec.title}, explained.`,
      date: pickedAt,
      link: { url, domain: 'news.example.org' },
      ...spec.post,
    });
  }
  await PickEntity.create({
    audienceId: audience.id,
    articleId,
    postId,
    contentCardId: ulid(),
    processId: ulid(),
    score: spec.score,
    label: labelOf(spec.score),
    reason: `It is about ${spec.title}.`,
    relevantClues: spec.clues ?? [audience.title],
    publishedAt: pickedAt,
    pickedAt,
  }).go();
  return { articleId, postId, url };
}

const reader = (audienceIds: string[], shadowAudienceIds: string[] = []) => ({
  id: ulid(),
  audienceIds,
  shadowAudienceIds,
});

async function issue(...args: Parameters<typeof Newsletter.composeDigest>) {
  const digest = await Newsletter.composeDigest(...args);
  if (digest.empty) throw new Error(`Expected an issue, got an empty digest (${digest.why})`);
  return digest;
}

const storiesOf = (digest: Newsletter.Digest) => digest.sections.flatMap((s) => s.stories);
const titlesOf = (digest: Newsletter.Digest) => storiesOf(digest).map((s) => s.title);

/** Every word a reader reads, counted here without the module's own counter. */
function wordsRead(digest: Newsletter.Digest): number {
  const lines = [
    digest.heading,
    digest.intro,
    ...digest.sections.flatMap((section) => [
      section.heading ?? '',
      ...section.stories.flatMap((s) => [s.title, s.teaser, s.sourceLabel, ...s.reasons]),
    ]),
  ];
  return lines.join(' ').match(/\S+/g)?.length ?? 0;
}

const words = (n: number, word = 'token') => Array.from({ length: n }, () => word).join(' ');

describe('composing a daily digest', () => {
  it("reads only the subscriber's active audiences of the issue's frequency, in the window", async () => {
    const followed = await createAudience({ title: 'audit smart contracts' });
    const notFollowed = await createAudience({ title: 'trade memecoins' });
    const weekly = await createAudience({ title: 'collect on-chain art', frequency: 'weekly' });
    const nicheNowActive = await createAudience({ title: 'run validators' });
    const nicheUpcoming = await createAudience({ title: 'govern DAOs', state: 'upcoming' });
    await pick(followed, { title: 'A reentrancy bug in a lending pool', score: 0.8 });
    await pick(followed, { title: 'Yesterday’s audit contest', score: 0.9, pickedAt: at(19) });
    await pick(notFollowed, { title: 'A dog coin doubles', score: 0.95 });
    await pick(weekly, { title: 'A generative art auction', score: 0.9 });
    await pick(nicheNowActive, { title: 'Slashing risk after the upgrade', score: 0.7 });
    await pick(nicheUpcoming, { title: 'A DAO votes on its treasury', score: 0.9 });

    const subscriber = reader([followed.id, weekly.id], [nicheNowActive.id, nicheUpcoming.id]);
    const digest = await issue(subscriber, { frequency: 'daily', ...DAY });

    expect(titlesOf(digest)).toEqual([
      'A reentrancy bug in a lending pool',
      'Slashing risk after the upgrade',
    ]);
    expect(digest.audiences.map((a) => a.title)).toEqual([
      'audit smart contracts',
      'run validators',
    ]);
    expect(digest.audiences[0]!.url).toBe(new URL(`/a/${followed.slug}`, config().PUBLIC_URL).href);
    expect(digest).toMatchObject({ empty: false, subscriberId: subscriber.id, frequency: 'daily' });
  });

  it('keeps a campaign to the audiences it names', async () => {
    const one = await createAudience({ title: 'audit smart contracts' });
    const other = await createAudience({ title: 'build DeFi protocols' });
    await pick(one, { title: 'Fuzzing invariants', score: 0.8 });
    await pick(other, { title: 'A new AMM design', score: 0.9 });

    const digest = await issue(reader([one.id, other.id]), {
      frequency: 'daily',
      ...DAY,
      audienceIds: [other.id],
    });
    expect(titlesOf(digest)).toEqual(['A new AMM design']);
  });

  it('shows a story picked for two followed audiences once, with both reasons, best score first', async () => {
    const auditors = await createAudience({ title: 'audit smart contracts' });
    const builders = await createAudience({ title: 'build DeFi protocols' });
    const shared = ulid();
    const forAuditors = await pick(auditors, {
      title: 'The bug behind the bridge hack',
      score: 0.7,
      articleId: shared,
      clues: ['audit smart contracts'],
    });
    const forBuilders = await pick(builders, {
      title: 'The bug behind the bridge hack',
      score: 0.93,
      articleId: shared,
      clues: [],
    });
    await pick(auditors, { title: 'Formal verification in practice', score: 0.85 });
    await pick(builders, { title: 'Oracle design for perps', score: 0.6 });

    const digest = await issue(reader([auditors.id, builders.id]), { frequency: 'daily', ...DAY });
    const stories = storiesOf(digest);

    expect(stories.map((s) => [s.title, s.score])).toEqual([
      ['The bug behind the bridge hack', 0.93],
      ['Formal verification in practice', 0.85],
      ['Oracle design for perps', 0.6],
    ]);
    const bridge = stories[0]!;
    // The builders' pick has no stored clue: its reason falls back to the audience's title.
    expect(bridge.reasons).toEqual([
      'Because you follow those who build DeFi protocols',
      'Because you follow those who audit smart contracts',
    ]);
    expect(bridge.postId).toBe(forBuilders.postId);
    expect(bridge.postId).not.toBe(forAuditors.postId);
    expect(bridge.postUrl).toMatch(new RegExp(`^${config().PUBLIC_URL}/p/story-`));
    expect(bridge.sourceUrl).toBe(forBuilders.url);
    expect(bridge.sourceLabel).toBe('Original at news.example.org');
    expect(digest.subject).toBe('Your daily Cluefeed: The bug behind the bridge hack');
  });

  it('says why from every stored clue the score matched', async () => {
    const audience = await createAudience({ title: 'audit smart contracts' });
    await pick(audience, {
      title: 'Audit findings of the month',
      score: 0.8,
      clues: ['audit smart contracts', 'hunt bugs', 'Hunt bugs', 'write Solidity'],
    });
    const digest = await issue(reader([audience.id]), { frequency: 'daily', ...DAY });
    expect(storiesOf(digest)[0]!.reasons).toEqual([
      'Because you follow those who audit smart contracts, hunt bugs and write Solidity',
    ]);
  });

  it('fits many long stories into 1,000 words (5 minutes at 200 words a minute), best first', async () => {
    const busy = await createAudience({ title: 'build DeFi protocols' });
    const quiet = await createAudience({ title: 'run validators' });
    for (let i = 0; i < 30; i++) {
      await pick(busy, {
        title: `Long story number ${i} about lending markets and their many risks`,
        score: 0.99 - i * 0.01,
        teaser: words(100, `lend${i % 10}`),
      });
    }
    await pick(quiet, {
      title: 'A quiet validator story',
      score: 0.5,
      teaser: words(100, 'stake'),
    });

    const digest = await issue(reader([busy.id, quiet.id]), { frequency: 'daily', ...DAY });
    const stories = storiesOf(digest);

    expect(Newsletter.WORD_BUDGET.daily).toBe(1000);
    expect(wordsRead(digest)).toBe(digest.words);
    expect(digest.words).toBeLessThanOrEqual(1000);
    // The cut fills the budget rather than stopping early.
    expect(digest.words).toBeGreaterThan(1000 - Newsletter.MIN_TEASER_WORDS - 20);
    expect(digest.minutes).toBe(5);
    expect(digest.intro).toBe(
      `${stories.length} stories picked for you, about 5 minutes of reading.`,
    );
    expect(digest.leftOut).toBe(31 - stories.length);
    expect(digest.leftOut).toBeGreaterThan(0);
    // A busy audience does not crowd out a quiet one; otherwise the best scores are kept.
    expect(stories.map((s) => s.title)).toContain('A quiet validator story');
    const busyTitles = stories.filter((s) => s.audienceId === busy.id).map((s) => s.title);
    expect(busyTitles).toEqual(
      Array.from(
        { length: busyTitles.length },
        (_, i) => `Long story number ${i} about lending markets and their many risks`,
      ),
    );
    for (const story of stories) {
      expect(story.teaser.split(' ').length).toBeLessThanOrEqual(Newsletter.TEASER_WORDS);
      expect(story.teaser).toMatch(/…$/);
    }
  });

  it('reports an empty digest when nothing was picked, or nothing is followed', async () => {
    const audience = await createAudience({ title: 'audit smart contracts' });
    await pick(audience, { title: 'Last week’s story', score: 0.9, pickedAt: at(12) });
    const subscriber = reader([audience.id]);

    expect(await Newsletter.composeDigest(subscriber, { frequency: 'daily', ...DAY })).toEqual({
      empty: true,
      subscriberId: subscriber.id,
      frequency: 'daily',
      ...DAY,
      why: 'no picks',
    });
    const none = await Newsletter.composeDigest(reader([]), { frequency: 'daily', ...DAY });
    expect(none).toMatchObject({ empty: true, why: 'no audiences' });
  });

  it('does not repeat a title as its teaser (a story without a summary)', async () => {
    const audience = await createAudience({ title: 'audit smart contracts' });
    await pick(audience, { title: 'Only a headline', score: 0.8, teaser: 'Only a headline' });
    const digest = await issue(reader([audience.id]), { frequency: 'daily', ...DAY });
    expect(storiesOf(digest)[0]).toMatchObject({ title: 'Only a headline', teaser: '' });
    const mail = await Newsletter.renderDigest(digest, {
      preferencesUrl: 'https://cluefeed.test/subscription',
      unsubscribeUrl: 'https://cluefeed.test/unsubscribe',
    });
    expect(mail.text.match(/Only a headline/g)).toHaveLength(1);
  });

  it('links to the source when the picked post is not written yet', async () => {
    const audience = await createAudience({ title: 'audit smart contracts' });
    const key = ulid().toLowerCase();
    await Articles.storeIfNew({
      canonicalUrl: `https://news.example.org/${key}`,
      title: 'A story whose post is missing',
      summary: '<p>The <b>summary</b> of it.</p>',
      publishedAt: at(20),
      source: 'Example News',
      streamId: 'stream-1',
      fingerprint: createHash('sha256').update(key).digest('hex'),
    });
    const article = (await Articles.byUrl(`https://news.example.org/${key}`))!;
    await pick(audience, {
      title: 'ignored',
      score: 0.8,
      articleId: article.id,
      withoutPost: true,
    });

    const story = storiesOf(await issue(reader([audience.id]), { frequency: 'daily', ...DAY }))[0];
    expect(story).toMatchObject({
      title: 'A story whose post is missing',
      teaser: 'The summary of it.',
      sourceUrl: article.canonicalUrl,
    });
    expect(story!.postUrl).toBeUndefined();
  });

  it('counts the watching and listening time of videos and episodes in the time it gives', async () => {
    const audience = await createAudience({ title: 'build DeFi protocols' });
    await pick(audience, { title: 'Points after the airdrop', score: 0.9 });
    await pick(audience, {
      title: 'Building your first AMM hook, live',
      score: 0.8,
      post: { type: 'video', minutes: 35 },
    });
    const video = await issue(reader([audience.id]), { frequency: 'daily', ...DAY });
    expect(wordsRead(video)).toBe(video.words);
    expect(video.words).toBeLessThan(200);
    expect(storiesOf(video)[1]!.media).toEqual({ kind: 'video', minutes: 35 });
    expect(video.minutes).toBe(36);
    expect(video.intro).toBe('2 stories picked for you, about 36 minutes of reading and watching.');

    // An episode whose post is not written yet: the running time its feed gave.
    const key = ulid().toLowerCase();
    await Articles.storeIfNew({
      canonicalUrl: `https://news.example.org/${key}`,
      title: 'Liquidations, a podcast',
      summary: 'Two risk leads on the liquidation engines they run.',
      publishedAt: at(20),
      source: 'Example Podcasts',
      streamId: 'stream-1',
      fingerprint: createHash('sha256').update(key).digest('hex'),
      mediaType: 'audio',
      durationSeconds: 42 * 60 + 10,
    });
    const episode = (await Articles.byUrl(`https://news.example.org/${key}`))!;
    await pick(audience, {
      title: 'ignored',
      score: 0.7,
      articleId: episode.id,
      withoutPost: true,
    });
    const all = await issue(reader([audience.id]), { frequency: 'daily', ...DAY });
    expect(wordsRead(all)).toBe(all.words);
    expect(all.minutes).toBe(Math.ceil(all.words / 200 + 35 + 43));
    expect(all.intro).toBe(
      `3 stories picked for you, about ${all.minutes} minutes of reading, watching and listening.`,
    );
  });

  it('refuses a window that does not end after it starts, with the spec’s code', async () => {
    const refused = await Newsletter.composeDigest(reader([]), {
      frequency: 'daily',
      from: DAY.to,
      to: DAY.from,
    }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(VisibleError);
    expect(refused).toMatchObject({
      code: 'SETUP_CAMPAIGN_CONTENT_FROM_TO_NOT_VALID',
      status: 400,
      message: 'The content window is not valid: it must end after it starts',
    });
    await expect(
      Newsletter.composeDigest(reader([]), { frequency: 'daily', from: 'monday', to: DAY.to }),
    ).rejects.toMatchObject({ code: 'input.invalid', message: 'from must be an ISO timestamp' });
  });
});

describe('composing a weekly digest', () => {
  it('groups the week by audience, best audience first, each story once under its best pick', async () => {
    const auditors = await createAudience({ title: 'audit smart contracts', frequency: 'weekly' });
    const builders = await createAudience({ title: 'build DeFi protocols', frequency: 'weekly' });
    const shared = ulid();
    await pick(auditors, { title: 'Monday audit', score: 0.7, pickedAt: at(16, 9) });
    await pick(auditors, { title: 'Friday audit', score: 0.8, pickedAt: at(20) });
    await pick(auditors, {
      title: 'Shared story',
      score: 0.6,
      articleId: shared,
      pickedAt: at(18),
    });
    await pick(builders, {
      title: 'Shared story',
      score: 0.95,
      articleId: shared,
      pickedAt: at(18),
    });
    await pick(builders, { title: 'Sunday build', score: 0.5, pickedAt: at(22, 23) });
    await pick(builders, { title: 'Next week', score: 0.99, pickedAt: at(23, 1) });

    const digest = await issue(reader([auditors.id, builders.id]), {
      frequency: 'weekly',
      ...WEEK,
    });

    expect(digest.sections.map((s) => [s.heading, s.stories.map((story) => story.title)])).toEqual([
      ['For those who build DeFi protocols', ['Shared story', 'Sunday build']],
      ['For those who audit smart contracts', ['Friday audit', 'Monday audit']],
    ]);
    expect(digest.sections[0]!.stories[0]!.reasons).toEqual([
      'Because you follow those who build DeFi protocols',
      'Because you follow those who audit smart contracts',
    ]);
    expect(digest.heading).toBe('Your week on Cluefeed');
    expect(digest.intro).toBe(
      '4 stories picked for you from Mon 16 Nov to Sun 22 Nov, grouped by the audiences you follow.',
    );
    expect(digest.wordBudget).toBe(2000);
    expect(digest.subject).toBe('Your week on Cluefeed: Shared story');
  });
});

describe('rendering a digest', () => {
  it('carries every story’s title, reasons and links, and the subscriber’s signed footer links', async () => {
    const auditors = await createAudience({ title: 'audit smart contracts' });
    const builders = await createAudience({ title: 'build DeFi protocols' });
    const shared = ulid();
    const teaser = 'What happened, and what to check in your own code.';
    await pick(auditors, { title: 'Bridge bug explained', score: 0.7, articleId: shared, teaser });
    await pick(builders, { title: 'Bridge bug explained', score: 0.9, articleId: shared, teaser });
    await pick(auditors, { title: 'Fuzzing & invariants', score: 0.8, teaser });
    const subscriber = {
      id: ulid(),
      email: `${ulid().toLowerCase()}@example.org`,
      status: 'subscribed' as const,
      audienceIds: [auditors.id, builders.id],
      firstAudienceId: auditors.id,
      createdAt: at(1),
      updatedAt: at(1),
    };
    await Subscribers.SubscriberEntity.create(subscriber).go();
    const digest = await issue(subscriber, { frequency: 'daily', ...DAY });
    const links = Subscribers.subscriberLinks(subscriber);

    const mail = await Newsletter.renderDigest(digest, links);

    expect(mail.subject).toBe(digest.subject);
    expect(mail.html).toContain('<html dir="ltr" lang="en">');
    expect(mail.html).toContain('@media (prefers-color-scheme: dark)');
    const escape = (s: string) => s.replaceAll('&', '&amp;');
    for (const story of storiesOf(digest)) {
      expect(mail.html).toContain(`href="${story.postUrl}"`);
      expect(mail.html).toContain(`href="${story.sourceUrl}"`);
      expect(mail.html).toContain(escape(story.title));
      expect(mail.text).toContain(`${story.title} ${story.postUrl}`);
      expect(mail.text).toContain(story.sourceUrl);
      for (const reason of story.reasons) {
        expect(mail.html).toContain(reason);
        expect(mail.text).toContain(reason);
      }
    }
    expect(storiesOf(digest)[0]!.reasons).toHaveLength(2);
    for (const url of [links.preferencesUrl, links.unsubscribeUrl]) {
      expect(mail.html).toContain(`href="${escape(url)}"`);
    }
    expect(mail.text).toContain(`Manage preferences ${links.preferencesUrl}`);
    expect(mail.text).toContain(`Unsubscribe ${links.unsubscribeUrl}`);
    expect(mail.text).toContain('Your daily Cluefeed'.toUpperCase());
    expect(mail.text).not.toMatch(/<[a-z!/][^>]*>/i);
    // The footer links are the subscriber's own signed links, not new tokens.
    const token = new URL(links.unsubscribeUrl).searchParams.get('subscriberHash');
    expect((await Subscribers.fromToken(token, ['manage'])).id).toBe(subscriber.id);
  });
});
