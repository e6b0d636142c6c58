// Clicks through an issue's links, counted without a tracking pixel: each story link in a digest
// points at `/r/{token}`, a redirect whose signed token carries the issue, the reader, the story
// and the target. The target comes only from the token, so nobody can point the redirect
// elsewhere (no open redirect), and a link cannot be altered without breaking its signature.
import { randomBytes } from 'node:crypto';
import { createWriteTransaction, type EntityItem } from 'electrodb';
import * as v from 'valibot';
import * as Analytics from '#core/analytics';
import { fn, VisibleError } from '#core/common';
import { config } from '#core/config';
import { isConditionFailure } from '#core/db';
import { logger } from '#core/logs';
import * as RateLimit from '#core/rate-limit';
import * as Tokens from '#core/tokens';
import { ClickEntity } from './click-entity';
import { NewsletterIssueEntity } from './issue-entity';
import { StoryClicksEntity } from './story-clicks-entity';

export type StoryClicks = EntityItem<typeof StoryClicksEntity>;

/**
 * How long a link in an issue keeps working: a year. Readers open an issue weeks or months after
 * it was sent (a saved e-mail, a forwarded one), and a dead link loses them; the token grants
 * nothing but a redirect to a URL we chose and one count, so a long life costs little.
 */
export const CLICK_LINK_TTL_SECONDS = 365 * 24 * 3600;

export const INVALID_CLICK_LINK_MESSAGE = 'This link is not valid';

/** Attempts when the click's transaction collides with another click on the same issue. */
const CONFLICT_ATTEMPTS = 4;

// Ids become parts of a key: no '#', nothing a key could be confused by.
const Id = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/, 'Not an id'));

// Checked on its own too: valibot runs every check of a pipe, even after `url` failed.
function isHttpUrl(url: string): boolean {
  return URL.canParse(url) && ['http:', 'https:'].includes(new URL(url).protocol);
}

const TargetUrl = v.pipe(
  v.string(),
  v.maxLength(2048, 'A link in an issue must be at most 2,048 characters'),
  v.url('A link in an issue must be an absolute URL'),
  v.check(isHttpUrl, 'A link in an issue must be an http or https URL'),
);

export const ClickInput = v.object({
  issueId: Id,
  subscriberId: Id,
  articleId: Id,
  url: TargetUrl,
});
export type Click = v.InferOutput<typeof ClickInput>;

/** What the token's subject holds, in this order. */
const ClickSubject = v.tuple([Id, Id, Id, TargetUrl]);

/**
 * The link a digest uses instead of `url`: `{PUBLIC_URL}/r/{token}`. Throws valibot's ValiError
 * (as the digest template does for its props) on a URL that is not http(s), so a send records that
 * delivery failed instead of retrying what would fail again.
 */
export function clickUrl(input: v.InferInput<typeof ClickInput>): string {
  const click = v.parse(ClickInput, input);
  const subject = JSON.stringify([
    click.issueId,
    click.subscriberId,
    click.articleId,
    new URL(click.url).href,
  ]);
  const token = Tokens.sign('click', CLICK_LINK_TTL_SECONDS, subject);
  return new URL(`/r/${token}`, config().PUBLIC_URL).toString();
}

/** How a followed link was counted; 'not': the issue is gone, the caller only checked, or too many. */
export type Counted = 'unique' | 'repeat' | 'not';
export type FollowedClick = { url: string; counted: Counted };

/**
 * Who follows the link: `ip` for the per-address limit; `peek` for a request that only checks
 * the link (HEAD, as link checkers send), which redirects without counting.
 */
export type ClickFrom = { ip: string; peek?: boolean };

const notValid = () => new VisibleError('click.invalid_link', INVALID_CLICK_LINK_MESSAGE, 400);

/** The click a token names; a forged, altered, expired or malformed token is a 400. */
function clickOf(token: unknown): Click {
  if (typeof token !== 'string' || token.length > 4096) throw notValid();
  const verified = Tokens.verify('click', token);
  if (!verified.ok || !verified.subject) throw notValid();
  let subject: unknown;
  try {
    subject = JSON.parse(verified.subject);
  } catch {
    throw notValid();
  }
  const parsed = v.safeParse(ClickSubject, subject);
  if (!parsed.success) throw notValid();
  const [issueId, subscriberId, articleId, url] = parsed.output;
  return { issueId, subscriberId, articleId, url };
}

