// The proof that a page was served: a signed token the page carries (the root loader renders it),
// naming a fresh id, the path and the tracking values of the address it was served at. A page
// view is counted only with one, once per id (ADR 0048), so counts cannot grow faster than pages
// are fetched, and a campaign's visits only by pages served with that campaign.
import { decodeTime } from 'ulid';
import * as v from 'valibot';
import { trackingFrom, TrackingSchema, VisibleError, type Tracking } from '#core/common';
import { monotonicUlid } from '#core/ids';
import * as Tokens from '#core/tokens';

/**
 * How long a served page may wait before reporting its view. Under the rollup's commit lag (five
 * minutes, COMMIT_LAG_MS), so a view stamped with its page's time is never behind the watermark.
 */
export const PAGE_VIEW_TOKEN_SECONDS = 4 * 60;

/** What a token vouches for: one page served at `at`, at this path with these values. */
export type ServedPage = Tracking & { id: string; at: string; path: string };

const nextId = monotonicUlid();

const Subject = v.object({ id: v.string(), path: v.string(), ...TrackingSchema.entries });

/** A stored path's length at most (a longer one names no page of ours: a 404). */
const MAX_PATH = 500;

/** The token for the page served at `url` (its path and tracking values; nothing else). */
export function pageViewToken(url: string | URL, now = Date.now()): string {
  const { pathname, searchParams } = new URL(url);
  const subject = {
    id: nextId(now),
    path: pathname.slice(0, MAX_PATH),
    ...trackingFrom(searchParams),
  };
  return Tokens.sign('page-view', PAGE_VIEW_TOKEN_SECONDS, JSON.stringify(subject), now);
}

export const PAGE_VIEW_TOKEN_MESSAGES = {
  invalid: 'This page view has no valid proof that its page was served',
  expired: 'This page view came too late: reload the page',
} as const;

/** The page a token vouches for, or a 400 saying why it vouches for none. */
export function servedPage(token: string, now = Date.now()): ServedPage {
  const verified = Tokens.verify('page-view', token, now);
  if (!verified.ok)
    throw new VisibleError(
      'input.invalid',
      verified.reason === 'expired'
        ? PAGE_VIEW_TOKEN_MESSAGES.expired
        : PAGE_VIEW_TOKEN_MESSAGES.invalid,
    );
  // Signed by us, so it parses; a failure would be a bug, not the visitor's doing.
  const subject = v.parse(Subject, JSON.parse(verified.subject ?? 'null'));
  return { ...subject, at: new Date(decodeTime(subject.id)).toISOString() };
}
