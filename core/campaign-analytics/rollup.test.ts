// The rollup against DynamoDB Local, in a table of its own (a day's events are all this file's):
// after a burst of concurrent writes and a rollup that crashes part-way, the day's figures equal a
// recount of the stored events and of the stored subscribers.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ulid } from 'ulid';
import * as Analytics from '#core/analytics';
import * as Worker from '#core/worker';
import * as CampaignAnalytics from '#core/campaign-analytics';
import * as Jobs from '#core/jobs';
import * as Subscribers from '#core/subscribers';
import { createAudience } from '#tests/integration/factories';
import { receive } from '#tests/integration/job-queue';
import { useOwnTable } from '#tests/integration/own-table';
import { daysToCount, RECOUNT_DAYS } from './rollup';

useOwnTable('rollup');

const today = () => new Date().toISOString().slice(0, 10);
const address = (name: string) => `${name}-${ulid().toLowerCase()}@example.org`;
const tokenOf = (url: string) => new URL(url).searchParams.get('subscriberHash')!;

afterEach(() => vi.restoreAllMocks());

/** Runs a rollup through the job runtime; `crash` makes the first attempt of its chunk fail. */
async function rollUp({ crashChunk = false, crashEnd = false } = {}) {
  const process = await Jobs.enqueue(CampaignAnalytics.rollUpAnalytics, {}, 'scheduler');
  await Jobs.handleBatch(await receive(process.id), Worker.jobs);
  const chunks = await receive(process.id);
  if (crashChunk) {
    // The chunk dies right after storing a day's counts, before its checkpoint.
    const upsert = CampaignAnalytics.DayRollupEntity.upsert.bind(CampaignAnalytics.DayRollupEntity);
    vi.spyOn(CampaignAnalytics.DayRollupEntity, 'upsert').mockImplementationOnce((item) => {
      const write = upsert(item);
      const go = write.go.bind(write);
      write.go = (async (options: Parameters<typeof go>[0]) => {
        await go(options);
        throw new Error('crashed in the middle of the rollup');
      }) as typeof go;
      return write;
    });
    for (const message of chunks) await Jobs.handleBatch([message], Worker.jobs);
    vi.restoreAllMocks();
    expect((await Jobs.byId(process.id))!.status).not.toBe('Success');
  }
  if (crashEnd) {
    // The run dies after carrying the totals forward, before the watermark moves.
    vi.spyOn(CampaignAnalytics.RollupWatermarkEntity, 'upsert').mockImplementationOnce(() => {
      throw new Error('crashed before the watermark moved');
    });
  }
  // The redelivered chunk (or the only delivery) runs to its end.
  for (const message of chunks) await Jobs.handleBatch([message], Worker.jobs);
  vi.restoreAllMocks();
  let ended = (await Jobs.byId(process.id))!;
  if (crashEnd) {
    expect(ended.status).not.toBe('Success');
    // Recovery finds the run whose chunks all succeeded and runs its end again.
    await Jobs.recover(Date.now() + Jobs.STALE_AFTER_MS + 1000, Worker.jobs);
    for (const message of await receive(process.id)) await Jobs.handleBatch([message], Worker.jobs);
    ended = (await Jobs.byId(process.id))!;
  }
  expect(ended.status).toBe('Success');
  return ended;
}

/** Today's stored figures, as the page reads them. */
async function todays() {
  const [day] = await CampaignAnalytics.daysStored(today(), today(), { consistent: true });
  return day;
}

