// Readers' private feed URLs (ADR 0061): their ranked stories as RSS 2.0 and JSON Feed 1.1 for any
// reader app, at a secret URL the reader turns on, rotates and turns off from /account. The table
// keeps the secret's SHA-256 only, so the URL is shown once, when it is made.
import { createHash } from 'node:crypto';
import { createWriteTransaction, type EntityItem } from 'electrodb';
import * as v from 'valibot';
import { RELEVANCE_LABELS, type RelevanceLabel } from '#core/ai';
import * as Articles from '#core/articles';
import * as Auth from '#core/auth';
import { parse, VisibleError } from '#core/common';
import { ulid } from '#core/ids';
import { committed, committedOrRaced, getTogether, type ItemRead } from '#core/db';
import * as Feed from '#core/feed';
import * as RateLimit from '#core/rate-limit';
import * as Users from '#core/users';
import { jsonFeedOf, opmlOf, rssOf, type FeedDocument } from './documents';
import { ReaderFeedEntity } from './entity';
import { feedPaths, hashOf, keyMatches, newKey, readerIdOf } from './urls';
import { periodOf, periodStart, verifiedVote, voteQuery, type Vote } from './votes';

export { ReaderFeedEntity };
export { feedPaths, redactedKeys } from './urls';
export { VOTE_LINK_PERIOD_SECONDS, type Vote } from './votes';

/** Stories a feed document holds: what a reader app shows, the best first. */
export const FEED_ITEMS = 50;
export const VOTE_PATH = '/reader-feed/vote';

/**
 * Reader apps poll every quarter of an hour or so, a reader may have a few of them: a URL asked far
 * more often was leaked or is a runaway script. Counted per URL (its key's hash), 304s included.
 */
export const FEED_URL_LIMIT: RateLimit.Limit = {
  bucket: 'reader-feed-url',
  max: 30,
  windowSeconds: 600,
};

export const READER_FEED_MESSAGES = {
  alreadyOn: 'Your private feed is already on. Rotate it to get a new address.',
  changed:
    'Your private feed was changed at the same time somewhere else. Please look at it again before you change it.',
  readerGone: 'Your account can no longer have a private feed',
  badRating: Feed.FEED_MESSAGES.badRating,
  voteNotValid: 'This like or dislike link is not valid any more',
  // The limit counts per address: someone else holding a leaked one can keep it refused, and only
  // a new address ends that.
  tooOften: `This feed address was asked for too often. Please wait ${FEED_URL_LIMIT.windowSeconds / 60} minutes and try again. If it keeps happening, someone else may have this address: choose Rotate address on your account page to get a new one.`,
} as const;

/** The reader's private feed as /account shows it: never the secret, never its hash. */
export type ReaderFeedState = { on: false } | { on: true; id: string; createdAt: string };

/** A URL just made: the only time its key is known. */
export type MadeFeed = { key: string; id: string; createdAt: string };

const FeedId = v.pipe(v.string(), v.regex(/^[0-9A-Z]{26}$/));

function shown(item: EntityItem<typeof ReaderFeedEntity> | null | undefined): ReaderFeedState {
  return item ? { on: true, id: item.id, createdAt: item.createdAt } : { on: false };
}

/** The reader's private feed: one GetItem. */
export async function stateOf(userId: string): Promise<ReaderFeedState> {
  const { data } = await ReaderFeedEntity.get({ userId }).go({ consistent: true });
  return shown(data);
}

function feedRead(userId: string): ItemRead<EntityItem<typeof ReaderFeedEntity>> {
  return {
    key: ReaderFeedEntity.get({ userId }).params().Key,
    parse: (item) => ReaderFeedEntity.parse({ Item: item }).data ?? undefined,
  };
}

const changed = () => new VisibleError('reader_feed.changed', READER_FEED_MESSAGES.changed, 409);

/**
 * Writes a new URL for the reader: created where they have none (`from` undefined), or put in place
 * of the one whose id is `from`, conditioned on the reader's record being active and on their feed
 * item being as the page showed it, so of two rotations at once one lands and the other is a 409.
 */
async function writeUrl(userId: string, from: string | undefined, now: number): Promise<MadeFeed> {
  const key = newKey(userId);
  const made = {
    userId,
    id: ulid(now),
    secretHash: hashOf(key),
    createdAt: new Date(now).toISOString(),
  };
  // A collision with another write to the reader (a like at that moment) is tried again.
  const landed = await committedOrRaced(
    createWriteTransaction(
      { users: Users.UserEntity, feeds: ReaderFeedEntity },
      ({ users, feeds }) => [
        users
          .check({ id: userId })
          .where((attr, op) => op.eq(attr.isActive, true))
          .commit(),
        feeds
          .put(made)
          .where((attr, op) => (from ? op.eq(attr.id, from) : op.notExists(attr.id)))
          .commit(),
      ],
    ),
  );
  if (landed) return { key, id: made.id, createdAt: made.createdAt };
  const [user, current] = await getTogether(Users.userRead(userId), feedRead(userId));
  if (!user?.isActive) {
    throw new VisibleError('reader_feed.reader_gone', READER_FEED_MESSAGES.readerGone, 403);
  }
  if (!from && current) {
    throw new VisibleError('reader_feed.already_on', READER_FEED_MESSAGES.alreadyOn, 409);
  }
  throw changed();
}

