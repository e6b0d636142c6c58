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

const VERBS = { article: 'read', audio: 'listen', video: 'watch' } as const;

/** '6 min read', '40 min listen', '12 min watch'. */
export function duration(post: { minutes: number; type: keyof typeof VERBS }): string {
  return `${post.minutes} min ${VERBS[post.type]}`;
}

export function verb(type: keyof typeof VERBS): string {
  return VERBS[type];
}
