// Formatting shared by server and browser (UTC, so both render the same text).
const dateFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

export function formatDate(iso: string): string {
  return dateFormat.format(new Date(iso));
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (value: number) => String(value).padStart(2, '0');

/**
 * A moment as the admin panel writes it everywhere: '3 Jan 2026, 14:05 UTC' ('14:05:09' where a
 * log line needs the second). Written by hand, not by Intl: ICU versions differ in separators,
 * and the server and every browser must write the same text. Text that is no time stays as it is.
 */
export function formatTime(iso: string, { seconds = false }: { seconds?: boolean } = {}): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const time = `${two(at.getUTCHours())}:${two(at.getUTCMinutes())}`;
  return `${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()}, ${time}${
    seconds ? `:${two(at.getUTCSeconds())}` : ''
  } UTC`;
}

/** A span of time, e.g. an issue's content window: '22 Nov 2026, 09:00 UTC – 23 Nov 2026, 09:00 UTC'. */
export const formatSpan = (from: string, to: string) => `${formatTime(from)} – ${formatTime(to)}`;

const VERBS = { article: 'read', audio: 'listen', video: 'watch' } as const;

/** '6 min read', '40 min listen', '12 min watch'. */
export function duration(post: { minutes: number; type: keyof typeof VERBS }): string {
  return `${post.minutes} min ${VERBS[post.type]}`;
}

export function verb(type: keyof typeof VERBS): string {
  return VERBS[type];
}
