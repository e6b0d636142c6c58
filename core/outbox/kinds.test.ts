// The outbox delivers only kinds a module registered: one nobody registered is never sent or
// settled without its owner's checks and writes, but handed back for a worker that knows it.
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import * as Outbox from '#core/outbox';
import * as Subscribers from '#core/subscribers';
import { createAudience } from '#tests/integration/factories';
import { receivedBy } from '#tests/integration/mail';

async function queuedConfirmation() {
  const email = `reader-${ulid().toLowerCase()}@example.org`;
  const audience = await createAudience();
  await Subscribers.subscribe({ email, audienceId: audience.id });
  const { id } = (await Outbox.recent({ limit: 200 })).find(({ to }) => to === email)!;
  return { email, id };
}

describe('outbox kinds', () => {
  it('refuses to deliver a kind no module registered, says so, and hands the e-mail back untouched', async () => {
    const { email, id } = await queuedConfirmation();
    const kind = `unregistered-${ulid().toLowerCase()}`;
    const { day } = (await Outbox.byId(id))!;
    await Outbox.OutboundEmailEntity.patch({ day, id }).set({ kind }).go();

    const refused = Outbox.deliver(id);
    await expect(refused).rejects.toThrow(Outbox.UnregisteredKind);
    await expect(refused).rejects.toThrow(`No module registered the outbox kind "${kind}"`);
    expect(await Outbox.byId(id)).toMatchObject({ status: 'queued', attempts: 0 });
    // Through the worker: the message is retried, never dropped.
    const message = { messageId: 'm-1', body: JSON.stringify({ outboundEmailId: id }) };
    expect(await Outbox.handleBatch([message])).toEqual({
      batchItemFailures: [{ itemIdentifier: 'm-1' }],
    });
    expect(await Outbox.byId(id)).toMatchObject({ status: 'queued', attempts: 0 });
    expect(await receivedBy(email)).toHaveLength(0);

    // A worker that knows the kind sends it as if nothing had happened.
    await Outbox.OutboundEmailEntity.patch({ day, id }).set({ kind: 'confirm-subscription' }).go();
    expect(await Outbox.deliver(id)).toEqual({ result: 'sent' });
    expect(await Outbox.byId(id)).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it("asks the kind's owner before sending: a subscriber who left is not sent their confirmation", async () => {
    const { email, id } = await queuedConfirmation();
    const subscriber = (await Subscribers.byEmail(email))!;
    await Subscribers.unsubscribe(subscriber);
    expect(await Outbox.deliver(id)).toEqual({ result: 'cancelled' });
    expect(await Outbox.byId(id)).toMatchObject({
      status: 'cancelled',
      lastError: 'The subscriber unsubscribed before it was sent',
    });
    expect(await receivedBy(email)).toHaveLength(0);
  });
});
