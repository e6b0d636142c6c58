// The send lease against the send rate: a worker that waits long for a slot of the send rate must
// not send an e-mail whose lease ended meanwhile and which another worker has sent.
import { ulid } from 'ulid';
import { describe, expect, it, vi } from 'vitest';
import { mailer, type Mailer } from '#core/mail';
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
    takeSendSlots: async (...args: Parameters<typeof actual.takeSendSlots>) => {
      const meanwhile = waiting.meanwhile;
      waiting.meanwhile = undefined;
      await meanwhile?.();
      return actual.takeSendSlots(...args);
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

  it('leases the e-mail from the end of the wait, so nobody else sends it while this worker does', async () => {
    const email = `reader-${ulid().toLowerCase()}@example.org`;
    const audience = await createAudience();
    await Subscribers.subscribe({ email, audienceId: audience.id });
    const { id } = (await Outbox.recent({ limit: 200 })).find(({ to }) => to === email)!;
    // The wait for a slot lasts longer than a lease (the clock is moved on by that much) ...
    const realNow = Date.now.bind(Date);
    const clock = vi.spyOn(Date, 'now');
    waiting.meanwhile = async () => {
      clock.mockImplementation(() => realNow() + Outbox.LEASE_MS + 1_000);
    };
    // ... and while this worker sends, the recovery schedule looks for e-mails whose lease ended.
    let other: Awaited<ReturnType<typeof Outbox.deliverDue>> | undefined;
    const sending: Mailer = {
      send: async (message) => {
        other = await Outbox.deliverDue({ at: Date.now() + 1_000 });
        return mailer().send(message);
      },
    };
    try {
      expect(await Outbox.deliver(id, sending)).toEqual({ result: 'sent' });
    } finally {
      clock.mockRestore();
    }
    expect(other).toMatchObject({ sent: 0 });
    expect(await receivedBy(email)).toHaveLength(1);
    expect(await Outbox.byId(id)).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('leases each e-mail of a recovery run when it is reached, not when the run began', async () => {
    const audience = await createAudience();
    const addresses = [1, 2].map((n) => `reader-${n}-${ulid().toLowerCase()}@example.org`);
    for (const email of addresses) await Subscribers.subscribe({ email, audienceId: audience.id });
    const start = Date.now();
    const realNow = Date.now.bind(Date);
    const clock = vi.spyOn(Date, 'now');
    // The first send is slow: it takes longer than a lease. While the second is sent, another
    // recovery run looks for e-mails whose lease ended.
    let sends = 0;
    let other: Awaited<ReturnType<typeof Outbox.deliverDue>> | undefined;
    const slow: Mailer = {
      send: async (message) => {
        sends += 1;
        if (sends === 1) clock.mockImplementation(() => realNow() + Outbox.LEASE_MS + 1_000);
        else if (addresses.some((address) => message.to === address)) {
          other = await Outbox.deliverDue({ at: Date.now() + 1_000 });
        }
        return mailer().send(message);
      },
    };
    try {
      // Due now: both of them (and whatever other tests left due, which this run sends too).
      await Outbox.deliverDue({ at: start + 1_000, mailer: slow });
    } finally {
      clock.mockRestore();
    }
    expect(other).toMatchObject({ sent: 0 });
    for (const email of addresses) expect(await receivedBy(email)).toHaveLength(1);
  });
});
