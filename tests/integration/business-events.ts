// The business events (core/analytics) a test caused: a day's events whose id names the test's
// own user, story or other id, so other tests' events on the same table never count.
import * as Analytics from '#core/analytics';

const today = () => new Date().toISOString().slice(0, 10);

/** Events of `day` (today by default) whose id contains `id`, oldest first. */
export async function eventsNaming(id: string, day = today()): Promise<Analytics.AnalyticsEvent[]> {
  return (await Analytics.forDay(day)).filter((event) => event.id.includes(id));
}

/** The names of those events, oldest first. */
export async function eventNamesNaming(id: string, day = today()): Promise<string[]> {
  return (await eventsNaming(id, day)).map((event) => event.name);
}
