// How the campaign pages write an issue's window and why a subscriber gets no issue.
import type { SKIP_COUNTS, SkipReason } from '#core/newsletter';
import { formatSpan } from './format';

/** An issue's state in words. */
export const ISSUE_STATUS: Record<string, string> = {
  scheduled: 'Scheduled',
  sending: 'Sending',
  done: 'Done',
  cancelled: 'Cancelled',
};

/** Where an issue came from: the daily or weekly schedule (or 'Send newsletters'), or the setup page. */
export const ISSUE_ORIGIN: Record<string, string> = {
  schedule: 'Schedule',
  campaign: 'Campaign',
};

/** An issue's content window, e.g. '22 Nov 2026, 09:00 UTC – 23 Nov 2026, 09:00 UTC'. */
export const issueWindow = (issue: { from: string; to: string }) =>
  formatSpan(issue.from, issue.to);

const REASONS: Record<string, string> = {
  'no audiences': 'they follow none of the chosen audiences at this frequency',
  'no picks': 'nothing was picked for their audiences in this window',
  'not confirmed': 'they have not confirmed their subscription',
  pending: 'they have not confirmed their subscription',
  unsubscribed: 'they unsubscribed',
  cleaned: 'their address bounced and was cleaned',
};

/** Why the send would skip a subscriber, in words. */
export const skipReason = (why: string) => REASONS[why] ?? why;

/** Each of an issue's skip counts (SKIP_COUNTS) in a few words. */
const SKIPPED_FOR: Record<(typeof SKIP_COUNTS)[SkipReason], string> = {
  skippedNotConfirmed: 'not confirmed',
  skippedUnsubscribed: 'unsubscribed',
  skippedCleaned: 'address bounced',
  skippedNoAudiences: 'following none of its audiences',
  skippedNoPicks: 'nothing picked for them',
  skippedGone: 'subscriber deleted',
  skippedChangedAddress: 'address changed',
};

/**
 * How many were skipped and why, from an issue's (or a send's) counts: '2 (unsubscribed)',
 * '3 (2 unsubscribed, 1 not confirmed)', or with a word after the number: '2 skipped
 * (unsubscribed)'. Skips counted before their reasons were have no reason to give.
 */
export function skippedBreakdown(
  counts: Readonly<Record<string, unknown>>,
  skipped: number,
  word = '',
): string {
  const total = `${skipped.toLocaleString('en-GB')}${word && ` ${word}`}`;
  const reasons = Object.entries(SKIPPED_FOR).flatMap(([name, words]) => {
    const value = counts[name];
    return typeof value === 'number' && value > 0 ? [{ value, words }] : [];
  });
  const other = skipped - reasons.reduce((sum, reason) => sum + reason.value, 0);
  if (other > 0 && reasons.length > 0) reasons.push({ value: other, words: 'other' });
  if (reasons.length === 0) return total;
  const parts =
    reasons.length === 1
      ? reasons[0]!.words
      : reasons.map(({ value, words }) => `${value.toLocaleString('en-GB')} ${words}`).join(', ');
  return `${total} (${parts})`;
}
