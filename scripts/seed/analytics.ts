// Demo analytics for `npm start`: a few subscriptions made today through the product itself
// (subscribe, confirm, choose audiences, vote for upcoming niches, suggest, unsubscribe), and four
// weeks of history before today written as the events those actions record, since past days
// cannot be lived again. The rollup job then turns both into the page's figures, as it does in
// production. Idempotent: a second run finds the first demo subscriber and writes nothing, and
// history events have fixed ids and times.
import * as Analytics from '#core/analytics';
import * as Audiences from '#core/audiences';
import * as Subscribers from '#core/subscribers';
import * as Suggestions from '#core/suggestions';

const HISTORY_DAYS = 28;
const DAY_MS = 86_400_000;

/** The campaigns of the demo: source, landing variant, and how many visits a day they bring. */
const CAMPAIGNS = [
  { utm: 'spring-launch', vus: '', visits: 40 },
  { utm: 'newsletter-swap', vus: 'sp', visits: 22 },
  { utm: 'podcast', vus: 'ip', visits: 12 },
  { utm: undefined, vus: '', visits: 30 },
] as const;

/** A small deterministic generator, so the demo's history is the same on every machine. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

export async function seedDemoAnalytics(): Promise<{ subscribers: number; historyEvents: number }> {
  const firstEmail = 'demo-reader-1@example.org';
  if (await Subscribers.byEmail(firstEmail)) return { subscribers: 0, historyEvents: 0 };
  const audiences = await Audiences.list();
  const active = audiences.filter((audience) => audience.state === 'active');
  const upcoming = audiences.filter((audience) => audience.state === 'upcoming');
  if (active.length < 2) return { subscribers: 0, historyEvents: 0 };

  const historyEvents = await seedHistory(
    active.map((audience) => audience.id),
    active.map((audience) => audience.slug),
  );

  // Today, through the product: eight subscriptions from the campaigns, six confirmed, one gone.
  let subscribers = 0;
  for (let i = 1; i <= 8; i++) {
    const campaign = CAMPAIGNS[i % CAMPAIGNS.length]!;
    const audience = active[i % active.length]!;
    const { subscriber } = await Subscribers.subscribe({
      email: i === 1 ? firstEmail : `demo-reader-${i}@example.org`,
      audienceId: audience.id,
      utm: campaign.utm,
      vus: campaign.vus,
      raud: i % 3 === 0 ? audience.slug : undefined,
    });
    subscribers++;
    if (i > 6) continue;
    const confirmToken = new URL(
      Subscribers.subscriberLinks(subscriber).confirmUrl,
    ).searchParams.get('subscriberHash');
    const confirmed = await Subscribers.confirm(confirmToken);
    const second = active[(i + 1) % active.length]!;
    if (i % 2 === 0)
      await Subscribers.setAudience(confirmed, { audienceId: second.id, subscribed: true });
    const niche = upcoming[i % Math.max(upcoming.length, 1)];
    const current = (await Subscribers.byId(subscriber.id))!;
    if (niche)
      await Subscribers.setShadowAudience(current, { audienceId: niche.id, subscribed: true });
    if (i === 5) await Subscribers.unsubscribe((await Subscribers.byId(subscriber.id))!);
  }
  for (const text of ['Bitcoin miners, DAO treasurers', 'Bitcoin miners'])
    await Suggestions.suggest({ text, source: 'after-niches' });
  return { subscribers, historyEvents };
}

/** A page view as a browser reports it, on a past day. */
export function pageView(
  id: string,
  at: string,
  path: string,
  tracking: { utm?: string; vus?: '' | 'sp' | 'ip'; raud?: string },
): Analytics.AnalyticsEvent {
  return {
    ...tracking,
    id,
    at,
    day: at.slice(0, 10),
    shard: Analytics.shardOf(id),
    name: 'page_view',
    path,
  };
}

/** Four weeks of the events the product records, one batch of puts per day. */
async function seedHistory(audienceIds: string[], slugs: string[]): Promise<number> {
  const next = seededRandom(42);
  const today = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
  let written = 0;
  for (let back = HISTORY_DAYS; back >= 1; back--) {
    const dayStart = today - back * DAY_MS;
    const events: Analytics.AnalyticsEvent[] = [];
    const at = (i: number) => new Date(dayStart + 8 * 3_600_000 + i * 61_000).toISOString();
    const growth = 1 + (HISTORY_DAYS - back) / HISTORY_DAYS; // traffic grows over the weeks
    let i = 0;
    for (const campaign of CAMPAIGNS) {
      const tracking = { utm: campaign.utm, vus: campaign.vus };
      const visits = Math.round(campaign.visits * growth * (0.7 + next() * 0.6));
      for (let v = 0; v < visits; v++) {
        const slug = slugs[Math.floor(next() * slugs.length)]!;
        events.push(
          pageView(`demo-${back}-${i}`, at(i++), `/a/${slug}`, {
            ...tracking,
            raud: next() < 0.3 ? slug : undefined,
          }),
        );
      }
      const subscribes = Math.round(visits * (0.08 + next() * 0.06));
      for (let s = 0; s < subscribes; s++) {
        const key = `demo:${back}:${campaign.utm ?? 'direct'}:${s}`;
        const audienceId = audienceIds[Math.floor(next() * audienceIds.length)]!;
        events.push(
          Analytics.eventItem({ name: 'subscribe', key, path: '/a', ...tracking }, at(i++)),
        );
        if (next() < 0.75)
          events.push(
            Analytics.eventItem(
              {
                name: 'subscription_confirmed',
                key,
                path: '/confirm-subscription',
                ...tracking,
                audienceIds: [audienceId],
              },
              at(i++),
            ),
          );
      }
    }
    if (next() < 0.5) {
      const audienceId = audienceIds[Math.floor(next() * audienceIds.length)]!;
      events.push(
        Analytics.eventItem(
          {
            name: 'unsubscribe',
            key: `demo:${back}`,
            path: '/unsubscribe',
            audienceIds: [audienceId],
          },
          at(i++),
        ),
      );
    }
    // Invited readers: invited, then most of them through the funnel over the next steps.
    for (let r = 0; r < 3; r++) {
      const key = `demo:${back}:${r}`;
      const steps = ['invited', 'funnel_started', 'onboarded', 'feed_first_visit'] as const;
      for (const [index, name] of steps.entries()) {
        if (index > 0 && next() < 0.2) break;
        events.push(
          Analytics.eventItem({ name, key, path: '/get-started', utm: 'invite-wave' }, at(i++)),
        );
      }
    }
    const active = Math.round(6 * growth + next() * 4);
    for (let r = 0; r < active; r++) {
      const key = `demo:${back}:${r}`;
      events.push(Analytics.eventItem({ name: 'reader_active', key, path: '/feed' }, at(i++)));
      if (next() < 0.6)
        events.push(Analytics.eventItem({ name: 'story_liked', key, path: '/feed' }, at(i++)));
      if (next() < 0.25)
        events.push(Analytics.eventItem({ name: 'story_disliked', key, path: '/feed' }, at(i++)));
      if (next() < 0.1)
        events.push(Analytics.eventItem({ name: 'clues_changed', key, path: '/feed' }, at(i++)));
    }
    await Analytics.AnalyticsEventEntity.put(events).go();
    written += events.length;
  }
  return written;
}
