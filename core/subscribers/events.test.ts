// The business events of subscriptions: each is written in the transaction of the change it
// records, so it is there exactly once when the change commits and not at all when the change is
// refused, and the audience figures summed from events equal a recount of the subscribers.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ulid } from 'ulid';
import * as Analytics from '#core/analytics';
import * as Audiences from '#core/audiences';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { isVisibleError } from '#core/common';
import { db } from '#core/db';
import { mailingList } from '#core/mailing-list';
import * as Subscribers from '#core/subscribers';
import { createAudience, uniqueSlug } from '#tests/integration/factories';
import { useOwnTable } from '#tests/integration/own-table';
import * as Races from '#tests/integration/races';

// A day's events are read whole: a table of its own keeps them to this file's.
useOwnTable('subscriber-events');

const TIMEOUT_MS = 120_000;
const address = () => `reader-${ulid().toLowerCase()}@example.org`;
const tokenOf = (url: string) => new URL(url).searchParams.get('subscriberHash')!;

beforeEach(() => {
  // The mailing list is not what these tests are about: a provider that accepts everything.
  const list = mailingList();
  vi.spyOn(list, 'upsertMember').mockResolvedValue(undefined);
  vi.spyOn(list, 'updateTags').mockResolvedValue(undefined);
  vi.spyOn(list, 'setStatus').mockResolvedValue(undefined);
});
afterEach(() => vi.restoreAllMocks());

/** 'ok', or the code of the VisibleError the request answered with; anything else is a bug. */
async function outcome(action: Promise<unknown>): Promise<string> {
  try {
    await action;
    return 'ok';
  } catch (error) {
    if (isVisibleError(error)) return error.code;
    throw error;
  }
}

let home: Audiences.Audience;
let other: Audiences.Audience;
let third: Audiences.Audience;
beforeAll(async () => {
  [home, other, third] = await Promise.all([
    createAudience({ tag: uniqueSlug('tag') }),
    createAudience({ tag: uniqueSlug('tag') }),
    createAudience({ tag: uniqueSlug('tag') }),
  ]);
});

/** Every business event of a subscriber (their id is in each event's key), oldest first. */
async function eventsOf(subscriberId: string): Promise<Analytics.AnalyticsEvent[]> {
  const today = new Date().toISOString().slice(0, 10);
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const days = await Promise.all([yesterday, today].map((day) => Analytics.forDay(day)));
  return days.flat().filter((event) => event.id.includes(`:${subscriberId}:`));
}

const named = (events: Analytics.AnalyticsEvent[], name: Analytics.EventName) =>
  events.filter((event) => event.name === name);

/**
 * The confirmed members of an audience as the events count them: a confirmation counts each of its
 * audiences, an added audience one, and a removal, an unsubscribe or an address change takes off
 * what they name.
 */
function counted(events: Analytics.AnalyticsEvent[], audienceId: string): number {
  const sign: Partial<Record<Analytics.EventName, number>> = {
    subscription_confirmed: 1,
    audience_added: 1,
    audience_removed: -1,
    unsubscribe: -1,
    address_changed: -1,
  };
  return events
    .filter((event) => event.audienceIds?.includes(audienceId))
    .reduce((sum, event) => sum + (sign[event.name as Analytics.EventName] ?? 0), 0);
}

/** The same figure recounted from what is stored: 1 when confirmed and holding the audience. */
async function recounted(subscriberId: string, audienceId: string): Promise<number> {
  const now = (await Subscribers.byId(subscriberId))!;
  return now.status === 'subscribed' && [...(now.audienceIds ?? [])].includes(audienceId) ? 1 : 0;
}

async function figuresAgree(subscriberId: string) {
  const events = await eventsOf(subscriberId);
  for (const audience of [home, other, third]) {
    expect(counted(events, audience.id), audience.title).toBe(
      await recounted(subscriberId, audience.id),
    );
  }
}

