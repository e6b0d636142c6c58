// The one list of schedules: EventBridge schedules in stacks/ and the local scheduler both read it;
// core/worker's runSchedule does each one's work.
export type Schedule = {
  id:
    | 'import-articles'
    | 'score-articles'
    | 'send-daily-newsletter'
    | 'send-weekly-newsletter'
    | 'start-scheduled-campaigns'
    | 'roll-up-analytics'
    | 'recover-jobs';
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
  {
    // The period's issue, so a second run the same day (or an early 'Send newsletters') sends
    // nobody a second copy. Three turns: one that finds another send running is caught up by the
    // next; a turn after the day's issue is done does nothing.
    id: 'send-daily-newsletter',
    cron: '0,20,40 7 * * *',
    description: 'Send the daily issue from 07:00 UTC: the picks since the last daily issue',
  },
  {
    id: 'send-weekly-newsletter',
    cron: '10,30,50 7 * * 1',
    description: 'Send the weekly issue on Mondays from 07:10 UTC: the picks since the last one',
  },
  {
    id: 'start-scheduled-campaigns',
    cron: '* * * * *',
    description: 'Start the campaigns scheduled on the setup page whose time has come',
  },
  {
    // The campaign analytics page shows figures at most this old (and says when they were made).
    id: 'roll-up-analytics',
    cron: '*/10 * * * *',
    description:
      'Roll the analytics events of the days since the last rollup up into daily figures',
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