/** Turns the reader's private feed on: a new URL, where they have none. */
export async function turnOn(userId: string, now = Date.now()): Promise<MadeFeed> {
  return writeUrl(userId, undefined, now);
}

/** Rotates the URL whose id the reader's page showed: the old URL stops working at once. */
export async function rotate(userId: string, fromId: string, now = Date.now()): Promise<MadeFeed> {
  if (!v.is(FeedId, fromId)) throw changed();
  return writeUrl(userId, fromId, now);
}

/**
 * Turns the private feed off: the URL whose id the page showed is deleted (conditioned on it). A
 * feed already off changes nothing; one rotated meanwhile elsewhere is a 409.
 */
export async function turnOff(userId: string, fromId: string): Promise<{ changed: boolean }> {
  if (!v.is(FeedId, fromId)) throw changed();
  const removed = await committed(
    ReaderFeedEntity.delete({ userId }).where((attr, op) => op.eq(attr.id, fromId)),
  );
  if (removed) return { changed: true };
  if ((await stateOf(userId)).on) throw changed();
  return { changed: false };
}

/** Only a reader who may sign in has a working feed (ADR 0023's rule for sessions and tokens). */
function mayUse(user: Users.User | undefined): user is Users.User {
  return Boolean(user && user.isActive && user.passwordHash && user.role === Auth.ROLES.USER);
}

/**
 * The reader a key opens and the URL's id, or undefined (malformed, unknown, rotated, turned off,
 * a reader who may not sign in); `allowed` says whether the URL's rate limit let this request
 * through. One BatchGetItem of the feed item, the reader's record and the URL's rate windows, then
 * the count's one conditional write (only for a URL that opens: a guessed key writes nothing).
 */
async function open(key: string, now: number) {
  const userId = readerIdOf(key);
  if (!userId) return undefined;
  const hashed = hashOf(key);
  const [feed, user, windows] = await getTogether(
    feedRead(userId),
    Users.userRead(userId),
    RateLimit.windowsRead(FEED_URL_LIMIT, hashed),
  );
  if (!feed || !keyMatches(key, feed.secretHash) || !mayUse(user)) return undefined;
  const { allowed } = await RateLimit.attempt(FEED_URL_LIMIT, hashed, now, { windows });
  return { feed, user, allowed };
}

export const FORMATS = ['rss', 'json', 'opml'] as const;
export type Format = (typeof FORMATS)[number];

const CONTENT_TYPES: Record<Format, string> = {
  rss: 'application/rss+xml; charset=utf-8',
  json: 'application/feed+json; charset=utf-8',
  opml: 'text/x-opml; charset=utf-8',
};

export const ServeInput = v.object({
  key: v.string(),
  format: v.picklist(FORMATS),
  ratings: v.optional(v.array(v.picklist(RELEVANCE_LABELS, READER_FEED_MESSAGES.badRating)), []),
  ifNoneMatch: v.optional(v.string()),
  ifModifiedSince: v.optional(v.string()),
  /** The site's origin, for absolute links. */
  origin: v.string(),
});

export type Served =
  | { status: 404 }
  | { status: 429; headers: Record<string, string>; body: string }
  | { status: 304; headers: Record<string, string> }
  | { status: 200; headers: Record<string, string>; body: string };

const lastModifiedOf = (user: Users.User, period: number) =>
  Math.max(user.feedBuiltAt ? Date.parse(user.feedBuiltAt) : 0, periodStart(period));

/** A weak ETag naming what the document is made of: the build, the period, the format and ratings. */
function etagOf(
  user: Users.User,
  feedId: string,
  format: Format,
  ratings: RelevanceLabel[],
  period: number,
) {
  const ratingsPart = createHash('sha256')
    .update(ratings.join('|'))
    .digest('base64url')
    .slice(0, 10);
  return `W/"${user.feedBuild ?? 'none'}.${feedId}.${period}.${format}.${ratingsPart}"`;
}

/** Whether a conditional GET may be answered 304 (If-None-Match wins over If-Modified-Since). */
function notModified(
  etag: string,
  lastModified: number,
  ifNoneMatch?: string,
  ifModifiedSince?: string,
) {
  if (ifNoneMatch !== undefined) {
    const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
    return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
  }
  if (ifModifiedSince === undefined) return false;
  const since = Date.parse(ifModifiedSince);
  return !Number.isNaN(since) && Math.floor(lastModified / 1000) <= Math.floor(since / 1000);
}

