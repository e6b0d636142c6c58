// `npm start`'s first demo issue, so the campaign analytics page's newsletter section has figures:
// the seed stores the demo posts' source articles and picks them for the demo subscribers'
// audiences (as 'Pick best content' would), then the real 'Send newsletters' job sends today's
// daily issue through the outbox, and some demo readers follow their stories' links through the
// product's click redirect. Only for kept data (`npm start` without --ephemeral): journeys count
// the stories of the issues they send themselves.
import { createHash } from 'node:crypto';
import { decodeTime } from 'ulid';
import { labelOf } from '#core/ai';
import * as Articles from '#core/articles';
import * as Audiences from '#core/audiences';
import * as Curation from '#core/curation';
import * as Jobs from '#core/jobs';
import * as Newsletter from '#core/newsletter';
import * as Stories from '#core/stories';
import * as Subscribers from '#core/subscribers';
import { audiences, posts } from './data';
import { seedId } from './index';

/** Demo readers who click (by their seed number), and how many of their stories each. */
const CLICKERS = { 1: 2, 2: 1, 3: 2, 4: 1, 6: 1 } as const;

/** Picks today for the audiences the demo subscribers follow: their two newest linked posts. */
export async function seedDemoPicks(): Promise<number> {
  const pickedAt = new Date(Date.now() - 3600_000).toISOString();
  const articleIds: string[] = [];
  for (const audience of audiences) {
    const audienceId = seedId(`audience:${audience.key}`);
    if ((await Audiences.byId(audienceId))?.state !== 'active') continue;
    const linked = posts
      .filter((post) => post.audience === audience.key && post.link)
      .sort((a, b) => (a.date < b.date ? 1 : -1))
      .slice(0, 2);
    for (const post of linked) {
      const canonicalUrl = post.link!.url;
      await Articles.storeIfNew({
        title: post.title,
        summary: post.teaser,
        publishedAt: post.date,
        source: post.link!.domain,
        streamId: seedId('stream:demo'),
        fingerprint: createHash('sha256').update(canonicalUrl).digest('hex'),
        canonicalUrl,
      });
      const article = (await Articles.byUrl(canonicalUrl))!;
      articleIds.push(article.id);
      await Curation.PickEntity.create({
        audienceId,
        articleId: article.id,
        postId: seedId(`post:${post.key}`),
        contentCardId: seedId(`demo-pick-card:${post.key}`),
        processId: seedId('demo-picks'),
        score: 0.85,
        label: labelOf(0.85),
        reason: `It is about what those who ${audience.title} follow.`,
        relevantClues: [audience.title],
        publishedAt: post.date,
        pickedAt,
      }).go();
    }
  }
  // Stored outside an import, so grouped here, as the import would (`npm start` shows stories).
  await Stories.joinArticles(articleIds);
  return articleIds.length;
}

/** Follows some of the demo readers' story links in today's issue, as those readers would. */
export async function clickDemoIssue(issueId: string): Promise<number> {
  const issue = await Newsletter.issueById(issueId);
  if (!issue) return 0;
  let clicks = 0;
  for (const [number, stories] of Object.entries(CLICKERS)) {
    const subscriber = await Subscribers.byEmail(`demo-reader-${number}@example.org`);
    const delivery = subscriber && (await Newsletter.deliveryOf(issueId, subscriber.id));
    if (!subscriber || delivery?.status !== 'sent') continue;
    // The stories of the audiences the daily issue carried for them (weekly ones wait).
    const daily = (await Audiences.byIds([...(subscriber.audienceIds ?? [])])).filter(
      (audience) => audience.frequency === 'daily' && issue.audienceIds.includes(audience.id),
    );
    const picks = await Promise.all(
      daily.map((audience) =>
        Curation.picksForAudience(audience.id, { from: issue.from, to: issue.to }),
      ),
    );
    for (const pick of picks.flat().slice(0, stories)) {
      const article = await Articles.byId(pick.articleId);
      if (!article) continue;
      const link = Newsletter.clickUrl({
        issueId,
        subscriberId: subscriber.id,
        articleId: article.id,
        url: article.canonicalUrl,
      });
      const token = new URL(link).pathname.slice('/r/'.length);
      const followed = await Newsletter.followClick(token, { ip: `demo-reader-${number}` });
      if (followed.counted !== 'not') clicks++;
    }
  }
  return clicks;
}

/**
 * Sends today's daily issue with the real job on the running worker, waits (at most `waitMs`) for
 * its e-mails to settle, then has the demo readers click. Answers the issue id, whether it was
 * done in time, and the clicks.
 */
export async function sendDemoIssue(systemUserId: string, waitMs = 180_000) {
  const process = await Jobs.enqueue(
    Newsletter.sendNewsletters,
    { frequency: 'daily' },
    systemUserId,
  );
  const issueId = Newsletter.periodIssueId('daily', decodeTime(process.id));
  const until = Date.now() + waitMs;
  while ((await Newsletter.issueById(issueId))?.status !== 'done') {
    if (Date.now() > until) return { issueId, done: false, clicks: 0 };
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  return { issueId, done: true, clicks: await clickDemoIssue(issueId) };
}
