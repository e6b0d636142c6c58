// One-click like/dislike links of a private feed's items: HMAC-signed, bound to the reader, the
// feed URL they were served under, the story and the kind, and expiring. Following one only opens
// a page; the vote is recorded by the POST of that page's button (mail and link scanners GET).
import { createHmac, timingSafeEqual } from 'node:crypto';
import * as v from 'valibot';
import { config } from '#core/config';
import { FEEDBACK_KINDS } from '#core/feed';

/** A link works for at least this long after the feed that carried it was served. */
export const VOTE_LINK_PERIOD_SECONDS = 7 * 24 * 3600;
/**
 * Links expire at the end of the period after the one they were served in, so a feed's document is
 * the same all period long (its ETag names the period) and a link works for 7 to 14 days.
 */
export const VOTE_LINK_PERIODS = 2;

export const VoteInput = v.object({
  reader: v.pipe(v.string(), v.regex(/^[0-9A-Z]{26}$/)),
  feed: v.pipe(v.string(), v.regex(/^[0-9A-Z]{26}$/)),
  story: v.pipe(v.string(), v.regex(/^[0-9A-Za-z_-]{1,64}$/)),
  kind: v.picklist(FEEDBACK_KINDS),
  expires: v.pipe(v.string(), v.regex(/^\d{1,12}$/)),
  signature: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{43}$/)),
});

export type Vote = v.InferOutput<typeof VoteInput>;
type Unsigned = Omit<Vote, 'signature' | 'expires'>;

/** The key that signs vote links: its own secret, or one derived from APP_SECRET for this use only. */
function signingKey(): string {
  const settings = config();
  return (
    settings.READER_FEED_SECRET ??
    createHmac('sha256', settings.APP_SECRET).update('cluefeed reader-feed votes').digest('hex')
  );
}

function signatureOf(vote: Unsigned & { expires: string }): string {
  const payload = ['vote', vote.reader, vote.feed, vote.story, vote.kind, vote.expires].join('\n');
  return createHmac('sha256', signingKey()).update(payload).digest('base64url');
}

/** The period (a number) a moment falls in: the feed's documents are the same within one. */
export const periodOf = (now: number) => Math.floor(now / 1000 / VOTE_LINK_PERIOD_SECONDS);
export const periodStart = (period: number) => period * VOTE_LINK_PERIOD_SECONDS * 1000;

/** The query string of a signed vote link served during `period`. */
export function voteQuery(vote: Unsigned, period: number): string {
  const expires = String((period + VOTE_LINK_PERIODS) * VOTE_LINK_PERIOD_SECONDS);
  const signed = { ...vote, expires, signature: signatureOf({ ...vote, expires }) };
  return new URLSearchParams(signed).toString();
}

/** The vote a link's query names, when it is well-formed, signed by us and not expired. */
export function verifiedVote(query: URLSearchParams, now = Date.now()): Vote | undefined {
  const parsed = v.safeParse(VoteInput, Object.fromEntries(query));
  if (!parsed.success) return undefined;
  const vote = parsed.output;
  if (Number(vote.expires) * 1000 <= now) return undefined;
  const expected = Buffer.from(signatureOf(vote));
  const given = Buffer.from(vote.signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  return vote;
}
