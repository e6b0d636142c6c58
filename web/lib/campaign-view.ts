// How the campaign pages write times, windows and why a subscriber gets no issue.

/** An ISO time as the admin panel shows it: 'YYYY-MM-DD HH:MM UTC'. */
export const utc = (iso?: string) => (iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : '');

/** An issue's content window, e.g. '2026-11-22 09:00 – 2026-11-23 09:00 UTC'. */
export const issueWindow = (issue: { from: string; to: string }) =>
  `${issue.from.slice(0, 16).replace('T', ' ')} – ${utc(issue.to)}`;

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
