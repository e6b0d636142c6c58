// SelectMoreAudiences' link (ADR 0008): whoever types an address gets it, so it may change only a
// subscription nobody has confirmed. Once the address's owner confirms, the link shows the
// broken-link message and its toggles change nothing, for good.
import { describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import * as Subscribers from '#core/subscribers';
import { createAudience } from '#tests/integration/factories';
import { linkIn, messagesTo } from '#tests/integration/mail';
import { call, changes, request, storedItems } from '#tests/integration/route-call';
import { action as assembleAction, loader as assembleLoader } from './assemble-your-newsletter';
import { action as audienceAction } from './audience';
import { action as confirmAction } from './confirm-subscription';
import { action as unsubscribeAction } from './unsubscribe';

const address = (name: string) => `${name}-${ulid().toLowerCase()}@example.org`;
const formHeaders = { 'Content-Type': 'application/x-www-form-urlencoded' };
const post = (path: string, form: Record<string, string> = {}) =>
  request(path, {
    method: 'POST',
    body: new URLSearchParams(form).toString(),
    headers: formHeaders,
  });
/** A link of an e-mail as the path the browser requests. */
const pathOf = (link: string) => {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
};

/** A stranger types `email` on the audience page and follows the redirect's assemble link. */
async function typeAddress(slug: string, email: string): Promise<string | undefined> {
  const typed = await call(audienceAction, post(`/a/${slug}`, { email }), { slug });
  expect(typed.status).toBe(302);
  return typed.location?.startsWith('/assemble-your-newsletter') ? typed.location : undefined;
}

/** The owner confirms from their latest e-mail. */
async function confirmFromInbox(email: string) {
  const confirmation = (await messagesTo(email)).at(-1)!;
  const link = linkIn(confirmation, 'http://localhost:3000/confirm-subscription');
  expect((await call(confirmAction, post(pathOf(link)))).status).toBe(302);
  return confirmation;
}

/** The assemble link's page and both kinds of toggle answer the broken link and store nothing. */
async function expectDead(assemblePath: string, audienceIds: { add: string; remove: string }) {
  const page = await call(assembleLoader, request(assemblePath));
  expect(page).toMatchObject({
    status: 400,
    data: { ok: false, error: Subscribers.BROKEN_LINK_MESSAGE },
  });
  const before = await storedItems();
  for (const [audienceId, subscribed] of [
    [audienceIds.add, 'true'],
    [audienceIds.remove, 'false'],
  ] as const) {
    const toggled = await call(
      assembleAction,
      post(assemblePath, { intent: 'toggle', audienceId, subscribed }),
    );
    expect(toggled).toMatchObject({
      status: 400,
      data: { ok: false, error: Subscribers.BROKEN_LINK_MESSAGE },
    });
  }
  expect(changes(before, await storedItems())).toEqual([]);
}

// A few requests and an outbox run each; generous for a busy machine.
const TIMEOUT_MS = 60_000;

describe('the assemble link', () => {
  it(
    'works while the subscription is pending and dies when its owner confirms',
    async () => {
      const [home, other, third] = await Promise.all([
        createAudience(),
        createAudience(),
        createAudience(),
      ]);
      const owner = address('owner');
      const assemblePath = (await typeAddress(home.slug, owner))!;

      // Pending: the visitor who typed the address picks audiences.
      expect(await call(assembleLoader, request(assemblePath))).toMatchObject({
        status: 200,
        data: { ok: true, email: owner },
      });
      const picked = await call(
        assembleAction,
        post(assemblePath, { intent: 'toggle', audienceId: other.id, subscribed: 'true' }),
      );
      expect(picked).toMatchObject({ status: 200, data: { ok: true } });

      await confirmFromInbox(owner);
      const confirmed = (await Subscribers.byEmail(owner))!;
      expect(confirmed.status).toBe('subscribed');
      await expectDead(assemblePath, { add: third.id, remove: other.id });
      expect(await Subscribers.byEmail(owner)).toEqual(confirmed);
    },
    TIMEOUT_MS,
  );

  it(
    'stays dead when the confirmed owner leaves and someone types the address again',
    async () => {
      const [home, other] = await Promise.all([createAudience(), createAudience()]);
      const owner = address('owner');
      const assemblePath = (await typeAddress(home.slug, owner))!;
      const confirmation = await confirmFromInbox(owner);
      const unsubscribePath = pathOf(linkIn(confirmation, 'http://localhost:3000/unsubscribe'));
      expect((await call(unsubscribeAction, post(unsubscribePath))).status).toBe(200);

      // Typed again: pending once more, a fresh confirmation for the owner (sent now, so nothing
      // stays queued), and no new assemble link for the typist.
      expect(await typeAddress(home.slug, owner)).toBeUndefined();
      expect((await Subscribers.byEmail(owner))?.status).toBe('pending');
      expect((await messagesTo(owner)).map((message) => message.subject)).toEqual([
        'Confirm your Cluefeed subscription',
        'Confirm your Cluefeed subscription',
      ]);
      await expectDead(assemblePath, { add: other.id, remove: home.id });
    },
    TIMEOUT_MS,
  );
});
