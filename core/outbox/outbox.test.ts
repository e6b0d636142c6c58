import { createServer, type AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ulid } from 'ulid';
import { config } from '#core/config';
import { mailer, smtpMailer, type Mailer } from '#core/mail';
import * as Outbox from '#core/outbox';
import * as Subscribers from '#core/subscribers';
import { createAudience } from '#tests/integration/factories';
import { receiveEmails } from '#tests/integration/job-queue';
import { receivedBy } from '#tests/integration/mail';

const address = () => `reader-${ulid().toLowerCase()}@example.org`;

/** A port nothing listens on: the mail server is down. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A mail server that refuses every recipient with `code`. */
async function refusingServer(code: number, message: string) {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    closeTimeout: 200,
    onRcptTo(_address, _session, callback) {
      callback(Object.assign(new Error(message), { responseCode: code }));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    mailer: smtpMailer({ url: `smtp://127.0.0.1:${port}`, from: config().MAIL_FROM }),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function subscribed(email = address()) {
  const audience = await createAudience();
  const { subscriber } = await Subscribers.subscribe({ email, audienceId: audience.id });
  const queued = (await Outbox.recent({ limit: 200 })).find(({ to }) => to === email);
  if (!queued) throw new Error(`No e-mail queued for ${email}`);
  return { email, subscriber, id: queued.id };
}

const later = (ms: number) => Date.now() + ms + 1_000;

describe('the e-mail outbox', () => {
  let down: Mailer;
  beforeAll(async () => {
    down = smtpMailer({ url: `smtp://127.0.0.1:${await closedPort()}`, from: config().MAIL_FROM });
  });

  it('sends exactly one confirmation once a mail server that was down at subscribe time is back', async () => {
    const { email, id } = await subscribed();
    expect(await Outbox.deliver(id, down)).toEqual({
      result: 'retry',
      delayMs: Outbox.retryDelayMs(1),
    });
    const waiting = await Outbox.byId(id);
    expect(waiting).toMatchObject({ status: 'queued', attempts: 1 });
    expect(waiting!.lastError).toMatch(/ECONNREFUSED/);
    expect(Date.parse(waiting!.nextAttemptAt)).toBeGreaterThan(Date.now() + 20_000);
    // Not due yet: a message arriving now sends nothing.
    expect(await Outbox.deliver(id)).toEqual({ result: 'not-due' });
    expect(await receivedBy(email)).toEqual([]);

    await Outbox.deliverDue({ at: later(Outbox.retryDelayMs(1)) });
    await Outbox.deliverDue({ at: later(Outbox.retryDelayMs(8)) });
    const received = await receivedBy(email);
    expect(received).toHaveLength(1);
    expect(received[0]!.subject).toBe('Confirm your Cluefeed subscription');
    expect(received[0]!.headers['message-id']).toBe(Outbox.messageIdOf(id));
    expect(await Outbox.byId(id)).toMatchObject({
      status: 'sent',
      attempts: 2,
      smtpMessageId: Outbox.messageIdOf(id),
      smtpResponse: expect.stringMatching(/^250/),
    });
  });

  it('sends once when a worker dies between its claim and the send (the lease ends)', async () => {
    const { email, id } = await subscribed();
    // The first worker claims the e-mail and never comes back.
    const killed: Mailer = { send: () => new Promise(() => {}) };
    void Outbox.deliver(id, killed);
    await expect.poll(async () => (await Outbox.byId(id))?.status).toBe('sending');
    // While its lease lasts nobody else sends it.
    await Outbox.deliverDue();
    expect(await Outbox.deliver(id)).toEqual({ result: 'not-due' });
    expect(await receivedBy(email)).toEqual([]);
    await Outbox.deliverDue({ at: later(Outbox.LEASE_MS) });
    await Outbox.deliverDue({ at: later(Outbox.LEASE_MS) });
    expect(await receivedBy(email)).toHaveLength(1);
    expect(await Outbox.byId(id)).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('queues again, for the workers to send, what no message is coming for, and sends nothing itself', async () => {
    const lost = await subscribed();
    expect(await receiveEmails([lost.id])).toHaveLength(1); // its message is gone
    const fresh = await subscribed(); // its message is still on its way
    const countsOf = (messages: { body: string }[]) =>
      messages.map(({ body }) => Outbox.messageOf(body)).sort();

    // Due for less than LOST_AFTER_MS: a message may still be coming (behind a backlog), so none
    // is added, not even a lease later.
    await Outbox.recoverDue();
    await Outbox.recoverDue({ at: later(Outbox.LEASE_MS) });
    expect(await receiveEmails([lost.id])).toEqual([]);
    // Due for longer: each gets a message (the fresh one a second), and nothing is sent here.
    await Outbox.recoverDue({ at: later(Outbox.LOST_AFTER_MS) });
    // (The fresh one's first message may be held out of sight by the receive above: a receive
    // hides every message it sees for the visibility timeout.)
    const messages = await receiveEmails([lost.id, fresh.id]);
    expect(countsOf(messages).filter((id) => id === lost.id)).toEqual([lost.id]);
    expect(countsOf(messages)).toContain(fresh.id);
    expect(await receivedBy(lost.email)).toEqual([]);

    // The workers send each once, however many messages name it.
    await Outbox.handleBatch(messages);
    expect(await receivedBy(lost.email)).toHaveLength(1);
    expect(await receivedBy(fresh.email)).toHaveLength(1);
    await Outbox.recoverDue({ at: later(Outbox.LOST_AFTER_MS) });
    expect(await receiveEmails([lost.id, fresh.id])).toEqual([]);

    // After a local queue restart every due e-mail lost its message: each is queued at once.
    const restarted = await subscribed();
    await receiveEmails([restarted.id]);
    await Outbox.recoverDue({ queueEmptied: true });
    const again = await receiveEmails([restarted.id]);
    expect(countsOf(again)).toEqual([restarted.id]);
    await Outbox.handleBatch(again);
    expect(await receivedBy(restarted.email)).toHaveLength(1);
  });

  it("queues a dead sender's e-mail again once its lease ended, and a live lease is never overtaken", async () => {
    const { email, id } = await subscribed();
    await receiveEmails([id]);
    const killed: Mailer = { send: () => new Promise(() => {}) };
    void Outbox.deliver(id, killed);
    await expect.poll(async () => (await Outbox.byId(id))?.status).toBe('sending');
    await Outbox.recoverDue();
    expect(await receiveEmails([id])).toEqual([]);
    // A run that sees the lease ended queues it; a worker whose clock says the lease lasts sends
    // nothing (the claim decides), so a recovered message cannot make a second sender.
    await Outbox.recoverDue({ at: later(Outbox.LEASE_MS) });
    const messages = await receiveEmails([id]);
    expect(messages).toHaveLength(1);
    await Outbox.handleBatch(messages);
    expect(await receivedBy(email)).toEqual([]);
    expect(await Outbox.byId(id)).toMatchObject({ status: 'sending', attempts: 1 });
    // Once the lease has ended for the sender too, it goes out once.
    await Outbox.deliverDue({ at: later(Outbox.LEASE_MS) });
    expect(await receivedBy(email)).toHaveLength(1);
  });

  it('sends once when two workers race for the same e-mail', async () => {
    const { email, id } = await subscribed();
    const [due, ...outcomes] = await Promise.all([
      Outbox.deliverDue(),
      Outbox.deliver(id),
      Outbox.deliver(id),
      Outbox.deliver(id),
    ]);
    const sends = outcomes.filter(({ result }) => result === 'sent').length + due.sent;
    expect(sends).toBe(1);
    expect(await receivedBy(email)).toHaveLength(1);
    expect(await Outbox.byId(id)).toMatchObject({ status: 'sent', attempts: 1 });
  });

  describe('with a mail server that refuses', () => {
    const servers: { stop(): Promise<void> }[] = [];
    afterAll(() => Promise.all(servers.map((server) => server.stop())));

    it('marks an e-mail failed with the reason when the server refuses it for good (5xx)', async () => {
      const refusing = await refusingServer(550, 'No such mailbox here');
      servers.push(refusing);
      const { email, id } = await subscribed();
      expect(await Outbox.deliver(id, refusing.mailer)).toEqual({ result: 'failed' });
      expect(await Outbox.byId(id)).toMatchObject({
        status: 'failed',
        attempts: 1,
        lastError: expect.stringMatching(/^550 No such mailbox here/),
      });
      await Outbox.deliverDue({ at: later(Outbox.retryDelayMs(8)) });
      expect(await receivedBy(email)).toEqual([]);
    });

    it('retries a temporary refusal (4xx) with growing delays, then gives up with the reason', async () => {
      const busy = await refusingServer(451, 'Try again later');
      servers.push(busy);
      const { id } = await subscribed();
      let at = Date.now();
      for (let attempt = 1; attempt <= Outbox.MAX_ATTEMPTS; attempt++) {
        expect((await Outbox.byId(id))?.status).toBe('queued');
        const started = Date.now();
        const counts = await Outbox.deliverDue({ at, mailer: busy.mailer });
        const took = Date.now() - started;
        expect(counts.retry + counts.failed).toBeGreaterThanOrEqual(1);
        const email = (await Outbox.byId(id))!;
        if (email.status === 'queued') {
          // The delay counts from the attempt's claim, which is at most the run's length after `at`.
          const delay = Date.parse(email.nextAttemptAt) - at;
          expect(delay, `attempt ${attempt}`).toBeGreaterThanOrEqual(Outbox.retryDelayMs(attempt));
          expect(delay, `attempt ${attempt}`).toBeLessThanOrEqual(
            Outbox.retryDelayMs(attempt) + took,
          );
        } else {
          expect(attempt).toBe(Outbox.MAX_ATTEMPTS);
        }
        at = Date.parse(email.nextAttemptAt) + 1;
      }
      expect(await Outbox.byId(id)).toMatchObject({
        status: 'failed',
        attempts: Outbox.MAX_ATTEMPTS,
        lastError: expect.stringMatching(/^Gave up after 8 attempts: 451 Try again later/),
      });
    });
  });

  it('sends a copy again with the same Message-ID when the worker died after the server took it', async () => {
    const { email, id } = await subscribed();
    // The server accepts the message, then the worker dies before it can write `sent`.
    const diesAfterSending: Mailer = {
      async send(mail) {
        await mailer().send(mail);
        throw new Error('worker stopped');
      },
    };
    await Outbox.deliver(id, diesAfterSending);
    await Outbox.deliverDue({ at: later(Outbox.retryDelayMs(1)) });
    const copies = await receivedBy(email);
    expect(copies).toHaveLength(2);
    expect(new Set(copies.map((copy) => copy.headers['message-id']))).toEqual(
      new Set([Outbox.messageIdOf(id)]),
    );
  });

  it('lists the newest e-mails first with their delivery state', async () => {
    const first = await subscribed();
    const second = await subscribed();
    await Outbox.deliver(second.id);
    const listed = await Outbox.recent({ limit: 200 });
    const ids = listed.map(({ id }) => id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    expect(listed.find(({ id }) => id === second.id)).toMatchObject({
      status: 'sent',
      sentAt: expect.any(String),
    });
    expect(Outbox.messageOf(JSON.stringify({ outboundEmailId: first.id }))).toBe(first.id);
    expect(Outbox.messageOf(JSON.stringify({ processId: first.id }))).toBeUndefined();
  });
});
