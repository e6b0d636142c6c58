// A newsletter's e-mails through a mail server that refuses some of them: a refusal for good (5xx)
// fails that Delivery with the server's reason, a temporary one (4xx) is retried until it goes,
// and a subscriber who unsubscribes while their e-mail waits is skipped. The issue's counts move
// with each Delivery and always add up to its recipients. The file has a table of its own.
import { type AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { config } from '#core/config';
import * as Jobs from '#core/jobs';
import type { Mailer } from '#core/mail';
import * as Newsletter from '#core/newsletter';
import * as Outbox from '#core/outbox';
import * as Subscribers from '#core/subscribers';
import { receive } from '#tests/integration/job-queue';
import { dailyWorld } from '#tests/integration/newsletter-world';
import { useOwnTable } from '#tests/integration/own-table';

/** The mail server every send uses while set (the outbox reads `mailer()` when it sends). */
const current: { mailer?: Mailer } = {};
vi.mock('#core/mail', async (original) => {
  const actual = await original<typeof import('#core/mail')>();
  return { ...actual, mailer: () => current.mailer ?? actual.mailer() };
});

useOwnTable('newsletter-refusals');

const jobs = Jobs.registry([Newsletter.sendNewsletters]);
const deliver = (...messages: { messageId: string; body: string }[]) =>
  Jobs.handleBatch(messages, jobs);

/** A server answering per recipient: `answer(to)` gives a code (250 accepts). */
async function server(answer: (to: string) => number) {
  const accepted: string[] = [];
  const { smtpMailer } = await vi.importActual<typeof import('#core/mail')>('#core/mail');
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    closeTimeout: 200,
    onRcptTo(address, _session, callback) {
      const code = answer(address.address);
      if (code === 250) return callback();
      callback(
        Object.assign(new Error(code === 550 ? 'No such mailbox' : 'Try later'), {
          responseCode: code,
        }),
      );
    },
    onData(stream, session, callback) {
      stream.resume();
      stream.on('end', () => {
        accepted.push(...session.envelope.rcptTo.map((r) => r.address));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  return {
    accepted,
    mailer: smtpMailer({ url: `smtp://127.0.0.1:${port}`, from: config().MAIL_FROM }),
    stop: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}

async function runToEnd(processId: string) {
  await deliver(...(await receive(processId)));
  for (const message of await receive(processId)) await deliver(message);
  return (await Jobs.byId(processId))!;
}

/** Every Delivery is in exactly one of these. */
const written = (i: Newsletter.NewsletterIssue) =>
  (i.queued ?? 0) + (i.sent ?? 0) + (i.failed ?? 0) + (i.skipped ?? 0);

describe('a newsletter through a server that refuses some addresses', () => {
  const stops: (() => Promise<void>)[] = [];
  afterAll(() => Promise.all(stops.map((s) => s())));

  it('fails a 5xx, retries a 4xx, skips who unsubscribed before the retry, and counts each once', async () => {
    const { audience, readers } = await dailyWorld(4);
    const [refused, busy, fine, leaving] = readers as [
      Subscribers.Subscriber,
      Subscribers.Subscriber,
      Subscribers.Subscriber,
      Subscribers.Subscriber,
    ];
    const answers = new Map([
      [refused.email, 550],
      [busy.email, 451],
      [leaving.email, 451],
    ]);
    const smtp = await server((to) => answers.get(to) ?? 250);
    stops.push(smtp.stop);
    current.mailer = smtp.mailer;
    const campaign = await Newsletter.checkCampaign({
      from: new Date(Date.now() - 86_400_000).toISOString(),
      to: new Date().toISOString(),
      frequency: 'daily',
      audienceIds: [audience.id],
    });
    const issue = await Newsletter.scheduleCampaign(campaign, {
      id: Newsletter.newCampaignId(),
      createdBy: 'admin',
    });
    expect(await runToEnd(issue.processId!)).toMatchObject({ status: 'Success' });
    // The outbox worker sends what the chunk queued (tests run no poller).
    await Outbox.deliverDue();
    let now = (await Newsletter.issueById(issue.id))!;
    expect(now).toMatchObject({ recipients: 4, sent: 1, failed: 1, queued: 2, skipped: 0 });
    expect(await Newsletter.deliveryOf(issue.id, refused.id)).toMatchObject({
      status: 'failed',
      reason: expect.stringMatching(/^550/),
    });
    expect(await Newsletter.deliveryOf(issue.id, fine.id)).toMatchObject({
      status: 'sent',
      smtpMessageId: expect.any(String),
    });
    // `leaving` unsubscribes while their e-mail waits for its retry; the server takes `busy` now.
    await Subscribers.unsubscribe((await Subscribers.byId(leaving.id))!);
    answers.delete(busy.email);
    await Outbox.deliverDue({ at: Date.now() + Outbox.retryDelayMs(1) + 1000 });
    now = (await Newsletter.issueById(issue.id))!;
    // The skip is counted with its reason, in the same write.
    expect(now).toMatchObject({
      sent: 2,
      failed: 1,
      queued: 0,
      skipped: 1,
      skippedUnsubscribed: 1,
      status: 'done',
    });
    expect(written(now)).toBe(now.recipients);
    expect(await Newsletter.deliveryOf(issue.id, leaving.id)).toMatchObject({ status: 'skipped' });
    expect(smtp.accepted.sort()).toEqual([busy.email, fine.email].sort());
    // Nothing is left to send, however late the outbox looks again.
    await Outbox.deliverDue({ at: Date.now() + 10 * 3600_000 });
    expect(await Newsletter.issueById(issue.id)).toMatchObject({
      sent: 2,
      failed: 1,
      queued: 0,
      skipped: 1,
    });
  });
});