describe('counting events', () => {
  it('counts each funnel step by campaign and by referrer, and folds rare campaigns together', () => {
    const at = new Date().toISOString();
    const events = [
      ...Array.from({ length: CampaignAnalytics.DAY_CAPS.utm + 5 }, (_, i) =>
        Analytics.eventItem({ name: 'subscribe', key: `s${i}`, path: '/a/x', utm: `u${i}` }, at),
      ),
      Analytics.eventItem({ name: 'subscribe', key: 'again', path: '/a/x', utm: 'u0', vus: 'sp' }),
      Analytics.eventItem({
        name: 'subscription_confirmed',
        key: 'c',
        path: '/confirm-subscription',
        raud: 'defi',
        audienceIds: ['A', 'B'],
      }),
      Analytics.eventItem({ name: 'unsubscribe', key: 'u', path: '/u', audienceIds: ['B'] }),
      Analytics.eventItem({ name: 'niche_voted', key: 'v1', path: '/s', audienceIds: ['N'] }),
      Analytics.eventItem({ name: 'niche_voted', key: 'v2', path: '/s', audienceIds: ['N'] }),
      Analytics.eventItem({ name: 'niche_unvoted', key: 'v3', path: '/s', audienceIds: ['N'] }),
      Analytics.eventItem({ name: 'audience_suggested', key: 'g', path: '/s', text: ' DAO Ops ' }),
      Analytics.eventItem({
        name: 'newsletter_click',
        key: 'k',
        path: '/c',
        issueId: 'I',
        articleId: 'X',
      }),
      Analytics.eventItem({ name: 'reader_active', key: 'r', path: '/feed' }),
      Analytics.eventItem({ name: 'story_liked', key: 'l', path: '/feed' }),
    ];
    const counts = CampaignAnalytics.countEvents(events);
    const subscribes = Object.entries(counts.campaigns).filter(([key]) =>
      key.startsWith('subscribe\t'),
    );
    // u0 is the most frequent; 50 values kept, the 5 rarest (by name among equals) folded.
    expect(counts.campaigns['subscribe\tu0\tsp']).toBe(1);
    expect(counts.campaigns['subscribe\tu0\t']).toBe(1);
    expect(counts.campaigns[`subscribe\t${CampaignAnalytics.OTHER}\t`]).toBe(5);
    expect(subscribes.reduce((sum, [, n]) => sum + n, 0)).toBe(CampaignAnalytics.DAY_CAPS.utm + 6);
    expect(counts.campaigns['confirm\t\t']).toBe(1);
    expect(counts.referrers['confirm\tdefi']).toBe(1);
    expect(counts.joined).toEqual({ A: 1, B: 1 });
    expect(counts.left).toEqual({ B: 1 });
    expect(counts.votes).toEqual({ N: 1 });
    expect(counts.suggestions).toEqual({ 'dao ops': 1 });
    expect(counts.clicks).toEqual({ 'I\tX': 1 });
    expect(counts.readers).toEqual({ active: 1, likes: 1, dislikes: 0, clueChanges: 0 });
  });
});

describe('capping what visitors send', () => {
  it('keeps a campaign that brought subscriptions before made-up values seen more often', () => {
    const at = new Date().toISOString();
    const madeUp = Array.from({ length: CampaignAnalytics.DAY_CAPS.utm + 10 }, (_, i) =>
      Array.from({ length: 5 }, (_, view) => ({
        ...Analytics.eventItem({ name: 'subscribe', key: `x${i}:${view}`, path: '/' }, at),
        name: 'page_view',
        utm: `made-up-${i}`,
      })),
    ).flat();
    const real = [
      { ...Analytics.eventItem({ name: 'subscribe', key: 'v', path: '/' }, at), name: 'page_view' },
      Analytics.eventItem({ name: 'subscribe', key: 'real', path: '/a/x' }, at),
    ].map((event) => ({ ...event, utm: 'spring' }));
    const counts = CampaignAnalytics.countEvents([...madeUp, ...real]);
    expect(counts.campaigns['visit\tspring\t']).toBe(1);
    expect(counts.campaigns['subscribe\tspring\t']).toBe(1);
    // 49 made-up values kept beside it, the rest counted together.
    expect(counts.campaigns[`visit\t${CampaignAnalytics.OTHER}\t`]).toBe(11 * 5);
  });
});

