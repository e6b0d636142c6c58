// The private feed URL's secret: `cff_{readerId}_{43 random characters}`. The reader's id in it is
// not secret; it lets one BatchGetItem read the reader's feed item and the reader's record together.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** What every feed key starts with, so a leaked one is recognised (secret scanners, logs). */
export const FEED_KEY_PREFIX = 'cff_';

const KEY_SHAPE = new RegExp(`^${FEED_KEY_PREFIX}([0-9A-Z]{26})_[A-Za-z0-9_-]{43}$`);

export const hashOf = (key: string) => createHash('sha256').update(key).digest('hex');

export function newKey(userId: string): string {
  return `${FEED_KEY_PREFIX}${userId}_${randomBytes(32).toString('base64url')}`;
}

/** The reader a well-formed key names; undefined for anything else. */
export function readerIdOf(key: string): string | undefined {
  return KEY_SHAPE.exec(key)?.[1];
}

/** Whether `key` hashes to `secretHash`, in constant time. */
export function keyMatches(key: string, secretHash: string): boolean {
  const given = Buffer.from(hashOf(key), 'hex');
  const stored = Buffer.from(secretHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/** Where the three documents of a key are served. */
export function feedPaths(key: string) {
  return {
    rss: `/reader-feed/${key}/feed.xml`,
    json: `/reader-feed/${key}/feed.json`,
    opml: `/reader-feed/${key}/subscriptions.opml`,
  };
}

/**
 * For log lines: every private feed key in a path, a URL or a text quoting one (a refusal's
 * reason) replaced, as in `/reader-feed/[redacted]/feed.xml` (the vote page has none). In any
 * case: the router matches `/READER-FEED/...` too.
 */
export function redactedKeys(text: string): string {
  return text.replace(
    /\/reader-feed\/(?!vote(?:[/\s"'?]|$))[^/\s"'?]+/gi,
    '/reader-feed/[redacted]',
  );
}