/** A subscriber of `home` (confirmed if asked) and their links' tokens. */
async function reader({ confirmed = false } = {}) {
  const email = address();
  const { subscriber, assembleToken } = await Subscribers.subscribe({
    email,
    audienceId: home.id,
    utm: 'launch',
    raud: 'defi',
    vus: 'sp',
  });
  const links = Subscribers.subscriberLinks(subscriber);
  const tokens = {
    confirm: tokenOf(links.confirmUrl),
    manage: tokenOf(links.preferencesUrl),
    assemble: assembleToken!,
  };
  if (confirmed) await Subscribers.confirm(tokens.confirm);
  return { id: subscriber.id, email, tokens };
}
type Reader = Awaited<ReturnType<typeof reader>>;

const manage = (r: Reader) => Subscribers.fromToken(r.tokens.manage, ['manage']);
const toggle = async (r: Reader, audience: Audiences.Audience, subscribed: boolean) =>
  Subscribers.setAudience(await manage(r), { audienceId: audience.id, subscribed });

describe('subscription events', () => {
  it('records one subscribe for a new address, with the tracking of the visit', async () => {
    const r = await reader();
    const events = await eventsOf(r.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      name: 'subscribe',
      path: `/a/${home.slug}`,
      utm: 'launch',
      raud: 'defi',
      vus: 'sp',
    });
    expect(events[0]!.audienceIds).toBeUndefined();
  });

  it('records no subscribe for a repeated subscribe of a pending address, and one when a subscriber who left comes back', async () => {
    const r = await reader();
    await Subscribers.subscribe({ email: r.email, audienceId: other.id, utm: 'again' });
    expect(named(await eventsOf(r.id), 'subscribe')).toHaveLength(1);

    await Subscribers.unsubscribe(await manage(r));
    await Subscribers.subscribe({ email: r.email, audienceId: third.id, utm: 'comeback' });
    const subscribes = named(await eventsOf(r.id), 'subscribe');
    expect(subscribes.map((event) => event.utm)).toEqual(['launch', 'comeback']);
    expect(subscribes[1]).toMatchObject({ path: `/a/${third.slug}` });
  });

  it('records one subscribe when one new address is subscribed several times at once', async () => {
    const email = address();
    const answers = await Promise.all(
      [home, other, third].map((audience) =>
        outcome(Subscribers.subscribe({ email, audienceId: audience.id })),
      ),
    );
    expect(answers.filter((answer) => answer === 'ok').length).toBeGreaterThan(0);
    const subscriber = (await Subscribers.byEmail(email))!;
    expect(named(await eventsOf(subscriber.id), 'subscribe')).toHaveLength(1);
  });

  it('records one subscription_confirmed when one link confirms several times at once, naming the audiences', async () => {
    const r = await reader();
    await toggle(r, other, true);
    expect(
      await Promise.all([1, 2, 3].map(() => outcome(Subscribers.confirm(r.tokens.confirm)))),
    ).toEqual(['ok', 'ok', 'ok']);
    const confirmed = named(await eventsOf(r.id), 'subscription_confirmed');
    expect(confirmed).toHaveLength(1);
    expect(confirmed[0]).toMatchObject({
      path: '/confirm-subscription',
      audienceIds: [home.id, other.id].sort(),
      utm: 'launch',
    });
    await figuresAgree(r.id);
  });

  it(
    'confirm × toggles: the confirmation names exactly the audiences stored when it landed, so the figures equal a recount',
    async () => {
      await Races.rounds(Races.EVERY_OFFSET, async (race) => {
        const r = await reader();
        const [confirmed, added, removed] = await race(
          () => outcome(Subscribers.confirm(r.tokens.confirm)),
          () => outcome(toggle(r, other, true)),
          () => outcome(toggle(r, home, false)),
        );
        expect(confirmed).toBe('ok');
        for (const answer of [added, removed])
          expect(['ok', 'subscriber.changed']).toContain(answer);
        const events = await eventsOf(r.id);
        const [confirmation, ...more] = named(events, 'subscription_confirmed');
        expect(more).toEqual([]);
        // Before the confirmation a toggle changes only what it will count; after it (the manage
        // link still works) it is an audience_added or audience_removed of its own.
        const updates = named(events, 'preferences_updated');
        expect(updates).toHaveLength([added, removed].filter((answer) => answer === 'ok').length);
        const toggles = [...named(events, 'audience_added'), ...named(events, 'audience_removed')];
        expect(toggles.map((event) => event.at).sort()).toEqual(
          updates.map((event) => event.at).filter((at) => at > confirmation!.at),
        );
        await figuresAgree(r.id);
      });
    },
    TIMEOUT_MS,
  );

  for (const [change, name] of [
    ['confirmation', 'subscription_confirmed'],
    ['unsubscribe', 'unsubscribe'],
    ['address change', 'address_changed'],
  ] as const) {
    it(`makes the ${change} again when a toggle lands between its read and its write, naming the audiences it applied to`, async () => {
      const r = await reader({ confirmed: change !== 'confirmation' });
      // The toggle lands just before the change's first transaction reaches the table.
      const { client } = db();
      const send = client.send.bind(client);
      let attempts = 0;
      vi.spyOn(client, 'send').mockImplementation((async (command: unknown) => {
        const ours =
          command instanceof TransactWriteCommand && JSON.stringify(command.input).includes(name);
        if (ours && ++attempts === 1) {
          await toggle(r, other, true);
        }
        return send(command as never);
      }) as never);
      const subscriber = await manage(r);
      if (change === 'confirmation') await Subscribers.confirm(r.tokens.confirm);
      else if (change === 'unsubscribe') await Subscribers.unsubscribe(subscriber);
      else await Subscribers.changeEmail(subscriber, address());
      vi.mocked(client.send).mockRestore();

      expect(attempts).toBe(2);
      const [made, ...more] = named(await eventsOf(r.id), name);
      expect(more).toEqual([]);
      expect(made!.audienceIds).toEqual([home.id, other.id].sort());
      await figuresAgree(r.id);
    });
  }

  it('records audience_added / audience_removed only for a confirmed subscription, and nothing for a toggle already so', async () => {
    const pending = await reader();
    await toggle(pending, other, true);
    let events = await eventsOf(pending.id);
    expect(named(events, 'audience_added')).toEqual([]);
    expect(named(events, 'preferences_updated')).toHaveLength(1);

    const r = await reader({ confirmed: true });
    await toggle(r, other, true);
    await toggle(r, other, true);
    await toggle(r, home, false);
    await toggle(r, home, false);
    events = await eventsOf(r.id);
    expect(named(events, 'audience_added').map((event) => event.audienceIds)).toEqual([[other.id]]);
    expect(named(events, 'audience_removed').map((event) => event.audienceIds)).toEqual([
      [home.id],
    ]);
    expect(named(events, 'preferences_updated')).toHaveLength(2);
    await figuresAgree(r.id);
  });

  it('records one audience_added when the same toggle is sent several times at once', async () => {
    const r = await reader({ confirmed: true });
    const answers = await Promise.all([1, 2, 3, 4].map(() => outcome(toggle(r, other, true))));
    expect(answers).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(named(await eventsOf(r.id), 'audience_added')).toHaveLength(1);
    await figuresAgree(r.id);
  });

  it(
    'toggles of two audiences at once on a confirmed subscription: both land, each with its event',
    async () => {
      await Races.rounds(Races.EVERY_OFFSET, async (race) => {
        const r = await reader({ confirmed: true });
        expect(
          await race(
            () => outcome(toggle(r, other, true)),
            () => outcome(toggle(r, third, true)),
          ),
        ).toEqual(['ok', 'ok']);
        const added = named(await eventsOf(r.id), 'audience_added');
        expect(added.map((event) => event.audienceIds![0]).sort()).toEqual(
          [other.id, third.id].sort(),
        );
        await figuresAgree(r.id);
      });
    },
    TIMEOUT_MS,
  );

  it('records one unsubscribe per departure: the confirmed audiences it leaves, none for a pending one', async () => {
    const r = await reader({ confirmed: true });
    await toggle(r, other, true);
    const subscriber = await manage(r);
    await Promise.all([Subscribers.unsubscribe(subscriber), Subscribers.unsubscribe(subscriber)]);
    const [left, ...more] = named(await eventsOf(r.id), 'unsubscribe');
    expect(more).toEqual([]);
    expect(left).toMatchObject({ path: '/unsubscribe', audienceIds: [home.id, other.id].sort() });
    await figuresAgree(r.id);

    const pending = await reader();
    await Subscribers.unsubscribe(await manage(pending));
    const [gone] = named(await eventsOf(pending.id), 'unsubscribe');
    expect(gone!.audienceIds).toBeUndefined();
  });

  it(
    'unsubscribe × toggle on a confirmed subscription: the unsubscribe takes off the audiences stored when it landed',
    async () => {
      await Races.rounds(Races.EVERY_OFFSET, async (race) => {
        const r = await reader({ confirmed: true });
        const [left, toggled] = await race(
          () => outcome(manage(r).then(Subscribers.unsubscribe)),
          () => outcome(toggle(r, other, true)),
        );
        expect(left).toBe('ok');
        const events = await eventsOf(r.id);
        const [departure, ...more] = named(events, 'unsubscribe');
        expect(more).toEqual([]);
        // A toggle that landed first is counted in what the unsubscribe takes off; one that lands
        // after it (the manage link still works) counts nothing.
        const added = named(events, 'audience_added');
        expect(departure!.audienceIds).toEqual(
          [home.id, ...(added.length > 0 ? [other.id] : [])].sort(),
        );
        for (const event of added) expect(event.at < departure!.at).toBe(true);
        expect(named(events, 'preferences_updated')).toHaveLength(toggled === 'ok' ? 1 : 0);
        await figuresAgree(r.id);
      });
    },
    TIMEOUT_MS,
  );

  it('records address_changed when the address changes: the confirmed audiences become pending', async () => {
    const r = await reader({ confirmed: true });
    await Subscribers.changeEmail(await manage(r), address());
    const [moved] = named(await eventsOf(r.id), 'address_changed');
    expect(moved).toMatchObject({ path: '/subscription', audienceIds: [home.id] });
    await figuresAgree(r.id);

    // Refused (the address is taken): no event.
    const taken = await reader();
    const mover = await reader();
    await expect(Subscribers.changeEmail(await manage(mover), taken.email)).rejects.toMatchObject({
      code: 'subscriber.email_taken',
    });
    expect(named(await eventsOf(mover.id), 'address_changed')).toEqual([]);
  });
});