/**
 * A document of the private feed at `key`. Cheap for polling reader apps: one BatchGetItem (the
 * feed item and the reader's record, whose build names the list), answered 304 from it alone when
 * the reader app holds this build's document; otherwise one Query of the list's page (with the
 * default ratings, or ratings that are one run of bands; each further run of bands is one more).
 */
export async function serve(
  rawInput: v.InferInput<typeof ServeInput>,
  now = Date.now(),
): Promise<Served> {
  const input = parse(ServeInput, rawInput);
  const opened = await open(input.key, now);
  if (!opened) return { status: 404 };
  const { feed, user, allowed } = opened;
  if (!allowed) {
    // A sliding window frees room little by little: a whole window later there is room for sure.
    const retryAfter = String(FEED_URL_LIMIT.windowSeconds);
    return {
      status: 429,
      headers: { 'Retry-After': retryAfter },
      body: READER_FEED_MESSAGES.tooOften,
    };
  }
  const paths = feedPaths(input.key);
  const title = `Cluefeed · ${user.name}`;
  const homeUrl = new URL('/feed', input.origin).toString();
  const selfUrl = new URL(paths[input.format], input.origin).toString();
  const headers = { 'Cache-Control': 'private, no-cache', 'Referrer-Policy': 'no-referrer' };
  if (input.format === 'opml') {
    const rssUrl = new URL(paths.rss, input.origin).toString();
    return {
      status: 200,
      headers: {
        ...headers,
        'Content-Type': CONTENT_TYPES.opml,
        'Content-Disposition': 'attachment; filename="cluefeed.opml"',
      },
      body: opmlOf({ title, homeUrl, selfUrl: rssUrl }),
    };
  }
  const ratings =
    input.ratings.length > 0 ? [...new Set(input.ratings)] : Feed.defaultRatings(user);
  const period = periodOf(now);
  const lastModified = lastModifiedOf(user, period);
  const etag = etagOf(user, feed.id, input.format, ratings, period);
  const validators = { ETag: etag, 'Last-Modified': new Date(lastModified).toUTCString() };
  if (notModified(etag, lastModified, input.ifNoneMatch, input.ifModifiedSince)) {
    return { status: 304, headers: { ...headers, ...validators } };
  }
  const { stories } = await Feed.page(user, { ratings, limit: FEED_ITEMS });
  const voteUrl = (articleId: string, kind: Feed.Feedback['kind']) =>
    new URL(
      `${VOTE_PATH}?${voteQuery({ reader: user.id, feed: feed.id, story: articleId, kind }, period)}`,
      input.origin,
    ).toString();
  const document: FeedDocument = {
    title,
    homeUrl,
    selfUrl,
    jsonUrl: new URL(paths.json, input.origin).toString(),
    updatedAt: new Date(lastModified),
    items: stories.map((story) => ({
      ...story,
      likeUrl: voteUrl(story.articleId, 'like'),
      dislikeUrl: voteUrl(story.articleId, 'dislike'),
    })),
  };
  return {
    status: 200,
    headers: { ...headers, ...validators, 'Content-Type': CONTENT_TYPES[input.format] },
    body: input.format === 'rss' ? rssOf(document) : jsonFeedOf(document),
  };
}

/**
 * The reader and story a vote link names, while the link is signed, unexpired and its feed URL
 * still the reader's (a rotation or a turn-off voids the links it served); undefined otherwise.
 */
export async function voteOf(query: URLSearchParams, now = Date.now()) {
  const vote = verifiedVote(query, now);
  if (!vote) return undefined;
  const [feed, user, feedback, article] = await getTogether(
    feedRead(vote.reader),
    Users.userRead(vote.reader),
    feedbackRead(vote.reader, vote.story),
    Articles.articleRead(vote.story),
  );
  if (!feed || feed.id !== vote.feed || !mayUse(user) || !article) return undefined;
  return { vote, title: article.title, recorded: feedback?.kind === vote.kind };
}

function feedbackRead(
  userId: string,
  articleId: string,
): ItemRead<EntityItem<typeof Feed.FeedbackEntity>> {
  return {
    key: Feed.FeedbackEntity.get({ userId, articleId }).params().Key,
    parse: (item) => Feed.FeedbackEntity.parse({ Item: item }).data ?? undefined,
  };
}

/**
 * Records the vote a link names (the POST of its page), through the feed's own feedback operation:
 * the same write, rebuild and analytics as a like or dislike on /feed. A link no longer valid is a 404.
 */
export async function recordVote(
  query: URLSearchParams,
  now = Date.now(),
): Promise<{ vote: Vote; title: string }> {
  const found = await voteOf(query, now);
  if (!found)
    throw new VisibleError('reader_feed.vote_not_valid', READER_FEED_MESSAGES.voteNotValid, 404);
  const { vote } = found;
  const { article } = await Feed.giveFeedback(vote.reader, {
    articleId: vote.story,
    kind: vote.kind,
  });
  return { vote, title: article.title };
}
