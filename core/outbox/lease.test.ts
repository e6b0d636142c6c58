// The send lease against the send rate: a worker that waits long for a slot of the send rate must
// not send an e-mail whose lease ended meanwhile and which another worker has sent.
import { ulid } from 'ulid';
import { describe, expect, it, vi } from 'vitest';
import * as Outbox from '#core/outbox';
import * as Subscribers from '#core/subscribers';
import { createAudience } from '#tests/integration/factories';
import { receivedBy } from '#tests/integration/mail';

/** While set, taking a send slot runs this first: the time a worker spends waiting for one. */
const waiting: { meanwhile?: () => Promise<void> } = {};
vi.mock('./send-rate', async (original) => {
  const actual = await original<typeof import('./send-rate')>();
  return {
    ...actual,
    takeSendSlot: async (...args: Parameters<typeof actual.takeSendSlot>) => {
      const meanwhile = waiting.meanwhile;
      waiting.meanwhile = undefined;
      await meanwhile?.();
      return actual.takeSendSlot(...args);
    },
  };
});

describe('the send lease', () => {
  it('sends once when a worker waited for a send slot past its lease and another sent it', async () => {
    const email = `reader-${ulid().toLowerCase()}@example.org`;
    const audience = await createAudience();
    await Subscribers.subscribe({ email, audienceId: audience.id });
    const { id } = (await Outbox.recent({ limit: 200 })).find(({ to }) => to === email)!;
    // The first worker waits for a slot so long that its lease ends, and the recovery schedule
    // sends the e-mail meanwhile.
    let other: Outbox.OutboundEmail | undefined;
    waiting.meanwhile = async () => {
      await Outbox.deliverDue({ at: Date.now() + Outbox.LEASE_MS + 1_000 });
      other = await Outbox.byId(id);
    };
    await Outbox.deliver(id);
    expect(other?.status).toBe('sent');
    expect(await receivedBy(email)).toHaveLength(1);
    expect(await Outbox.byId(id)).toMatchObject({ status: 'sent', attempts: 1 });
  });
});