/**
 * Follows a link from an issue: answers its target and counts the click on the issue (`clicks`
 * always, `uniqueClicks` the first time this reader clicks this story). Counting never stands
 * between the reader and the story: an issue that no longer exists, a caller past the limit or a
 * table that fails still gets the target, uncounted.
 */
export async function followClick(token: unknown, from: ClickFrom): Promise<FollowedClick> {
  const click = clickOf(token);
  if (from.peek) return { url: click.url, counted: 'not' };
  try {
    const { allowed } = await RateLimit.attempt(RateLimit.LIMITS.clicksPerIp, from.ip);
    return { url: click.url, counted: allowed ? await count(click) : 'not' };
  } catch (error) {
    logger.error('A click could not be counted', { error, issueId: click.issueId });
    return { url: click.url, counted: 'not' };
  }
}

/**
 * The reader's first click on the story, in one transaction with both counts of the issue and of
 * the story; if the reader clicked it before, a repeat (`clicks` of both), also one transaction.
 * Each carries its `newsletter_click` event. A click on an issue that is gone counts nothing.
 */
async function count(click: Click): Promise<Counted> {
  if ((await countOnce(click, 'unique')) === 'committed') return 'unique';
  // A condition failed: the reader clicked this story before, or the issue is gone. The repeat
  // adds to the issue's `clicks` only where it exists, which tells the two apart.
  return (await countOnce(click, 'repeat')) === 'committed' ? 'repeat' : 'not';
}

/**
 * One click's transaction, tried again when it collided with another click on the same issue;
 * 'conditionFailed' when a condition refused it (nothing was written).
 */
async function countOnce(click: Click, kind: 'unique' | 'repeat') {
  const { issueId, subscriberId, articleId } = click;
  const unique = kind === 'unique';
  const added = unique ? { clicks: 1, uniqueClicks: 1 } : { clicks: 1 };
  for (let attempt = 1; ; attempt++) {
    const now = Date.now();
    const clickedAt = new Date(now).toISOString();
    // The first click is once per (issue, reader, story); every repeat is an event of its own.
    const key = unique
      ? `${issueId}:${subscriberId}:${articleId}`
      : `${issueId}:${subscriberId}:${articleId}:${clickedAt}:${randomBytes(6).toString('base64url')}`;
    const result = await createWriteTransaction(
      {
        click: ClickEntity,
        issue: NewsletterIssueEntity,
        story: StoryClicksEntity,
        event: Analytics.AnalyticsEventEntity,
      },
      (entities) => [
        ...(unique
          ? [
              entities.click
                .create({
                  issueId,
                  subscriberId,
                  articleId,
                  clickedAt,
                  // Outlives every link that could count it: those were signed before this click.
                  expiresAt: Math.ceil(now / 1000) + CLICK_LINK_TTL_SECONDS,
                })
                .commit(),
            ]
          : []),
        entities.issue.patch({ id: issueId }).add(added).commit(),
        entities.story.update({ issueId, articleId }).add(added).commit(),
        entities.event
          .create(
            Analytics.eventItem(
              { name: 'newsletter_click', key, path: '/r', issueId, articleId },
              clickedAt,
            ),
          )
          .commit(),
      ],
    )
      .go()
      .catch((error: unknown) => {
        if (isConditionFailure(error)) return { canceled: true, conditionFailed: true } as const;
        throw error;
      });
    if (!result.canceled) return 'committed';
    // Why each of its writes was refused (the optional click write leaves the item type unknown).
    const reasons: readonly { code?: string }[] = 'data' in result ? result.data : [];
    const codes = reasons.map((item) => item.code);
    if ('conditionFailed' in result || codes.includes('ConditionalCheckFailed')) {
      return 'conditionFailed';
    }
    if (attempt >= CONFLICT_ATTEMPTS) {
      throw new Error(`The click's transaction was cancelled (${codes.join(', ')})`);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 50 * attempt));
  }
}

/** An issue's clicks story by story (campaign figures): one Query of its story counters. */
export const storyClicks = fn(Id, async (issueId): Promise<StoryClicks[]> => {
  const { data } = await StoryClicksEntity.query.byIssue({ issueId }).go({ pages: 'all' });
  return data;
});