describe('the rollup', () => {
  it('equals a recount of the stored events and subscribers after a burst and a crash', async () => {
    const home = await createAudience({ title: 'audit smart contracts' });
    const other = await createAudience({ title: 'collect on-chain art' });
    // A burst: page views, subscribes (two of the same address at once), confirms clicked twice
    // at once, unsubscribes, audience toggles.
    const views = Array.from({ length: 30 }, (_, i) => {
      const served = new URL(`http://localhost/a/${home.slug}`);
      const utm = ['spring', 'autumn', undefined][i % 3];
      if (utm) served.searchParams.set('utm', utm);
      served.searchParams.set('vus', ['', 'sp', 'ip'][i % 3]!);
      if (i % 2) served.searchParams.set('raud', home.slug);
      return Analytics.recordPageView({
        name: 'page_view',
        token: Analytics.pageViewToken(served),
      });
    });
    const emails = Array.from({ length: 8 }, (_, i) => address(`r${i}`));
    const subscribes = emails.flatMap((email, i) =>
      [0, 1].map(() =>
        Subscribers.subscribe({
          email,
          audienceId: home.id,
          utm: i % 2 ? 'spring' : undefined,
          vus: i % 2 ? 'sp' : '',
        }).catch(() => undefined),
      ),
    );
    await Promise.all([...views, ...subscribes]);
    const people = await Promise.all(emails.map((email) => Subscribers.byEmail(email)));
    await Promise.all(
      people.slice(0, 6).flatMap((person) => {
        const token = tokenOf(Subscribers.subscriberLinks(person!).confirmUrl);
        return [0, 1].map(() => Subscribers.confirm(token).catch(() => undefined));
      }),
    );
    const confirmed = await Promise.all(people.map((person) => Subscribers.byId(person!.id)));
    await Promise.all([
      ...confirmed.slice(0, 2).map((person) => Subscribers.unsubscribe(person!)),
      ...confirmed
        .slice(2, 5)
        .map((person) =>
          Subscribers.setAudience(person!, { audienceId: other.id, subscribed: true }),
        ),
    ]);

    const firstRun = await rollUp({ crashChunk: true });
    const events = await Analytics.forDay(today());
    const item = await todays();
    expect(item?.counts).toEqual(CampaignAnalytics.countEvents(events));

    // The recount of stored state: each address subscribed once, confirmed once.
    const counts = item!.counts!;
    const stepTotal = (step: string) =>
      Object.entries(counts.campaigns)
        .filter(([key]) => key.startsWith(`${step}\t`))
        .reduce((sum, [, n]) => sum + n, 0);
    expect(stepTotal('visit')).toBe(30);
    expect(stepTotal('subscribe')).toBe(emails.length);
    const stored = await Promise.all(people.map((person) => Subscribers.byId(person!.id)));
    expect(stepTotal('confirm')).toBe(stored.filter((s) => s!.confirmedAt).length);
    expect(counts.campaigns['subscribe\tspring\tsp']).toBe(
      stored.filter((s) => s!.utm === 'spring').length,
    );
    // Subscribers per audience at the day's end equal the confirmed subscribers holding it.
    const holding = (audienceId: string) =>
      stored.filter(
        (s) => s!.status === 'subscribed' && [...(s!.audienceIds ?? [])].includes(audienceId),
      ).length;
    expect(item!.subscribers).toEqual({
      [home.id]: holding(home.id),
      [other.id]: holding(other.id),
    });
    expect((await CampaignAnalytics.watermark())?.processId).toBe(firstRun.id);

    // Later events and a rollup that crashes before it moves the watermark: recounted, not added.
    await Subscribers.unsubscribe((await Subscribers.byId(people[3]!.id))!);
    await rollUp({ crashEnd: true });
    const again = await todays();
    const after = await Promise.all(people.map((person) => Subscribers.byId(person!.id)));
    expect(again?.counts).toEqual(CampaignAnalytics.countEvents(await Analytics.forDay(today())));
    expect(again!.subscribers).toEqual({
      [home.id]: after.filter(
        (s) => s!.status === 'subscribed' && [...(s!.audienceIds ?? [])].includes(home.id),
      ).length,
      [other.id]: after.filter(
        (s) => s!.status === 'subscribed' && [...(s!.audienceIds ?? [])].includes(other.id),
      ).length,
    });
  }, 120_000);
});

describe('what the rollup recounts', () => {
  it('never reaches back further than the page views it counts are kept', async () => {
    const now = Date.now();
    const DAY = 86_400_000;
    const setWatermark = (through: number) =>
      CampaignAnalytics.RollupWatermarkEntity.put({
        through: new Date(through).toISOString(),
        processId: ulid(),
        rolledAt: new Date().toISOString(),
      }).go();
    try {
      // A rollup that stopped 40 days ago resumes RECOUNT_DAYS back, not at its watermark.
      await setWatermark(now - 40 * DAY);
      const days = await daysToCount(now);
      expect(days[0]).toBe(new Date(now - RECOUNT_DAYS * DAY).toISOString().slice(0, 10));
      expect(days.at(-1)).toBe(today());
      // A view served at the first instant of the oldest day recounted outlives the run by a day.
      const oldestView = Date.parse(`${days[0]}T00:00:00Z`);
      expect(oldestView + Analytics.PAGE_VIEW_RETENTION_DAYS * DAY).toBeGreaterThan(now + DAY);
      // A rollup on time recounts from its watermark's day.
      await setWatermark(now - 10 * 60_000);
      expect((await daysToCount(now))[0]).toBe(
        new Date(now - 10 * 60_000).toISOString().slice(0, 10),
      );
    } finally {
      await CampaignAnalytics.RollupWatermarkEntity.delete({}).go();
    }
  });
});
