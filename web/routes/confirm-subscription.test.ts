// The confirmation POST against an address change sent at the same moment, through the route
// actions an attacker would post to: subscribe your own address, keep the confirmation and
// preferences links, then change the address to a stranger's while confirming.
import { describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import * as Outbox from '#core/outbox';
import * as Subscribers from '#core/subscribers';
import { createAudience } from '#tests/integration/factories';
import { useOwnTable } from '#tests/integration/own-table';
import { EVERY_OFFSET, rounds } from '#tests/integration/races';
import { call, request } from '#tests/integration/route-call';
import { action as confirmAction } from './confirm-subscription';
import { action as preferencesAction } from './subscription';

// Its queued confirmation e-mails must not reach the outbox runs of other files sharing the table.
useOwnTable('confirm-races');

const ROUNDS = EVERY_OFFSET;
const CHANGED = 'Your subscription just changed. Please try again.';

const address = (name: string) => `${name}-${ulid().toLowerCase()}@example.org`;
const tokenIn = (link: string) => new URL(link).searchParams.get('subscriberHash')!;

/** The e-mails queued for an address today (a test table holds a few hundred). */
async function queuedTo(email: string) {
  const { data } = await Outbox.OutboundEmailEntity.query
    .byDay({ day: new Date().toISOString().slice(0, 10) })
    .where(({ to }, { eq }) => eq(to, email))
    .go({ pages: 'all' });
  return data;
}

describe('confirmation × address change at the same moment', () => {
  it("never subscribes the stranger's address, and tells the request that lost", async () => {
    const audience = await createAudience();
    await rounds(ROUNDS, async (race) => {
      const own = address('own');
      const stranger = address('stranger');
      const { subscriber } = await Subscribers.subscribe({ email: own, audienceId: audience.id });
      // The links of the confirmation e-mail.
      const links = Subscribers.subscriberLinks(subscriber);
      const confirm = tokenIn(links.confirmUrl);
      const manage = tokenIn(links.preferencesUrl);

      const [moved, confirmed] = await race(
        () =>
          call(
            preferencesAction,
            request(`/subscription?subscriberHash=${manage}`, {
              method: 'POST',
              body: new URLSearchParams({ intent: 'email', email: stranger }).toString(),
              headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
            }),
          ),
        () =>
          call(
            confirmAction,
            request(`/confirm-subscription?subscriberHash=${confirm}`, {
              method: 'POST',
            }),
          ),
      );

      const now = (await Subscribers.byId(subscriber.id))!;
      const strangers = await Subscribers.byEmail(stranger);
      // The newsletter goes to `subscribed` subscribers only: the stranger's address never is.
      expect(strangers?.status).not.toBe('subscribed');
      if (moved.status === 302) {
        // The move landed first: the stranger holds a pending subscription and one e-mail
        // asking them to confirm it; the old confirmation link was retired with it, or, if it
        // confirmed first, the move made the subscription pending again.
        expect(moved.location).toMatch(/^\/subscription\?subscriberHash=/);
        expect(now).toMatchObject({ email: stranger, status: 'pending', linkVersion: 1 });
        expect(now.confirmedAt).toBeUndefined();
        expect((await queuedTo(stranger)).map((email) => email.kind)).toEqual([
          'confirm-subscription',
        ]);
        if (confirmed.status !== 302) {
          expect(confirmed.status).toBeOneOf([400, 409]);
          expect((confirmed.data as { error: string }).error).toBeOneOf([
            CHANGED,
            Subscribers.BROKEN_LINK_MESSAGE,
          ]);
        }
      } else {
        // The confirmation landed first; the move, decided from 'pending', was refused.
        expect(moved).toMatchObject({
          status: 409,
          data: { ok: false, intent: 'email', error: CHANGED },
        });
        expect(confirmed.status).toBe(302);
        expect(confirmed.location).toMatch(/^\/subscription-confirmed\?subscriberHash=/);
        expect(now).toMatchObject({ email: own, status: 'subscribed', linkVersion: 0 });
        expect(strangers).toBeUndefined();
        expect(await queuedTo(stranger)).toEqual([]);
      }
    });
  }, 120_000);
});
