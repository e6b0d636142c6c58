// The one list of schedules: EventBridge rules in stacks/ and the local scheduler both read it.
export type Schedule = {
  id: 'import-articles' | 'score-articles' | 'recover-jobs';
  cron: string;
  description: string;
};

export const SCHEDULES: Schedule[] = [
  {
    id: 'import-articles',
    cron: '0 * * * *',
    description: 'Import articles from every stream, hourly',
  },
  {
    // Articles an import stored while scoring ran wait at most this long after that run ends.
    id: 'score-articles',
    cron: '*/15 * * * *',
    description:
      'Score articles left unscored, every 15 minutes (a run with nothing to do ends at once)',
  },
  { id: 'recover-jobs', cron: '*/5 * * * *', description: 'Re-queue jobs a crash left behind' },
];

/** A five-field cron as EventBridge writes it: six fields, '?' for one of the two day fields. */
export function toEventBridgeCron(cron: string): `cron(${string})` {
  const [minute, hour, dayOfMonth, month, dayOfWeek] = cron.trim().split(/\s+/);
  if (!minute || !hour || !dayOfMonth || !month || !dayOfWeek)
    throw new Error(`Not a 5-field cron: ${cron}`);
  // cron counts weekdays from Sunday = 0 (or 7); EventBridge from Sunday = 1.
  const weekdays = dayOfWeek.replace(/\d+/g, (day) => String((Number(day) % 7) + 1));
  const days =
    dayOfWeek === '*' ? [dayOfMonth, '?'] : [dayOfMonth === '*' ? '?' : dayOfMonth, weekdays];
  return `cron(${minute} ${hour} ${days[0]} ${month} ${days[1]} *)`;
}
