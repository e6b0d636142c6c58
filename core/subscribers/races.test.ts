// Two subscriber actions at the same moment, for every pair: each request reads the subscriber
// from its own link and acts, as a route does, and Promise.all starts both together. Every round
// checks what is stored (status, address, claims, audience members, queued e-mails) and what the
// mailing list was told, against the answers the two requests got.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ulid } from 'ulid';
import type { Audience } from '#core/audiences';
import { isVisibleError } from '#core/common';
import { mailingList, type MemberStatus, type TagChange } from '#core/mailing-list';
import * as Outbox from '#core/outbox';
import * as Subscribers from '#core/subscribers';
import { createAudience, uniqueSlug } from '#tests/integration/factories';
import { useOwnTable } from '#tests/integration/own-table';
import * as Races from '#tests/integration/races';

// Hundreds of confirmation e-mails stay queued here: they must not reach the outbox runs of other
// files sharing the worker's table.
useOwnTable('subscriber-races');

const ROUNDS = Races.EVERY_OFFSET;
const TIMEOUT_MS = 120_000;

const address = (name: string) => `${name}-${ulid().toLowerCase()}@example.org`;
const tokenOf = (url: string) => new URL(url).searchParams.get('subscriberHash')!;

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

/** The two answers a losing request may get: its link was retired, or the state it read is gone. */
const REFUSED = ['subscriber.changed', 'subscriber.invalid_link'];

// What the mailing list was told, in order, once the outbox delivered the mirror's messages (a spy
// that records is the provider here).
type MirrorCall =
  | { email: string; member: { status: MemberStatus; tags: string[] } }
  | { email: string; tags: TagChange[] }
  | { email: string; status: MemberStatus };
let told: MirrorCall[] = [];

beforeEach(() => {
  told = [];
  const list = mailingList();
  vi.spyOn(list, 'upsertMember').mockImplementation(async ({ email, status, tags }) => {
    told.push({ email, member: { status, tags } });
  });
  vi.spyOn(list, 'updateTags').mockImplementation(async (email, tags) => {
    told.push({ email, tags });
  });
  vi.spyOn(list, 'setStatus').mockImplementation(async (email, status) => {
    told.push({ email, status });
  });
});
afterEach(() => vi.restoreAllMocks());

/** Delivers the mailing-list messages queued for an address, oldest first, as the worker would. */
async function mirrorDelivered(email: string) {
  const messages = (await queuedTo(email, Date.now() - 3_600_000, 'mailing-list')).filter(
    ({ status }) => status === 'queued',
  );
  for (const { id } of messages.sort((a, b) => a.id.localeCompare(b.id))) await Outbox.deliver(id);
}

/** What the mailing list was told about an address, once its messages were delivered. */
async function toldAbout(email: string): Promise<MirrorCall[]> {
  await mirrorDelivered(email);
  return told.filter((call) => call.email === email);
}

/**
 * The member the mailing list holds for an address after every message delivered. An upsert only
 * adds tags (as the Mailchimp adapter does); a tag goes with an explicit 'inactive'.
 */
async function mirrored(email: string): Promise<{ status?: MemberStatus; tags: Set<string> }> {
  const member: { status?: MemberStatus; tags: Set<string> } = { tags: new Set() };
  for (const call of await toldAbout(email)) {
    if ('member' in call) {
      member.status = call.member.status;
      for (const tag of call.member.tags) member.tags.add(tag);
    } else if ('tags' in call) {
      for (const { name, status } of call.tags) {
        if (status === 'active') member.tags.add(name);
        else member.tags.delete(name);
      }
    } else member.status = call.status;
  }
  return member;
}

let home: Audience;
let other: Audience;
let third: Audience;
let niche: Audience;
beforeAll(async () => {
  // Tags of their own, so the mailing list's tags tell the audiences apart.
  const tag = () => uniqueSlug('tag');
  [home, other, third, niche] = await Promise.all([
    createAudience({ tag: tag() }),
    createAudience({ tag: tag() }),
    createAudience({ tag: tag() }),
    createAudience({ tag: tag(), state: 'upcoming', featured: false }),
  ]);
});