describe('upcoming niche votes', () => {
  it(
    'keeps the niche votes equal to the subscribers holding it, whatever runs at once',
    async () => {
      const niche = await createAudience({ tag: uniqueSlug('tag'), state: 'upcoming' });
      const readers = await Promise.all([1, 2, 3].map(() => reader({ confirmed: true })));
      const vote = async (r: Reader, subscribed: boolean) =>
        outcome(
          manage(r).then((subscriber) =>
            Subscribers.setShadowAudience(subscriber, { audienceId: niche.id, subscribed }),
          ),
        );
      // Each reader votes three times at once, then two of them withdraw twice at once.
      const votes = await Promise.all(readers.flatMap((r) => [1, 2, 3].map(() => vote(r, true))));
      expect(votes.every((answer) => answer === 'ok')).toBe(true);
      const withdrawals = await Promise.all(
        readers.slice(0, 2).flatMap((r) => [vote(r, false), vote(r, false)]),
      );
      expect(withdrawals.every((answer) => answer === 'ok')).toBe(true);

      const holding = (await Promise.all(readers.map((r) => Subscribers.byId(r.id)))).filter(
        (subscriber) => [...(subscriber!.shadowAudienceIds ?? [])].includes(niche.id),
      );
      expect(holding).toHaveLength(1);
      expect((await Audiences.byId(niche.id))!.votes).toBe(holding.length);

      const events = (await Promise.all(readers.map((r) => eventsOf(r.id)))).flat();
      expect(named(events, 'niche_voted')).toHaveLength(3);
      expect(named(events, 'niche_unvoted')).toHaveLength(2);
      for (const event of [...named(events, 'niche_voted'), ...named(events, 'niche_unvoted')])
        expect(event.audienceIds).toEqual([niche.id]);
    },
    TIMEOUT_MS,
  );

  it('starts a new audience with no votes', async () => {
    const created = await createAudience({ state: 'upcoming' });
    expect((await Audiences.byId(created.id))!.votes).toBe(0);
  });
});