/** A subscriber of `home` (confirmed if asked) and every link they hold. */
async function reader({ confirmed = false } = {}) {
  const email = address('reader');
  const { subscriber, assembleToken } = await Subscribers.subscribe({
    email,
    audienceId: home.id,
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

// The actions as the routes run them: read the subscriber from the request's link, then act.
const manage = (token: string) => Subscribers.fromToken(token, ['manage']);
const act = {
  confirm: (r: Reader) => Subscribers.confirm(r.tokens.confirm),
  move: async (r: Reader, to: string) => Subscribers.changeEmail(await manage(r.tokens.manage), to),
  leave: async (r: Reader) => Subscribers.unsubscribe(await manage(r.tokens.manage)),
  /** The preferences page's toggle (a `manage` link), adding `audience`. */
  prefer: async (r: Reader, audience = other) =>
    Subscribers.setAudience(await manage(r.tokens.manage), {
      audienceId: audience.id,
      subscribed: true,
    }),
  /** SelectMoreAudiences' toggle with the `assemble` link, adding `audience`. */
  assemble: async (r: Reader, audience = other) =>
    Subscribers.setAudience(
      await Subscribers.fromToken(r.tokens.assemble, ['assemble', 'manage']),
      { audienceId: audience.id, subscribed: true },
    ),
  niche: async (r: Reader) =>
    Subscribers.setShadowAudience(await manage(r.tokens.manage), {
      audienceId: niche.id,
      subscribed: true,
    }),
  resubscribe: (r: Reader, audience = other) =>
    Subscribers.subscribe({ email: r.email, audienceId: audience.id }),
};

/** ROUNDS races of actions that answer 'ok' or the code of their VisibleError. */
function rounds(
  run: (race: (...actions: (() => Promise<unknown>)[]) => Promise<string[]>) => Promise<void>,
) {
  return Races.rounds(ROUNDS, (race) =>
    run((...actions) => race(...actions.map((action) => () => outcome(action())))),
  );
}

/** Whether a stored set (audiences, niches) holds `id`. */
const holds = (ids: Iterable<string> | undefined, id: string) => [...(ids ?? [])].includes(id);

async function stored(r: Reader) {
  return (await Subscribers.byId(r.id))!;
}

/** Whether the audience's membership lookup holds the subscriber. */
async function member(audience: Audience, id: string): Promise<boolean> {
  const { data } = await Subscribers.AudienceMemberEntity.get({
    audienceId: audience.id,
    subscriberId: id,
  }).go({ consistent: true });
  return Boolean(data);
}

/** Outbox messages of `kind` (confirmation e-mails unless told) queued for an address since `since`. */
async function queuedTo(email: string, since: number, kind = 'confirm-subscription') {
  const days = new Set([since, Date.now()].map((at) => new Date(at).toISOString().slice(0, 10)));
  const found: Outbox.OutboundEmail[] = [];
  for (const day of days) {
    const { data } = await Outbox.OutboundEmailEntity.query
      .byDay({ day })
      .where((attr, { eq }) => `${eq(attr.to, email)} AND ${eq(attr.kind, kind)}`)
      .go({ pages: 'all' });
    found.push(...data);
  }
  return found;
}

/**
 * What holds after any race: the address claim names the subscriber, the old address is free,
 * every audience's member item agrees with the set, and only a confirmed address is subscribed
 * (the newsletter goes to `subscribed` subscribers alone).
 */
async function consistent(r: Reader) {
  const now = await stored(r);
  expect((await Subscribers.byEmail(now.email))?.id).toBe(r.id);
  if (now.email !== r.email) expect(await Subscribers.byEmail(r.email)).toBeUndefined();
  for (const audience of [home, other, third]) {
    expect(await member(audience, r.id), audience.id).toBe(holds(now.audienceIds, audience.id));
  }
  if (now.status === 'subscribed') {
    expect(now.confirmedAt).toBeDefined();
    expect((await mirrored(now.email)).status).toBe('subscribed');
  }
  return now;
}

/** Whether the mailing list holds `audience` for the address exactly when the set does. */
async function mirrorAgrees(now: Subscribers.Subscriber, audience: Audience) {
  expect((await mirrored(now.email)).tags.has(audience.tag), audience.tag).toBe(
    holds(now.audienceIds, audience.id),
  );
}

describe('subscriber actions at the same moment', () => {
  it(
    'confirm × address change: the new address is never subscribed without its own confirmation',
    async () => {
      await rounds(async (race) => {
        const since = Date.now();
        const r = await reader();
        const stranger = address('stranger');
        const [confirmed, moved] = await race(
          () => act.confirm(r),
          () => act.move(r, stranger),
        );
        const now = await consistent(r);
        if (now.email === stranger) {
          // The move landed: pending at the new address, with fresh links, never confirmed there.
          expect(moved).toBe('ok');
          expect(now).toMatchObject({ status: 'pending', linkVersion: 1 });
          expect(now.confirmedAt).toBeUndefined();
          expect(await queuedTo(stranger, since)).toHaveLength(1);
        } else {
          // The confirmation landed first and the move, decided from 'pending', was refused.
          expect([confirmed, moved]).toEqual(['ok', 'subscriber.changed']);
          expect(now).toMatchObject({ status: 'subscribed', email: r.email, linkVersion: 0 });
          expect(await queuedTo(stranger, since)).toEqual([]);
        }
        if (confirmed !== 'ok') expect(REFUSED).toContain(confirmed);
        expect(await toldAbout(stranger)).toEqual([]);
      });
    },
    TIMEOUT_MS,
  );

  it(
    'confirm × unsubscribe: whoever was told they left has left',
    async () => {
      await rounds(async (race) => {
        const r = await reader();
        const [confirmed, left] = await race(
          () => act.confirm(r),
          () => act.leave(r),
        );
        const now = await consistent(r);
        expect([confirmed, left]).toContain('ok');
        if (left === 'ok') {
          expect(now.status).toBe('unsubscribed');
        } else {
          expect(left).toBe('subscriber.changed');
          expect(now.status).toBe('subscribed');
        }
        if (confirmed !== 'ok') {
          // The unsubscribe landed first: the confirmation was refused and told nobody, and a
          // pending address was never a member, so the list hears nothing at all.
          expect(REFUSED).toContain(confirmed);
          expect(await toldAbout(r.email)).toEqual([]);
        }
      });
    },
    TIMEOUT_MS,
  );

  it(
    'confirm × SelectMoreAudiences toggle: no toggle lands after the confirmation, and the mailing list has every audience',
    async () => {
      await rounds(async (race) => {
        const r = await reader();
        const [confirmed, toggled] = await race(
          () => act.confirm(r),
          () => act.assemble(r),
        );
        expect(confirmed).toBe('ok');
        const now = await consistent(r);
        expect(now.status).toBe('subscribed');
        if (toggled !== 'ok') expect(REFUSED).toContain(toggled);
        expect(holds(now.audienceIds, other.id)).toBe(toggled === 'ok');
        // The toggle landed before the confirmation, which told the mailing list of it.
        await mirrorAgrees(now, other);
      });
    },
    TIMEOUT_MS,
  );

  it(
    'confirm × preferences toggle and × niche toggle: the mailing list learns every audience and niche',
    async () => {
      await rounds(async (race) => {
        const r = await reader();
        const [confirmed, toggled, niched] = await race(
          () => act.confirm(r),
          () => act.prefer(r),
          () => act.niche(r),
        );
        expect(confirmed).toBe('ok');
        const now = await consistent(r);
        for (const answer of [toggled, niched])
          if (answer !== 'ok') expect(answer).toBe(REFUSED[0]);
        expect(holds(now.audienceIds, other.id)).toBe(toggled === 'ok');
        expect(holds(now.shadowAudienceIds, niche.id)).toBe(niched === 'ok');
        await mirrorAgrees(now, other);
        expect((await mirrored(now.email)).tags.has(niche.tag)).toBe(niched === 'ok');
      });
    },
    TIMEOUT_MS,
  );

  it(
    'address change × unsubscribe: a subscriber told they left gets no mail, and nothing goes to an address that lost',
    async () => {
      await rounds(async (race) => {
        const since = Date.now();
        const r = await reader({ confirmed: true });
        const elsewhere = address('elsewhere');
        const [moved, left] = await race(
          () => act.move(r, elsewhere),
          () => act.leave(r),
        );
        const now = await consistent(r);
        expect([moved, left]).toContain('ok');
        if (left === 'ok') expect(now.status).toBe('unsubscribed');
        else expect(REFUSED).toContain(left);
        if (moved === 'ok') {
          expect(now).toMatchObject({ email: elsewhere, linkVersion: 1 });
          expect(await queuedTo(elsewhere, since)).toHaveLength(1);
        } else {
          expect(moved).toBe('subscriber.changed');
          expect(now).toMatchObject({ email: r.email, linkVersion: 0, status: 'unsubscribed' });
          expect(await queuedTo(elsewhere, since)).toEqual([]);
        }
        expect(now.status).not.toBe('subscribed');
        // The confirmed address left the list either way.
        expect((await mirrored(r.email)).status).toBe('unsubscribed');
      });
    },
    TIMEOUT_MS,
  );

  for (const [name, toggle, confirmed] of [
    ['preferences toggle', act.prefer, true],
    ['SelectMoreAudiences toggle', act.assemble, false],
  ] as const) {
    it(
      `address change × ${name}: the move always lands; the toggle lands only before it`,
      async () => {
        await rounds(async (race) => {
          const r = await reader({ confirmed });
          const elsewhere = address('elsewhere');
          const [moved, toggled] = await race(
            () => act.move(r, elsewhere),
            () => toggle(r),
          );
          expect(moved).toBe('ok');
          const now = await consistent(r);
          expect(now).toMatchObject({ email: elsewhere, status: 'pending', linkVersion: 1 });
          if (toggled !== 'ok') expect(REFUSED).toContain(toggled);
          expect(holds(now.audienceIds, other.id)).toBe(toggled === 'ok');
          expect(await toldAbout(elsewhere)).toEqual([]);
        });
      },
      TIMEOUT_MS,
    );

    it(
      `unsubscribe × ${name}: the unsubscribe always lands; the toggle lands only before it`,
      async () => {
        await rounds(async (race) => {
          const r = await reader({ confirmed });
          const [left, toggled] = await race(
            () => act.leave(r),
            () => toggle(r),
          );
          expect(left).toBe('ok');
          const now = await consistent(r);
          expect(now.status).toBe('unsubscribed');
          // A pending address was never a member: the list hears of a confirmed one leaving.
          expect((await mirrored(r.email)).status).toBe(confirmed ? 'unsubscribed' : undefined);
          if (toggled !== 'ok') expect(REFUSED).toContain(toggled);
          expect(holds(now.audienceIds, other.id)).toBe(toggled === 'ok');
        });
      },
      TIMEOUT_MS,
    );
  }

  it(
    'preferences toggle × SelectMoreAudiences toggle: toggles of two audiences both land',
    async () => {
      await rounds(async (race) => {
        const r = await reader();
        expect(
          await race(
            () => act.prefer(r, other),
            () => act.assemble(r, third),
          ),
        ).toEqual(['ok', 'ok']);
        const now = await consistent(r);
        expect([...now.audienceIds!].sort()).toEqual([home.id, other.id, third.id].sort());
      });
    },
    TIMEOUT_MS,
  );

  it(
    'address change × address change to two addresses: one lands, the other is refused and sends nothing',
    async () => {
      await rounds(async (race) => {
        const since = Date.now();
        const r = await reader({ confirmed: true });
        const [to1, to2] = [address('first'), address('second')];
        const answers = await race(
          () => act.move(r, to1),
          () => act.move(r, to2),
        );
        // Never 'the address is taken': the loser's address is free, its subscriber moved.
        expect(answers.filter((answer) => answer === 'ok')).toHaveLength(1);
        for (const answer of answers) expect(['ok', ...REFUSED]).toContain(answer);
        const [winner, loser] = answers[0] === 'ok' ? [to1, to2] : [to2, to1];
        const now = await consistent(r);
        expect(now).toMatchObject({ email: winner, status: 'pending', linkVersion: 1 });
        expect(await Subscribers.byEmail(loser)).toBeUndefined();
        expect(await queuedTo(winner, since)).toHaveLength(1);
        expect(await queuedTo(loser, since)).toEqual([]);
      });
    },
    TIMEOUT_MS,
  );

  it(
    'address change × the same change (a second click): made once; at once, both answer the move',
    async () => {
      await rounds(async (race) => {
        const since = Date.now();
        const r = await reader({ confirmed: true });
        const to = address('moved');
        const answers = await race(
          () => act.move(r, to),
          () => act.move(r, to),
        );
        // A click that read before the move landed is answered with it; one that read after holds
        // a retired link.
        expect(answers).toContain('ok');
        for (const answer of answers) expect(['ok', 'subscriber.invalid_link']).toContain(answer);
        const now = await consistent(r);
        expect(now).toMatchObject({ email: to, status: 'pending', linkVersion: 1 });
        expect(await queuedTo(to, since)).toHaveLength(1);
      });
    },
    TIMEOUT_MS,
  );

  it(
    'confirm × confirm (a second click): both confirm, and the mailing list hears it once',
    async () => {
      await rounds(async (race) => {
        const r = await reader();
        expect(
          await race(
            () => act.confirm(r),
            () => act.confirm(r),
          ),
        ).toEqual(['ok', 'ok']);
        expect((await consistent(r)).status).toBe('subscribed');
        expect((await toldAbout(r.email)).filter((call) => 'member' in call)).toHaveLength(1);
      });
    },
    TIMEOUT_MS,
  );

  it(
    'unsubscribe × unsubscribe (a second click): both answer that they left',
    async () => {
      await rounds(async (race) => {
        const r = await reader({ confirmed: true });
        expect(
          await race(
            () => act.leave(r),
            () => act.leave(r),
          ),
        ).toEqual(['ok', 'ok']);
        expect((await consistent(r)).status).toBe('unsubscribed');
      });
    },
    TIMEOUT_MS,
  );

  it(
    'subscribing the pending address again × confirm: the confirmation lands; the audience is added before it or refused as already subscribed',
    async () => {
      await rounds(async (race) => {
        const r = await reader();
        const [again, confirmed] = await race(
          () => act.resubscribe(r),
          () => act.confirm(r),
        );
        expect(confirmed).toBe('ok');
        const now = await consistent(r);
        expect(now.status).toBe('subscribed');
        if (again !== 'ok') expect(again).toBe(Subscribers.ALREADY_SUBSCRIBED_CODE);
        expect(holds(now.audienceIds, other.id)).toBe(again === 'ok');
        await mirrorAgrees(now, other);
      });
    },
    TIMEOUT_MS,
  );
});
